#!/usr/bin/env node
// @ts-check
// Starts the built app. Unlike `node build`, it tells the app the scheme each request really
// came over, so http://localhost:3000 and http://127.0.0.1:3000 both work without ORIGIN (the
// same-origin checks of forms and the API compare against it). Behind a reverse proxy, set
// ORIGIN, or TRUST_PROXY=1 to take the scheme from the proxy's X-Forwarded-Proto.
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { flushLog, logger, requestLogger } from '../src/lib/server/platform/logger.js';
import { metrics } from '../src/lib/server/platform/metrics.js';
import { applySecurityHeaders } from '../src/lib/server/http/security-headers.js';
import { bodySizeLimit, tooLargeBody } from '../src/lib/server/http/body-limit.js';
import { badPathBody, pathProblem } from '../src/lib/server/http/request-path.js';
import { bearerToken } from '../src/lib/server/http/bearer.js';
import { bridge } from '../src/lib/server/platform/bridge.js';
import { staticAssets } from '../src/lib/server/http/static-assets.js';

const log = logger();
const requestLog = requestLogger();
// Whatever ends the process (process.exit anywhere, an uncaught error), the last lines go out.
process.on('exit', flushLog);
const measure = metrics();
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// Everything this script and the app share (src/lib/server/platform/bridge.js). What the app
// says of each request (its route's template, its user, the client's address) is noted here by
// request id and taken as the request ends.
const app = bridge();
const notes = (app.notes = new Map());

const trustProxy = process.env.TRUST_PROXY === '1';
process.env.PROTOCOL_HEADER ??= 'x-forwarded-proto';
const protocolHeader = process.env.PROTOCOL_HEADER.toLowerCase();

// Imports and backups carry megabyte templates (the adapter's default limit is 512 KB).
process.env.BODY_SIZE_LIMIT ??= '16M';
const bodyLimit = bodySizeLimit();

// Importing the app runs its start: every variable is checked first (platform/environment.ts,
// decision 0056), and a wrong one stops here, before anything listens, with what is wrong.
/** @type {(req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void} */
let handler;
try {
	// Named at run time: the build is made after this script is checked.
	const built = new URL('../build/handler.js', import.meta.url).href;
	({ handler } = await import(built));
} catch (error) {
	const problem = /** @type {{ name?: string, message: string, problems?: unknown }} */ (error);
	if (problem?.name !== 'ConfigurationError') throw error;
	log.fatal({ problems: problem.problems }, problem.message);
	flushLog();
	process.exit(1);
}

// What the app installed as it started: the paths served before the kit (the push gateway, the
// ordinary test call, the API document) and its side of a graceful stop.
const { pushGateway, testCalls, apiDocument, lifecycle } = app;

// How long a stop waits for the requests in flight (Kubernetes gives 30 s before SIGKILL).
const shutdownSeconds = Number(process.env.SHUTDOWN_TIMEOUT_SECONDS || 25);

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '0.0.0.0';

// The echo sinks (/sink/<key>/…) take requests from anywhere, form posts included, which the
// app's cross-site form check would refuse: for them the check sees the app's own origin, and
// the caller's Origin travels in x-sink-origin (the sink records it as Origin).
/** @param {http.IncomingMessage} req */
function admitSinkRequest(req) {
	if (!req.url?.startsWith('/sink/')) return;
	delete req.headers['x-sink-origin'];
	if (req.headers.origin !== undefined) req.headers['x-sink-origin'] = req.headers.origin;
	const scheme = trustProxy ? (req.headers[protocolHeader] ?? 'http') : 'http';
	req.headers.origin = process.env.ORIGIN || `${scheme}://${req.headers.host}`;
}

/**
 * The route of a request the app did not name (served before the kit, or by no route): a
 * template, never the path, so no id or key reaches a log line or a metric label.
 */
function routeOf(url = '') {
	if (url.startsWith('/sandbox/')) return '/sandbox/[key]/[...path]';
	if (url.startsWith('/sink/')) return '/sink/[key]/[...path]';
	if (url.startsWith('/_app/')) return '/_app/[...file]';
	return null;
}

/**
 * The request-duration series of a method, route and status, looked up once each.
 * @type {Map<string, import('prom-client').Histogram.Internal<'method' | 'route' | 'status'>>}
 */
const durations = new Map();
/**
 * @param {string | undefined} method
 * @param {string | null} route
 * @param {number} status
 */
function durationOf(method, route, status) {
	const key = `${method} ${route} ${status}`;
	let series = durations.get(key);
	if (!series) {
		series = measure.httpDuration.labels({
			method: method && METHODS.has(method) ? method : 'other',
			route: route ?? 'unmatched',
			status
		});
		durations.set(key, series);
	}
	return series;
}

/** Methods named in metric labels as they are; any other is `other` (labels stay bounded). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

// GET /metrics in Prometheus' text format, only with METRICS_TOKEN set and sent as a bearer
// token, read as the API reads one (otherwise the path answers 404).
const metricsToken = process.env.METRICS_TOKEN || null;
const digest = (/** @type {string} */ text) => createHash('sha256').update(text).digest();

