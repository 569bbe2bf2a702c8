// Types only: this module answers requests the app's server received, it opens no connection.
// eslint-disable-next-line no-restricted-imports
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serverContext } from '../platform/context';
import { clientAddress, headerOf, nodeBody } from '../http/node-request';
import { answerPush } from './sandboxes';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../store/errors';
import { logger } from '../platform/logger';
import { bridge } from '../platform/bridge';
import { whileWorking } from '../platform/lifecycle';

/**
 * The push sandboxes' gateway served straight from Node's HTTP server, before the kit's
 * request handling. A provider's load test sends thousands of pushes a second, and what the kit
 * does for every request (a web `Request`, its abort signal and body stream, the hooks) cost
 * more than the gateway itself. Nothing of that applies here: the key in the address is the
 * credential, there is no session, no page and no form check. The answers are `answerPush`'s,
 * the same as through the kit's route (`/sandbox/[key]/[...path]`), which stays for the
 * development server and for addresses this path does not take.
 *
 * The app's start script (`scripts/serve.js`) finds the handler on the bridge
 * (`platform/bridge.js`) once the built server has started, and hands it every request whose
 * path starts with `/sandbox/`.
 */

/** Makes the handler available to the start script. */
export function installDirectGateway(): void {
	bridge().pushGateway = (req, res) => {
		whileWorking(() => serve(req, res)).catch(() => res.destroy());
	};
}

async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
	const url = req.url ?? '/';
	const end = url.search(/[?#]/);
	const pathname = end < 0 ? url : url.slice(0, end);
	const rest = pathname.slice('/sandbox/'.length);
	const slash = rest.indexOf('/');
	// Decoded as the kit's router decodes its parameters; what does not decode is no address.
	const decoded = (part: string) => {
		try {
			return decodeURIComponent(part);
		} catch {
			return '\u0000';
		}
	};
	const key = decoded(slash < 0 ? rest : rest.slice(0, slash));
	const header = headerOf(req);
	let answer;
	try {
		answer = await answerPush(serverContext(), {
			key,
			path: slash < 0 ? '' : decoded(rest.slice(slash)),
			method: req.method ?? 'GET',
			contentType: header('content-type'),
			contentLength: header('content-length'),
			body: nodeBody(req),
			ip: clientAddress(req)
		});
	} catch (error) {
		if (res.destroyed || req.destroyed) return;
		const outage = isDatabaseUnavailable(error);
		if (!outage) logger().error({ err: error }, 'A push to a sandbox failed unexpectedly.');
		const status = outage ? 503 : 500;
		const response = outage ? DATABASE_UNAVAILABLE_MESSAGE : 'The gateway failed unexpectedly.';
		answer = {
			status,
			headers: {
				'content-type': 'application/json',
				'cache-control': 'no-store',
				...(outage ? { 'retry-after': '5' } : {})
			},
			body: JSON.stringify({ status, response })
		};
	}
	res.writeHead(answer.status, answer.headers);
	res.end(answer.body);
}
