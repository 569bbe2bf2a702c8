import { documentAnswer } from '$lib/server/openapi/document';
import type { RequestHandler } from './$types';

/**
 * The API's OpenAPI 3.1 document: public, made once, gzipped once for the clients that take it,
 * answered 304 to its own ETag. The built server answers it before the kit
 * (`$lib/server/openapi/document-direct.ts`), with the same answer.
 */
export const GET: RequestHandler = ({ request }) => {
	const { status, headers, body } = documentAnswer(
		request.headers.get('accept-encoding'),
		request.headers.get('if-none-match')
	);
	return new Response(body, { status, headers });
};
