import { json } from '@sveltejs/kit';
import { recordAudit } from '$lib/server/audit';
import { clearSessionCookie, setSessionCookie } from '$lib/server/auth/cookie';
import type { SessionAnswer } from '$lib/api-schemas/account';
import { endSession, login, SESSION_COOKIE, SignInSchema } from '$lib/server/auth/session';
import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, readJson, requireUser } from '$lib/server/http/body';
import type { RequestHandler } from './$types';

/** The signed-in user. */
export const GET: RequestHandler = async (event) =>
	json({ user: requireUser(event) } satisfies SessionAnswer);

/**
 * Signs in with e-mail and password (and, for an account with a second factor, `totp` or
 * `recoveryCode`); sets the session cookie.
 */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, SignInSchema);
	if (!body.ok) return body.response;
	const ctx = serverContext();
	const result = await login(ctx, {
		...body.data,
		ip: clientIp(event),
		userAgent: event.request.headers.get('user-agent'),
		previous: event.cookies.get(SESSION_COOKIE)
	});
	if (!result.ok) {
		const response = apiError(result.status, result.code, result.message);
		if (result.retryAfter) response.headers.set('Retry-After', String(result.retryAfter));
		return response;
	}
	setSessionCookie(event.cookies, event.url, ctx, result.token);
	return json({ user: result.user } satisfies SessionAnswer);
};

/** Signs out: ends the session and removes the cookie. */
export const DELETE: RequestHandler = async (event) => {
	const ctx = serverContext();
	const token = event.cookies.get(SESSION_COOKIE);
	const user = requireUser(event);
	if (token) await endSession(ctx, token);
	clearSessionCookie(event.cookies, event.url);
	await recordAudit(
		ctx.store,
		{ id: user.id, email: user.email, ip: clientIp(event) },
		'logout',
		null
	);
	return new Response(null, { status: 204 });
};
