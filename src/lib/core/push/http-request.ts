import { PUSH_ENDPOINTS, pushEndpointUrl, type PushEndpoint } from './reference';

/**
 * The HTTP request of a composed push, built once so the composer's "Copy as cURL", the request
 * the server sends and the request it answers as sent are the same bytes.
 */

/** A composed push as an HTTP request. */
export interface PushHttpRequest {
	method: 'POST';
	url: string;
	headers: { name: string; value: string }[];
	body: string;
}

/** The request that sends `body` (any JSON value) to `endpoint` below the gateway `pushUrl`. */
export function pushHttpRequest(
	pushUrl: string,
	endpoint: PushEndpoint,
	body: unknown
): PushHttpRequest {
	return {
		method: 'POST',
		url: pushEndpointUrl(pushUrl, endpoint),
		headers: [{ name: 'Content-Type', value: PUSH_ENDPOINTS[endpoint].contentType }],
		body: JSON.stringify(body) ?? 'null'
	};
}
