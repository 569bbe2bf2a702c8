// Types only: this module answers requests the app's server received, it opens no connection.
// eslint-disable-next-line no-restricted-imports
import type { IncomingMessage, ServerResponse } from 'node:http';
import { documentAnswer } from './document';

/**
 * `GET /api/openapi.json` served straight from Node's HTTP server, before the kit's request
 * handling, as the push gateway is (`push/gateway-direct.ts`): the document is made at start and
 * the same for everyone (no session, no page, no form check), and what the kit does for every
 * request (a web `Request`, the hooks, a web `Response` streamed back) cost more than sending
 * it. The answer is the route's own (`documentAnswer`); the route stays for the development
 * server and for an address with a query.
 *
 * The app's start script (`scripts/serve.js`) finds the handler under `DIRECT_DOCUMENT` once the
 * built server has started, and hands it every `GET` and `HEAD` of exactly `/api/openapi.json`.
 */

/** Where the start script finds the handler. */
export const DIRECT_DOCUMENT = Symbol.for('provisioning-studio.api-document');

type DirectDocument = (req: IncomingMessage, res: ServerResponse) => void;

/** Makes the handler available to the start script. */
export function installDirectDocument(): void {
	(globalThis as Record<symbol, DirectDocument>)[DIRECT_DOCUMENT] = (req, res) => {
		const { status, headers, body } = documentAnswer(
			req.headers['accept-encoding'],
			req.headers['if-none-match']
		);
		if (body) headers['content-length'] = String(body.byteLength);
		res.writeHead(status, headers);
		res.end(body && req.method !== 'HEAD' ? Buffer.from(body) : undefined);
	};
}