/**
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 * @param {string} token
 */
async function serveMetrics(req, res, token) {
	// A read only: a scraper has nothing to send, and other methods are no way to the metrics.
	if (req.method !== 'GET' && req.method !== 'HEAD') {
		res.writeHead(405, {
			'content-type': 'text/plain; charset=utf-8',
			allow: 'GET, HEAD',
			'cache-control': 'no-store'
		});
		res.end('GET or HEAD only.\n');
		return;
	}
	const given = bearerToken(req.headers.authorization) ?? '';
	// Compared as digests of equal length, in constant time: the token is not guessed byte by byte.
	if (!timingSafeEqual(digest(given), digest(token))) {
		res.writeHead(401, {
			'content-type': 'text/plain; charset=utf-8',
			'www-authenticate': 'Bearer realm="metrics"',
			'cache-control': 'no-store'
		});
		res.end('Send METRICS_TOKEN as a bearer token.\n');
		return;
	}
	const text = await measure.registry.metrics();
	res.writeHead(200, {
		'content-type': measure.registry.contentType,
		'cache-control': 'no-store'
	});
	res.end(text);
}

/** A caller's request id is kept when it is a sane token; otherwise one is made. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Requests being answered, and a stop waiting for them. */
let inFlight = 0;
let stopping = false;
let onIdle = () => {};

/** On a connection: its latest request, and whether an answer on it said it closes it. */
const LATEST = Symbol('latest request');
const CLOSING = Symbol('closing');
/** @typedef {import('node:net').Socket & { [LATEST]?: http.IncomingMessage, [CLOSING]?: true }} Connection */

const server = http.createServer((req, res) => {
	const socket = /** @type {Connection} */ (req.socket);
	// A request sent after an answer that closes the connection is not taken (RFC 9112, 9.6):
	// the client knows it was not, and sends it again elsewhere.
	if (socket[CLOSING]) return;
	socket[LATEST] = req;
	const given = req.headers['x-request-id'];
	const requestId = typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
	// The app reads it from the request (audit entries, test calls) and every answer carries it.
	req.headers['x-request-id'] = requestId;
	res.setHeader('X-Request-Id', requestId);
	inFlight++;
	const started = performance.now();
	res.once('close', () => {
		inFlight--;
		// An answer whose head went out before the stop (an event stream) kept its connection
		// alive: it is closed once idle.
		if (stopping) setImmediate(() => server.closeIdleConnections());
		const note = notes.get(requestId);
		notes.delete(requestId);
		const route = note?.route ?? routeOf(req.url);
		const status = res.writableFinished ? res.statusCode : 0;
		const seconds = (performance.now() - started) / 1000;
		// Observed only when metrics are on: off, they cost nothing.
		if (metricsToken) durationOf(req.method, route, status).observe(seconds);
		requestLog.info(
			{
				requestId,
				method: req.method,
				route,
				status,
				durationMs: Math.round(seconds * 10_000) / 10,
				userId: note?.userId ?? null,
				ip: note?.ip ?? req.socket.remoteAddress ?? null
			},
			'request'
		);
		if (inFlight === 0) onIdle();
	});
	// During a stop, the answer to a connection's latest request closes it, whenever the request
	// came: the client's next request opens a connection to an instance that stays, instead of
	// going unanswered on one about to be cut. Answers to earlier requests sent on it without
	// waiting (pipelined) keep it open for the later ones. The kit, the direct paths and streams
	// all write their head through here, explicitly or by their first write.
	const writeHead = res.writeHead;
	res.writeHead = /** @type {typeof writeHead} */ (
		function (/** @type {Parameters<typeof writeHead>} */ ...args) {
			if (stopping && !res.headersSent && socket[LATEST] === req) {
				res.setHeader('Connection', 'close');
				socket[CLOSING] = true;
			}
			return writeHead.apply(res, args);
		}
	);
	// Preset on every answer; the app's own headers (a page's CSP) replace them where it sets them.
	applySecurityHeaders(
		(name, value) => res.setHeader(name, value),
		(name) => res.hasHeader(name)
	);
	// Before any prefix below decides: a path that resolves elsewhere (`/sink/../api/…`) is refused.
	const badPath = pathProblem(req.url ?? '');
	if (badPath) {
		res.writeHead(400, {
			'content-type': 'application/json',
			'cache-control': 'no-store',
			connection: 'close'
		});
		res.end(badPathBody(badPath));
		return;
	}
	if (req.url?.startsWith('/_app/immutable/') && assets.serve(req, res)) return;
	if (pushGateway && req.url?.startsWith('/sandbox/')) return pushGateway(req, res);
	if (req.url === '/metrics') {
		if (!metricsToken) {
			// Off: nothing is there (not the kit's sign-in redirect either).
			res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
			res.end('Not found: set METRICS_TOKEN to turn metrics on.\n');
			return;
		}
		return void serveMetrics(req, res, metricsToken).catch(() => res.destroy());
	}
	if (
		apiDocument &&
		req.url === '/api/openapi.json' &&
		(req.method === 'GET' || req.method === 'HEAD')
	) {
		return apiDocument(req, res);
	}
	if (!trustProxy) req.headers[protocolHeader] = 'http';
	admitSinkRequest(req);
	const kit = () =>
		handler(req, res, () => {
			res.statusCode = 404;
			res.end('Not found');
		});
	// An API body declared over the limit: the API's own error, not the adapter's plain text.
	const declared = Number(req.headers['content-length']);
	if (req.url?.startsWith('/api/') && declared > bodyLimit) {
		res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
		res.end(tooLargeBody(bodyLimit));
		return;
	}
	if (testCalls && req.method === 'POST' && req.url === '/api/test-calls') {
		return testCalls(req, res, kit);
	}
	kit();
});

