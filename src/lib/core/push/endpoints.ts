/**
 * The two endpoints of the push gateway as plain data, without zod: the profile editor reads
 * them (the push settings' checks) on its first load. `./reference` holds their schema.
 */

/** The endpoints' names: the last path segment. */
export const PUSH_ENDPOINT_NAMES = ['send', 'multisend'] as const;
export type PushEndpoint = (typeof PUSH_ENDPOINT_NAMES)[number];

/** One endpoint of the push gateway. */
export interface PushEndpointInfo {
	/** The catalogue's service id. */
	id: 'pushSend' | 'pushMultisend';
	endpoint: PushEndpoint;
	title: string;
	method: 'POST';
	/** Path below `{push_url}`. */
	path: string;
	contentType: 'application/json';
	/** What the body holds: one push object, or a list of them (one object is also accepted). */
	body: 'object' | 'list';
	purpose: string;
}

/** The endpoints by name. */
export const PUSH_ENDPOINTS: Readonly<Record<PushEndpoint, PushEndpointInfo>> = {
	send: {
		id: 'pushSend',
		endpoint: 'send',
		title: 'Push gateway: single push',
		method: 'POST',
		path: '/pnm2/send',
		contentType: 'application/json',
		body: 'object',
		purpose: 'Sends one push object; answers one response object.'
	},
	multisend: {
		id: 'pushMultisend',
		endpoint: 'multisend',
		title: 'Push gateway: multiple pushes',
		method: 'POST',
		path: '/pnm2/multisend',
		contentType: 'application/json',
		body: 'list',
		purpose:
			'Sends a list of push objects (a single object counts as a one-element list); answers a list of response objects, one per element, in order.'
	}
};

/**
 * The full address of an endpoint below the gateway's base address: `{push_url}/pnm2/send`.
 * Trailing slashes of `pushUrl` are dropped so `https://gw/` and `https://gw` give the same URL.
 */
export function pushEndpointUrl(pushUrl: string, endpoint: PushEndpoint): string {
	return pushUrl.replace(/\/+$/, '') + PUSH_ENDPOINTS[endpoint].path;
}
