// Plain JavaScript: scripts/serve.js loads it unbundled, before the built app, as it loads the
// logger and the metrics; the app's bundle has its own copy, and both reach one object.

/**
 * A path served before the kit, answering every request it is given.
 * @callback DirectHandler
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @returns {void}
 */

/**
 * A path served before the kit for some of its requests: it answers one, or hands it to `next`
 * (the kit) unread.
 * @callback DirectHandlerOr
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {() => void} next
 * @returns {void}
 */

/**
 * Everything the built app and its start script share in one process, and nothing else passes
 * between them. Each member is set by its owner: the start script makes `notes` before it loads
 * the app, the first `logger()` and `metrics()` (the start script's) make theirs, and the app's
 * `init` installs the rest. Every member may be missing: the development server has no start
 * script, and the start script runs on without what the app did not install.
 * @typedef {object} Bridge
 * @property {import('pino').Logger} [logger] The process's logger (`logger.js`).
 * @property {import('pino').Logger} [requestLogger] Its child for the start script's request lines.
 * @property {import('./metrics.js').Metrics} [metrics] The one registry and its series.
 * @property {Map<string, import('./lifecycle').RequestNote>} [notes] What the app says of each
 *   request (its route, its user), by request id, taken by the start script as the request ends.
 * @property {import('./lifecycle').Lifecycle} [lifecycle] The app's side of a graceful stop.
 * @property {DirectHandler} [pushGateway] The push sandboxes' gateway: every `/sandbox/…`.
 * @property {DirectHandlerOr} [testCalls] `POST /api/test-calls` exactly, the ordinary call only.
 * @property {DirectHandler} [apiDocument] `GET` and `HEAD` of `/api/openapi.json` exactly.
 */

const KEY = Symbol.for('provisioning-studio.bridge');

/**
 * The process's bridge, made on first use.
 * @returns {Bridge}
 */
export function bridge() {
	const shared = /** @type {Record<symbol, Bridge | undefined>} */ (globalThis);
	return (shared[KEY] ??= {});
}
