import path from 'node:path';
import { json, type Handle, type HandleServerError, type ServerInit } from '@sveltejs/kit';
import { sequence } from '@sveltejs/kit/hooks';
// Every service, those beyond the contract too, is known to each lookup before any request.
import '$lib/core/catalogue/services';
import { allows, requiredAccess, routedPath } from '$lib/server/auth/access';
import { ensureFirstAdmin } from '$lib/server/auth/first-admin';
import { crossSiteProblem, requestUser } from '$lib/server/auth/request';
import { ENROL_FIRST, mustEnrol, openBeforeEnrolment } from '$lib/server/auth/totp';
import { SESSION_COOKIE } from '$lib/server/auth/session';
import { signInSettings } from '$lib/server/auth/sign-in-settings';
import { startLiveUpdates } from '$lib/server/platform/cluster';
import { serverContext } from '$lib/server/platform/context';
import { API_OUTAGE, apiError } from '$lib/server/http/body';
import { openApi } from '$lib/server/openapi/document';
import { errorPage } from '$lib/server/http/error-page';
import { installDirectApi } from '$lib/server/http/direct-api';
import { installDirectDocument } from '$lib/server/openapi/document-direct';
import { installDirectGateway } from '$lib/server/push/gateway-direct';
import {
	installLifecycle,
	noteRequest,
	whileWorking,
	type StartFacts
} from '$lib/server/platform/lifecycle';
import type { ServerConfig } from '$lib/server/platform/config';
import { SQLITE_FILE } from '$lib/server/store/open';
import { applyEnvironment } from '$lib/server/platform/environment';
import { applySecurityHeaders } from '$lib/server/http/security-headers';
import { startUp } from '$lib/server/platform/startup';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '$lib/server/store/errors';
import { logger } from '$lib/server/platform/logger';
import { withRequest } from '$lib/server/platform/request-context';

/**
 * Opens the store, migrates it, creates or invites the first admin, and purges old sessions; on
 * PostgreSQL it also opens the connection that hears of other instances' live records; with
 * `AUDIT_WEBHOOK_URL` set it starts the audit stream's worker. While the database does not
 * answer, the app starts all the same and finishes this once it is back.
 */
export const init: ServerInit = async () => {
	// Every variable checked before anything opens or listens (a bad value stops the start).
	applyEnvironment();
	const ctx = serverContext();
	installDirectGateway();
	installDirectApi();
	installDirectDocument();
	// The API's published document, made once now rather than for the first caller.
	const made = performance.now();
	const { operations } = openApi();
	logger().debug(
		{ operations, ms: Math.round((performance.now() - made) * 10) / 10 },
		'The API document is made.'
	);
	installLifecycle(
		() => ctx.store.close(),
		() => ({
			database: databaseShown(ctx.config),
			origin: ctx.config.origin ?? null,
			oidcIssuer: signInSettings().oidc?.issuer.href ?? null
		}),
		async () => ctx.auditStream?.stop()
	);
	const purge = () => ctx.store.sessions.purgeExpired(Date.now(), ctx.config.sessionIdleMs);
	await startUp(async () => {
		await ensureFirstAdmin(ctx);
		await purge();
	});
	startLiveUpdates();
	// It reads the outbox by itself, and waits while the database does not answer.
	ctx.auditStream?.start();
	// An hour later the database may be gone for a moment: the next purge catches up.
	setInterval(
		() => purge().catch((error) => logger().error({ err: error }, 'Purging old sessions failed.')),
		60 * 60 * 1000
	).unref();
};

/** Where the data lives, as the start line says it: PostgreSQL's host and database, no credentials. */
function databaseShown(config: ServerConfig): StartFacts['database'] {
	if (!config.databaseUrl) {
		return { backend: 'sqlite', location: path.join(config.dataDir, SQLITE_FILE) };
	}
	try {
		const url = new URL(config.databaseUrl);
		return { backend: 'postgres', location: `${url.host}${url.pathname}` };
	} catch {
		return { backend: 'postgres', location: 'unparsed URL' };
	}
}

/**
 * Every answer carries the security headers, whatever made it: a page (with the kit's CSP), an
 * endpoint, an error, or a refusal of the hooks below (with the strict fallback CSP).
 */
const securityHeaders: Handle = async ({ event, resolve }) => {
	let response = await resolve(event);
	try {
		response.headers.set('X-Content-Type-Options', 'nosniff');
	} catch {
		// Headers of some responses (a fetch's, Response.redirect's) cannot change: copy them.
		response = new Response(response.body, response);
	}
	const headers = response.headers;
	applySecurityHeaders(
		(name, value) => headers.set(name, value),
		(name) => headers.has(name)
	);
	// API answers are never stored; one with an ETag (the published document) is revalidated.
	if (routedPath(event.url.pathname).startsWith('/api/') && !headers.has('etag')) {
		headers.set('Cache-Control', 'no-store');
	}
	return response;
};

