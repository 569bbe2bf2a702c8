// Types only: this module answers requests the app's server received, it opens no connection.
// eslint-disable-next-line no-restricted-imports
import type { IncomingMessage, ServerResponse } from 'node:http';
import { allows, requiredAccess } from '../auth/access';
import { crossSiteProblem, requestUser, sessionCookie } from '../auth/request';
import { mustEnrol } from '../auth/totp';
import { serverContext } from '../platform/context';
import { bodySizeLimit } from './body-limit.js';
import { API_OUTAGE, badRequestBody, parseJsonBody } from './body';
import { clientAddress, headerOf, nodeBody } from './node-request';
import { bridge, type DirectHandlerOr } from '../platform/bridge';
import { noteRequest, whileWorking } from '../platform/lifecycle';
import { isDatabaseUnavailable } from '../store/errors';
import { answerTestCall, TestCallInputSchema, type JsonAnswer } from '../test-calls';
import { logger } from '../platform/logger';
import { withRequest } from '../platform/request-context';

/**
 * `POST /api/test-calls` served from Node's HTTP server before the kit, for the ordinary call
 * only; everything else is handed to the kit unread (docs/decisions/0041-test-calls-before-the-kit.md).
 * `scripts/serve.js` finds the handler on the bridge (`platform/bridge.js`).
 */

/** The path this handler serves (POST only). */
export const DIRECT_PATH = '/api/test-calls';

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/** Makes the handler available to the start script. */
export function installDirectApi(): void {
	bridge().testCalls = directApi;
}

/** The handler itself (the start script's, and the tests'). */
export const directApi: DirectHandlerOr = (req, res, next) => {
	whileWorking(() => serve(req, res, next)).catch((error) => {
		logger().error({ err: error, route: DIRECT_PATH }, 'A test call failed unexpectedly.');
		res.destroy();
	});
};

export { bodySizeLimit };

/**
 * The app's origin as the kit's Node adapter works it out: `ORIGIN`, else the scheme from the
 * `PROTOCOL_HEADER` and the `Host` header. Null where the adapter would read more than that
 * (`HOST_HEADER`, `PORT_HEADER`) or where the headers are not a plain scheme and host: those
 * requests are the kit's.
 */
export function requestOrigin(req: IncomingMessage): string | null {
	const env = process.env;
	if (env.ORIGIN) return originOf(env.ORIGIN);
	if (env.HOST_HEADER || env.PORT_HEADER || !env.PROTOCOL_HEADER) return null;
	const scheme = req.headers[env.PROTOCOL_HEADER.toLowerCase()];
	const host = req.headers.host;
	if ((scheme !== 'http' && scheme !== 'https') || !host || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) {
		return null;
	}
	return originOf(`${scheme}://${host}`);
}

/** The last few origins worked out: a server is reached under one or two names. */
const origins = new Map<string, string | null>();

function originOf(url: string): string | null {
	let origin = origins.get(url);
	if (origin !== undefined) return origin;
	try {
		origin = new URL(url).origin;
	} catch {
		origin = null;
	}
	if (origins.size >= 16) origins.clear();
	origins.set(url, origin);
	return origin;
}

/** The body size limit, read once (the adapter reads it once too). */
let limit: number | undefined;

async function serve(req: IncomingMessage, res: ServerResponse, next: () => void): Promise<void> {
	const header = headerOf(req);
	const length = header('content-length');
	if (
		!JSON_TYPE.test(header('content-type') ?? '') ||
		length === null ||
		!/^\d+$/.test(length) ||
		Number(length) > (limit ??= bodySizeLimit()) ||
		req.headers['transfer-encoding'] !== undefined
	) {
		return next();
	}
	const origin = requestOrigin(req);
	if (origin === null) return next();
	const ctx = serverContext();
	let user;
	try {
		user = await requestUser(ctx, header('authorization'), sessionCookie(header('cookie')));
		// One who must set up a second factor first is refused by the kit's hooks.
		if (user && (await mustEnrol(ctx, user))) return next();
	} catch {
		// The database does not answer: the kit says so, as for every other request.
		return next();
	}
	if (!user || !allows(user.role, requiredAccess('POST', DIRECT_PATH))) return next();
	if (user.via !== 'token' && crossSiteProblem('POST', DIRECT_PATH, header, origin)) return next();
	const ip = clientAddress(req);
	noteRequest(header('x-request-id'), { route: DIRECT_PATH, userId: user.id, ip });

	let answer: JsonAnswer;
	try {
		const bytes = await nodeBody(req)(Number(length));
		// Node's parser reads no more than the Content-Length: this cannot happen.
		if (bytes === undefined) throw new Error('The body is longer than its Content-Length.');
		const input = parseJsonBody(bytes, TestCallInputSchema);
		answer = input.ok
			? await withRequest(header('x-request-id'), () =>
					answerTestCall(ctx, { user, ip, origin }, input.data)
				)
			: { status: 400, body: badRequestBody(input.issues) };
	} catch (error) {
		if (res.destroyed || req.destroyed) return;
		answer = failed(error);
	}
	send(res, answer);
}

/** What the hooks answer when an endpoint fails: 503 while the database is gone, else 500. */
function failed(error: unknown): JsonAnswer & { headers?: Readonly<Record<string, string>> } {
	if (isDatabaseUnavailable(error)) {
		logger().error({ method: 'POST', route: DIRECT_PATH }, 'The database does not answer.');
		return API_OUTAGE;
	}
	logger().error({ err: error, route: DIRECT_PATH }, 'An unexpected error answered 500.');
	return { status: 500, body: { message: 'Internal Error' } };
}

function send(
	res: ServerResponse,
	answer: JsonAnswer & { headers?: Readonly<Record<string, string>> }
) {
	if (res.destroyed) return;
	const text = JSON.stringify(answer.body);
	res.writeHead(answer.status, {
		...answer.headers,
		'content-type': 'application/json',
		'content-length': Buffer.byteLength(text),
		'cache-control': 'no-store'
	});
	res.end(text);
}
