import { serverContext } from '$lib/server/platform/context';
import { clientIp } from '$lib/server/http/body';
import { receivePush } from '$lib/server/push/sandboxes';
import type { RequestHandler } from './$types';

/**
 * The push gateway of a sandbox: `POST /sandbox/<key>/pnm2/send` and `/pnm2/multisend`. Every
 * method lands here, because the contract answers a method other than POST with 400 too.
 */
export const fallback: RequestHandler = async (event) => {
	const { request, params } = event;
	return receivePush(serverContext(), {
		key: params.key,
		path: params.path ? `/${params.path}` : '',
		method: request.method,
		contentType: request.headers.get('content-type'),
		contentLength: request.headers.get('content-length'),
		body: request.body,
		ip: clientIp(event)
	});
};
