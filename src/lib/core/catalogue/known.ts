import type { Caller, Service } from './schema';
import { mediaRefSend, phoneNumberVerifier, pushTokenReporter, sendMessage } from './services-app';

/**
 * The services this program knows so far. Those the app calls under the contract are always
 * known; the others (the servers' and those beyond the contract) become known when the whole
 * catalogue (`./services`) is imported, which the server, the command line and most pages do at
 * once, and the editor's page once it needs them: its first load then stays the same size
 * however many services the catalogue gains.
 */

/** The services the app calls under the contract, in catalogue order: known from the start. */
export const FIRST_SERVICES: readonly Service[] = [
	sendMessage,
	mediaRefSend,
	phoneNumberVerifier,
	pushTokenReporter
];

let known: readonly Service[] = FIRST_SERVICES;
let byId = new Map(known.map((s) => [s.id, s]));

/** Every service known so far, in catalogue order. */
export function knownServices(): readonly Service[] {
	return known;
}

/** The known service with this id, or undefined. */
export function findKnownService(id: string): Service | undefined {
	return byId.get(id);
}

/** True for a service known from the start. */
export function isFirstService(id: string): boolean {
	return FIRST_SERVICES.some((s) => s.id === id);
}

/** Makes the whole catalogue known (called once, by the module that lists it). */
export function knowServices(all: readonly Service[]): void {
	known = all;
	byId = new Map(all.map((s) => [s.id, s]));
}

/**
 * Something worked out from the known services, worked out again once more of them are known
 * (the editor's page reads the same rules before and after the whole catalogue loads).
 */
export function fromKnown<T>(derive: (services: readonly Service[]) => T): () => T {
	let from: readonly Service[] | null = null;
	let value: T;
	return () => {
		if (from !== known) {
			value = derive(known);
			from = known;
		}
		return value;
	};
}

/** Who calls, in words an admin reads. */
export const CALLER_LABELS: Record<Caller, string> = {
	app: 'The app',
	sso: 'The SSO server',
	contacts: 'The contacts server',
	provider: 'The provider, calling the push gateway'
};

/** The key of a service with this role (the first one), or undefined. */
export function keyOf(service: Service, role: Service['keys'][number]['role']): string | undefined {
	return service.keys.find((k) => k.role === role)?.key;
}