/**
 * Loads the pages' modules in the background once the server listens, one at a time, so the
 * first person to open a page after a start does not wait for its code (decision 0045). Neither
 * the kit nor the adapter offers a way to, so this reads where the Node adapter's build keeps
 * them (tests/server/bridge.spec.ts fails when that changes). Best effort: a module that fails
 * to load is left to its first request.
 */
async function warmUpPages() {
	const nodes = new URL('../build/server/chunks/nodes/', import.meta.url);
	/** @type {string[]} */
	let files;
	try {
		files = readdirSync(nodes).filter((name) => name.endsWith('.js'));
	} catch {
		files = [];
	}
	if (files.length === 0) {
		log.warn(
			{ folder: nodes.pathname },
			"The build has no page modules where the Node adapter kept them: each page's code loads on its first request."
		);
	}
	let loaded = 0;
	for (const name of files) {
		try {
			const node = await import(new URL(name, nodes).href);
			await node.component?.();
			loaded++;
		} catch {
			// Its first request loads it again.
		}
		await new Promise((resolve) => setImmediate(resolve));
	}
	log.debug({ pageModules: loaded }, `Loaded ${loaded} page module(s) of the build.`);
}

// The build's scripts and styles, read before the first tab asks for them (decision 0128).
const assets = staticAssets(new URL('../build/client', import.meta.url).pathname);
const assetsLoaded = assets.load();

server.listen(port, host, () => {
	const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
	const facts = lifecycle?.facts();
	log.info(
		{
			url: `http://${shown}:${port}`,
			version,
			database: facts?.database ?? null,
			origin: facts?.origin ?? null,
			oidcIssuer: facts?.oidcIssuer ?? null,
			logLevel: log.level
		},
		`Listening on http://${shown}:${port}`
	);
	log.debug(
		{ assets: assetsLoaded },
		`Serving ${assetsLoaded} script(s) and style(s) from memory.`
	);
	void warmUpPages();
});

/**
 * A graceful stop: no new connections; readiness answers 503 at once; every event stream gets
 * a last event and ends (the browser reconnects elsewhere and resumes); the requests in flight
 * (test calls, saves, imports, flows) are answered, and the work of those whose caller went away
 * finished, for up to SHUTDOWN_TIMEOUT_SECONDS; then the database is closed, last, and the
 * process exits 0. A second signal does not cut it short.
 */
/** @param {'SIGINT' | 'SIGTERM'} signal */
async function shutdown(signal) {
	if (stopping) return;
	stopping = true;
	const started = Date.now();
	log.info(
		{ signal, inFlight, timeoutSeconds: shutdownSeconds },
		`${signal}: stopping; answering the ${inFlight} request(s) in flight (at most ${shutdownSeconds} s).`
	);
	lifecycle?.drain();
	server.close();
	server.closeIdleConnections();
	const streams = lifecycle?.endStreams() ?? 0;
	if (streams > 0) log.info({ streams }, `Told ${streams} event stream(s) to reconnect elsewhere.`);
	const answered = new Promise((/** @type {(value?: unknown) => void} */ resolve) => {
		onIdle = resolve;
		if (inFlight === 0) resolve();
	});
	// A request whose caller went away is no longer in flight here, but the app may still be
	// doing its work (a save, a test call, its audit entry): the database stays open for it.
	const idle = Promise.all([answered, lifecycle?.settled()]);
	const late = await Promise.race([
		idle.then(() => false),
		new Promise((resolve) => setTimeout(() => resolve(true), shutdownSeconds * 1000).unref())
	]);
	if (late && inFlight > 0) {
		log.warn(
			{ inFlight },
			`${inFlight} request(s) still in flight after ${shutdownSeconds} s: their connections are closed.`
		);
		server.closeAllConnections();
	} else if (late) {
		log.warn(
			{ inFlight },
			`Work for callers that went away still under way after ${shutdownSeconds} s: it is cut off.`
		);
	}
	try {
		await lifecycle?.close();
	} catch (error) {
		log.error({ err: error }, 'Closing the database failed.');
	}
	log.info({ ms: Date.now() - started }, `Stopped in ${Date.now() - started} ms.`);
	flushLog();
	process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
