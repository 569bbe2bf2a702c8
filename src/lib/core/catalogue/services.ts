import { CALLER_LABELS, knowServices } from './known';
import type { Caller, Service } from './schema';
import { mediaRefSend, phoneNumberVerifier, pushTokenReporter, sendMessage } from './services-app';
import { balanceChecker, fetchMessages, rateChecker } from './services-beyond';
import { accountRemovalReporter, pushNotificationReporter } from './services-reporters';
import { initialProvisioning } from './services-provisioning';
import { webServiceContacts } from './services-contacts';
import {
	externalAuth,
	extSSOProv,
	invitationAccepted,
	pushMultisend,
	pushSend,
	smartContactNotification
} from './services-servers';

export { CALLER_LABELS, keyOf } from './known';

/**
 * Every service of the contract, in the order the contract presents them, then the platform's
 * services beyond it (whose entries say where each rule comes from).
 */
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
	pushMultisend,
	fetchMessages,
	balanceChecker,
	rateChecker,
	accountRemovalReporter,
	pushNotificationReporter,
	initialProvisioning,
	webServiceContacts
];

knowServices(SERVICES);

/** The service ids, as used in URLs and the API. */
export const SERVICE_IDS = SERVICES.map((s) => s.id);

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

/** What a group of services shows under: the caller's label, and beyond the contract. */
export const BEYOND_CONTRACT_LABEL = 'The app, beyond the contract';

/** A group of services: `id` is the caller, or `beyond` for the services beyond the contract. */
export interface ServiceGroup {
	id: Caller | 'beyond';
	caller: Caller;
	label: string;
	services: Service[];
}

/**
 * The contract's services grouped by caller, callers in a fixed order, services in catalogue
 * order; then the services beyond the contract (all called by the app) in a group of their own.
 */
export function servicesByCaller(): ServiceGroup[] {
	const callers: Caller[] = ['app', 'sso', 'contacts', 'provider'];
	const groups: ServiceGroup[] = callers.map((caller) => ({
		id: caller,
		caller,
		label: CALLER_LABELS[caller],
		services: SERVICES.filter((s) => s.caller === caller && !s.source)
	}));
	const beyond = SERVICES.filter((s) => s.source);
	groups.splice(1, 0, {
		id: 'beyond',
		caller: 'app',
		label: BEYOND_CONTRACT_LABEL,
		services: beyond
	});
	return groups;
}
