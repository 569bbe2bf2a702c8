import { bridge } from '../platform/bridge';
import { documentAnswer } from './document';

/**
 * `GET /api/openapi.json` served straight from Node's HTTP server, before the kit's request
 * handling, as the push gateway is (`push/gateway-direct.ts`): the document is made at start and
 * the same for everyone (no session, no page, no form check), and what the kit does for every
 * request (a web `Request`, the hooks, a web `Response` streamed back) cost more than sending
 * it. The answer is the route's own (`documentAnswer`); the route stays for the development
 * server and for an address with a query.
 *
 * The app's start script (`scripts/serve.js`) finds the handler on the bridge
 * (`platform/bridge.js`) once the built server has started, and hands it every `GET` and `HEAD`
 * of exactly `/api/openapi.json`.
 */

/** Makes the handler available to the start script. */
export function installDirectDocument(): void {
	bridge().apiDocument = (req, res) => {
		const { status, headers, body } = documentAnswer(
			req.headers['accept-encoding'],
			req.headers['if-none-match']
		);
		if (body) headers['content-length'] = String(body.byteLength);
		res.writeHead(status, headers);
		res.end(body && req.method !== 'HEAD' ? Buffer.from(body) : undefined);
	};
}
