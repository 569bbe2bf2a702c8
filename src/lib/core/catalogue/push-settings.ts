import { PUSH_ENDPOINTS } from '../push/endpoints';
import { PUSH_SETTING_LABELS } from './labels';

/**
 * The profile's push settings as data: where the provider's server sends pushes (the contract's
 * `{push_url}`), the application id every push carries (`AppId`), and the platform pushes are
 * checked for. None of them is a configuration key of the app: the provider's own server reads
 * them, so they are not written into the provisioning XML.
 */

/** A push setting's key in the profile document. */
export type PushSettingKey = 'gatewayUrl' | 'appId' | 'target';

/** One push setting: its label and what it means. */
export interface PushSettingField {
	key: PushSettingKey;
	label: string;
	/** What to write, in the contract's words. */
	hint: string;
	/** A sample value shown while the field is empty. */
	placeholder: string;
}

/** The push settings in the order the page shows them. */
export const PUSH_SETTING_FIELDS: readonly PushSettingField[] = [
	{
		key: 'gatewayUrl',
		label: PUSH_SETTING_LABELS.gatewayUrl,
		hint: 'The push gateway’s base address, {push_url}: your server sends to {push_url}/pnm2/send and {push_url}/pnm2/multisend.',
		placeholder: 'https://push.example.com/gateway'
	},
	{
		key: 'appId',
		label: PUSH_SETTING_LABELS.appId,
		hint: 'The application id every push carries as AppId: the one the app reports as pushappid to the Push Token Reporter.',
		placeholder: 'com.provider.app'
	},
	{
		key: 'target',
		label: PUSH_SETTING_LABELS.target,
		hint: 'The platform pushes are checked for: on mobile platform A 13+ an incoming-message push must carry Badge.',
		placeholder: ''
	}
];

/** Where a rule comes from: the contract itself, or the product's own care. */
export type PushSettingRuleSource = 'contract' | 'product';

/** A rule the push settings are checked by, with the message a provider reads. */
export interface PushSettingRule {
	code: string;
	field: PushSettingKey;
	severity: 'error' | 'warning';
	source: PushSettingRuleSource;
	message: string;
}

/** Every rule of the push settings, by code. */
export const PUSH_SETTING_RULES = {
	gatewayUrlSpaces: {
		code: 'push_gateway_url_spaces',
		field: 'gatewayUrl',
		severity: 'error',
		source: 'product',
		message: 'The push gateway URL has spaces: an address has none.'
	},
	gatewayUrlNotHttp: {
		code: 'push_gateway_url_not_http',
		field: 'gatewayUrl',
		severity: 'error',
		source: 'product',
		message:
			'The push gateway URL must be a full http: or https: address, such as https://push.example.com/gateway.'
	},
	gatewayUrlQuery: {
		code: 'push_gateway_url_query',
		field: 'gatewayUrl',
		severity: 'error',
		source: 'contract',
		message:
			'The push gateway URL cannot carry a query (?…) or a fragment (#…): /pnm2/send is added at its end.'
	},
	gatewayUrlEndpoint: {
		code: 'push_gateway_url_endpoint',
		field: 'gatewayUrl',
		severity: 'error',
		source: 'contract',
		message:
			'Write the gateway’s base address without the endpoint: your server adds /pnm2/send or /pnm2/multisend to it.'
	},
	gatewayUrlMissing: {
		code: 'push_gateway_url_missing',
		field: 'gatewayUrl',
		severity: 'warning',
		source: 'product',
		message: 'The push app ID is set but not the push gateway URL: say where pushes go.'
	},
	gatewayUrlStaleSandbox: {
		code: 'push_gateway_url_stale_sandbox',
		field: 'gatewayUrl',
		severity: 'warning',
		source: 'product',
		message:
			'This sandbox address no longer answers: the sandbox got a new push URL or was deleted. Choose a sandbox again.'
	},
	appIdMissing: {
		code: 'push_app_id_missing',
		field: 'appId',
		severity: 'warning',
		source: 'contract',
		message:
			'No push app ID: every push must carry AppId, and the gateway sends no push without one (Errors table: “Missing attribute among verb, AppId, DeviceToken”).'
	},
	appIdSpaces: {
		code: 'push_app_id_spaces',
		field: 'appId',
		severity: 'error',
		source: 'product',
		message:
			'The push app ID starts or ends with a space: the gateway compares it as written, so it would not match.'
	}
} as const satisfies Record<string, PushSettingRule>;

/**
 * The endpoint paths a gateway URL must not end with (the contract's two endpoints, and their
 * shared `pnm2` segment), longest first.
 */
export const PUSH_ENDPOINT_SUFFIXES: readonly string[] = [
	...Object.values(PUSH_ENDPOINTS).map((e) => e.path),
	...new Set(Object.values(PUSH_ENDPOINTS).map((e) => e.path.slice(0, e.path.lastIndexOf('/'))))
].sort((a, b) => b.length - a.length);
