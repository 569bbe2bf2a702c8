import { openApi } from '$lib/server/api/document';
import type { RequestHandler } from './$types';

/**
 * The API's OpenAPI 3.1 document: public, made once, gzipped once for the clients that take it,
 * answered 304 to its own ETag (one per encoding, as HTTP wants).
 */
export const GET: RequestHandler = ({ request }) => {
	const { body, etag, gzipped } = openApi();
	const gzip = /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '');
	const tag = gzip ? etag.replace(/"$/, '-gz"') : etag;
	const headers: Record<string, string> = {
		etag: tag,
		vary: 'Accept-Encoding',
		'cache-control': 'no-cache',
		'access-control-allow-origin': '*'
	};
	const asked = request.headers.get('if-none-match') ?? '';
	if (asked.split(',').some((t) => t.trim() === tag)) {
		return new Response(null, { status: 304, headers });
	}
	headers['content-type'] = 'application/json; charset=utf-8';
	if (!gzip) return new Response(body, { headers });
	return new Response(gzipped, { headers: { ...headers, 'content-encoding': 'gzip' } });
};
