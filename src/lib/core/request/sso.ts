import { extSSOProv } from '../catalogue/services-servers';
import { keyOf } from '../catalogue/services';
import type { AccountTags } from '../response/provisioning';
import { chosenUrl, urlCandidates, type Settings, type UrlCandidate } from './settings';
import type { Values } from './values';

/**
 * How the SSO server resolves the External provisioning call during authentication, and how the
 * legacy `%username%` and `%password%` of External Authentication are filled (the contract's
 * External Authentication flows 2 to 4). The URL priority comes from the catalogue's keys.
 */

/** Which URL the SSO server calls, or that it skips the call. */
export interface ProvisioningRoute {
	/** externalProvisioningOnSSODisabled is 1: no external provisioning call during sign-in. */
	skipped: boolean;
	/** The key that switches the call off. */
	flagKey: string;
	/** Every key that may supply the URL, by priority. */
	candidates: UrlCandidate[];
	/** The one called: the first candidate set; null when none is (or the call is skipped). */
	chosen: UrlCandidate | null;
}

/** The route for the settings of External provisioning on SSO. */
export function provisioningRoute(settings: Settings): ProvisioningRoute {
	const flagKey = keyOf(extSSOProv, 'flag') ?? '';
	const skipped = (settings[flagKey] ?? '').trim() === '1';
	const candidates = urlCandidates(extSSOProv, settings);
	return { skipped, flagKey, candidates, chosen: skipped ? null : chosenUrl(candidates) };
}

/** The device credentials: the cloud user name and password the app signs in with. */
export const DEVICE_CREDENTIALS = {
	username: 'account[cloud_username]',
	password: 'account[cloud_password]'
} as const;

/** The device credentials in a scenario's values ('' when a value is not text). */
export function deviceCredentials(values: Values): { username: string; password: string } {
	const text = (key: string) => {
		const value = values[key];
		return typeof value === 'string' ? value : '';
	};
	return {
		username: text(DEVICE_CREDENTIALS.username),
		password: text(DEVICE_CREDENTIALS.password)
	};
}

/** One legacy placeholder and where its value comes from. */
export interface LegacyCredential {
	placeholder: 'username' | 'password';
	value: string;
	source: 'account.xml' | 'device';
}

/**
 * `%username%` and `%password%`: the account document's `username` and `password` tags when it
 * has them (a tag with text), else the device credentials (the cloud username and password).
 */
export function legacyCredentials(
	tags: AccountTags | null,
	device: { username: string; password: string }
): LegacyCredential[] {
	return (['username', 'password'] as const).map((placeholder) => {
		const tag = tags?.[placeholder] ?? null;
		return tag !== null && tag.trim() !== ''
			? { placeholder, value: tag, source: 'account.xml' }
			: { placeholder, value: device[placeholder], source: 'device' };
	});
}
