import type { Caller, Service } from './schema';
import { mediaRefSend, phoneNumberVerifier, pushTokenReporter, sendMessage } from './services-app';
import {
	externalAuth,
	extSSOProv,
	invitationAccepted,
	pushMultisend,
	pushSend,
	smartContactNotification
} from './services-servers';

/** Every service of the contract, in the order the contract presents them. */
export const SERVICES: readonly Service[] = [
	sendMessage,
	mediaRefSend,
	externalAuth,
	extSSOProv,
	phoneNumberVerifier,
	invitationAccepted,
	smartContactNotification,
	pushTokenReporter,
	pushSend,
	pushMultisend
];

/** The service ids, as used in URLs and the API. */
export const SERVICE_IDS = SERVICES.map((s) => s.id);

/** Who calls, in words an admin reads. */
export const CALLER_LABELS: Record<Caller, string> = {
	app: 'The app',
	sso: 'The SSO server',
	contacts: 'The contacts server',
	provider: 'The provider, calling the push gateway'
};

const BY_ID = new Map(SERVICES.map((s) => [s.id, s]));

/** The service with this id, or undefined. */
export function findService(id: string): Service | undefined {
	return BY_ID.get(id);
}

/** The service with this id; throws for an id that is not in the catalogue (a programmer bug). */
export function getService(id: string): Service {
	const service = BY_ID.get(id);
	if (!service) throw new Error(`No service "${id}" in the catalogue`);
	return service;
}

/** The services grouped by caller, callers in a fixed order, services in catalogue order. */
export function servicesByCaller(): { caller: Caller; label: string; services: Service[] }[] {
	const callers: Caller[] = ['app', 'sso', 'contacts', 'provider'];
	return callers.map((caller) => ({
		caller,
		label: CALLER_LABELS[caller],
		services: SERVICES.filter((s) => s.caller === caller)
	}));
}

/** The key of a service with this role (the first one), or undefined. */
export function keyOf(service: Service, role: Service['keys'][number]['role']): string | undefined {
	return service.keys.find((k) => k.role === role)?.key;
}