/**
 * The kit's cross-site form check, done here so that push sandboxes can be exempt (the kit's own
 * check is off in the config): a provider's server posts to them from anywhere, and the gateway
 * itself answers a form-encoded body 400 as the contract says. Every other path keeps it.
 */
const FORM_TYPES = new Set([
	'application/x-www-form-urlencoded',
	'multipart/form-data',
	'text/plain',
	'application/x-sveltekit-formdata'
]);

/** Whether a path is a push sandbox address (public, no session, no form check). */
function isSandboxPath(pathname: string): boolean {
	return routedPath(pathname).startsWith('/sandbox/');
}

const crossSiteForms: Handle = async ({ event, resolve }) => {
	const { request, url } = event;
	if (isSandboxPath(url.pathname)) return resolve(event);
	const origin = request.headers.get('origin');
	const forbidden =
		['POST', 'PUT', 'PATCH', 'DELETE'].includes(request.method) &&
		FORM_TYPES.has(
			(request.headers.get('content-type') ?? '').split(';', 1)[0].trim().toLowerCase()
		) &&
		origin !== url.origin;
	if (!forbidden) return resolve(event);
	const message = `Cross-site ${request.method} form submissions are forbidden`;
	// The API answers in its one error shape, whatever the caller accepts.
	if (routedPath(url.pathname).startsWith('/api/')) return apiError(403, 'cross_site', message);
	if (request.headers.get('accept') === 'application/json') {
		return json({ message }, { status: 403 });
	}
	return new Response(message, { status: 403, headers: { 'content-type': 'text/plain' } });
};

/** The path of a same-origin URL (a Referer), else `/`. */
function sameSitePath(target: string, url: URL): string {
	try {
		const parsed = new URL(target, url);
		return parsed.origin === url.origin ? parsed.pathname + parsed.search : '/';
	} catch {
		return '/';
	}
}

/**
 * The answer (403) to a page the user's role does not allow. Nothing of the refused page runs:
 * the answer is the app's own `/forbidden` page, rendered inside the app's layout (navigation
 * and the user's menu), asked for with this request's session, method and path only; it works
 * out the needed role again from the access table. A form sent with JavaScript gets an action
 * result and a client-side navigation's data request a JSON message, as the kit answers them.
 */
async function refusedPage(
	event: Parameters<Handle>[0]['event'],
	access: string
): Promise<Response> {
	const { request, url } = event;
	const message = `This page needs the ${access} role. Ask an admin if you need it.`;
	if (request.headers.get('x-sveltekit-action') === 'true') {
		return json({ type: 'error', error: { message } }, { status: 403 });
	}
	// The kit's client then loads the page itself, which is this answer's page below.
	if (event.isDataRequest) return json(message, { status: 403 });
	const query = new URLSearchParams({ method: request.method, path: url.pathname });
	const authorization = request.headers.get('authorization');
	// A sub-request of this app's own page (a path, so never another server): no connection.
	// eslint-disable-next-line no-restricted-syntax
	const page = await event.fetch(`/forbidden?${query}`, {
		headers: authorization ? { authorization } : {}
	});
	if (page.status !== 200) {
		await page.body?.cancel();
		return errorPage(403, message);
	}
	const headers = new Headers(page.headers);
	headers.set('cache-control', 'no-store');
	return new Response(request.method === 'HEAD' ? null : page.body, { status: 403, headers });
}

