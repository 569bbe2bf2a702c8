import type { ConfigKey, KeyLocation, Source } from './schema';

/** The additional provisioning XML location of account-level settings. */
export const ACCOUNT_CORE_PATH = 'provisioning/account/core';

/** Account-level settings in the additional provisioning XML. */
export const ACCOUNT_XML: KeyLocation = { kind: 'accountXml', path: ACCOUNT_CORE_PATH };

/** A portal form step. */
export function portal(step: string): KeyLocation {
	return { kind: 'portal', step };
}

/**
 * The URL / post data / content type trio every provider-implemented service has, named
 * `<prefix>Url`, `<prefix>PostData` and `<prefix>ContentType`; with `source` when the names do
 * not come from the contract.
 */
export function templateKeys(
	prefix: string,
	location: KeyLocation,
	defaultContentType: string | null,
	source?: Source
): ConfigKey[] {
	const keys: ConfigKey[] = [
		{
			key: `${prefix}Url`,
			role: 'url',
			label: 'URL',
			location,
			description: 'URL template with scheme, optionally with a query string.'
		},
		{
			key: `${prefix}PostData`,
			role: 'postData',
			label: 'Post data',
			location,
			description: 'Body template. When it is filled in, the request is POST.'
		},
		{
			key: `${prefix}ContentType`,
			role: 'contentType',
			label: 'Content type',
			location,
			description:
				defaultContentType === null
					? 'Content-Type of the body. The contract does not say which one is used when none is set.'
					: `Content-Type of the body; ${defaultContentType} when empty.`
		}
	];
	return source ? keys.map((k) => ({ ...k, source })) : keys;
}
