import { openApi } from '$lib/server/api/document';
import type { RequestHandler } from './$types';

/** The API's OpenAPI 3.1 document: public, made once, answered 304 to its own ETag. */
export const GET: RequestHandler = ({ request }) => {
	const { body, etag } = openApi();
	const headers = {
		etag,
		'cache-control': 'no-cache',
		'access-control-allow-origin': '*'
	};
	if (request.headers.get('if-none-match') === etag) {
		return new Response(null, { status: 304, headers });
	}
	return new Response(body, {
		headers: { ...headers, 'content-type': 'application/json; charset=utf-8' }
	});
};