const authenticate: Handle = async ({ event, resolve }) => {
	// The key in a sandbox's address is its credential; sessions and tokens play no part. A
	// liveness probe never waits on the database, whatever cookie it carries.
	if (isSandboxPath(event.url.pathname) || routedPath(event.url.pathname) === '/api/health/live') {
		event.locals.user = null;
		return resolve(event);
	}
	event.locals.user = await requestUser(
		serverContext(),
		event.request.headers.get('authorization'),
		event.cookies.get(SESSION_COOKIE)
	);
	const { pathname } = event.url;
	const isApi = routedPath(pathname).startsWith('/api/');
	const access = requiredAccess(event.request.method, pathname);
	const user = event.locals.user;
	if (access !== 'public' && !user) {
		if (isApi) return apiError(401, 'unauthenticated', 'Sign in, or send an API token as Bearer.');
		const isRead = ['GET', 'HEAD'].includes(event.request.method);
		const back = isRead
			? pathname + event.url.search
			: (event.request.headers.get('referer') ?? '/');
		const location = `/login?next=${encodeURIComponent(sameSitePath(back, event.url))}`;
		// A form submitted with JavaScript (use:enhance) expects an action result, not a page.
		if (event.request.headers.get('x-sveltekit-action') === 'true') {
			return json({ type: 'redirect', status: 303, location });
		}
		return new Response(null, { status: 303, headers: { location } });
	}
	if (user && !allows(user.role, access)) {
		if (isApi) return apiError(403, 'forbidden', `This needs the ${access} role.`);
		return refusedPage(event, access);
	}
	if (
		user &&
		access !== 'public' &&
		!openBeforeEnrolment(event.request.method, routedPath(pathname), event.url.search) &&
		(await mustEnrol(serverContext(), user))
	) {
		if (isApi) return apiError(403, 'second_factor_required', ENROL_FIRST);
		if (event.request.headers.get('x-sveltekit-action') === 'true') {
			return json({ type: 'error', error: { message: ENROL_FIRST } }, { status: 403 });
		}
		// A page: the account page, where the second factor is set up, instead.
		if (['GET', 'HEAD'].includes(event.request.method)) {
			return new Response(null, { status: 303, headers: { location: '/account' } });
		}
		return errorPage(403, ENROL_FIRST);
	}
	if (isApi && user?.via !== 'token') {
		const { request, url } = event;
		const header = (name: string) => request.headers.get(name);
		const problem = crossSiteProblem(request.method, url.pathname, header, url.origin);
		if (problem) return apiError(403, 'cross_site', problem);
	}
	return resolve(event);
};

/**
 * While the database is gone (PostgreSQL stopped or unreachable), a request that needs it is
 * answered 503 with a clear message (JSON for the API, the error page otherwise); the next
 * request tries the database again, so the app recovers by itself.
 */
const databaseOutage: Handle = async ({ event, resolve }) => {
	try {
		const response = await resolve(event);
		// An endpoint or page failed on the database: the kit answered 500 (see handleError).
		if (!outages.has(event.locals) || response.status !== 500) return response;
		await response.body?.cancel();
		throw new Error('The database does not answer.', { cause: outages.get(event.locals) });
	} catch (error) {
		if (!isDatabaseUnavailable(error)) throw error;
		logger().error(
			{ method: event.request.method, route: event.route.id },
			'The database does not answer.'
		);
		if (routedPath(event.url.pathname).startsWith('/api/')) {
			const { status, body, headers } = API_OUTAGE;
			return json(body, { status, headers });
		}
		const page = errorPage(503, DATABASE_UNAVAILABLE_MESSAGE);
		page.headers.set('Retry-After', API_OUTAGE.headers['Retry-After']);
		return page;
	}
};

/** Requests whose endpoint or page failed because the database does not answer, with the error. */
const outages = new WeakMap<object, unknown>();

/**
 * An unexpected error past the hooks (in a page or endpoint): the outage says what it is, and
 * `databaseOutage` turns the kit's 500 into its 503.
 */
export const handleError: HandleServerError = ({ error, event, status, message }) => {
	if (isDatabaseUnavailable(error)) {
		outages.set(event.locals, error);
		logger().error({ err: error }, 'The database does not answer.');
		return { message: DATABASE_UNAVAILABLE_MESSAGE };
	}
	if (status !== 404) {
		logger().error(
			{ err: error, route: event.route.id, requestId: event.request.headers.get('x-request-id') },
			'An unexpected error answered 500.'
		);
	}
	return { message };
};

/**
 * Tells the start script which route answered and for whom, for its log line and metrics: the
 * route's template, never the path (ids and keys stay out of logs and metric labels).
 */
const observe: Handle = async ({ event, resolve }) => {
	// Audit entries and test calls made while answering name the request (its X-Request-Id).
	// A stop waits for the work even when its caller has gone (see whileWorking).
	const response = await whileWorking(() =>
		withRequest(event.request.headers.get('x-request-id'), () => resolve(event))
	);
	let ip: string | null = null;
	try {
		ip = event.getClientAddress();
	} catch {
		// no address (a request the kit made itself)
	}
	noteRequest(event.request.headers.get('x-request-id'), {
		route: event.route.id,
		userId: event.locals.user?.id ?? null,
		ip
	});
	return response;
};

/**
 * A page's own status, set by its load in `locals.pageStatus` (a load can only throw one): the
 * single sign-on refusal pages render in the layout and answer 4xx or 5xx all the same.
 */
const pageStatus: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	const status = event.locals.pageStatus;
	if (!status || event.isDataRequest || response.status !== 200) return response;
	return new Response(response.body, { status, headers: response.headers });
};

export const handle = sequence(
	observe,
	securityHeaders,
	crossSiteForms,
	databaseOutage,
	authenticate,
	pageStatus
);
