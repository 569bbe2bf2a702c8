import { json } from '@sveltejs/kit';
import type { PasswordChangedAnswer } from '$lib/api-schemas/account';
import { setSessionCookie } from '$lib/server/auth/cookie';
import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, readJson, requireUser } from '$lib/server/http/body';
import { requireCredential } from '$lib/server/http/credential';
import { changeOwnPassword, PasswordChangeSchema } from '$lib/server/auth/users';
import type { RequestHandler } from './$types';

/**
 * Changes the signed-in user's password; every session and API token of the user ends, and a
 * caller with a session cookie gets a new session.
 */
export const PUT: RequestHandler = async (event) => {
	const body = await readJson(event, PasswordChangeSchema);
	if (!body.ok) return body.response;
	const ctx = serverContext();
	const meta = {
		ip: clientIp(event),
		userAgent: event.request.headers.get('user-agent'),
		credential: requireCredential(event)
	};
	const outcome = await changeOwnPassword(ctx, requireUser(event), meta, body.data);
	if (outcome.ok) {
		if (outcome.session) setSessionCookie(event.cookies, event.url, ctx, outcome.session);
		return json({
			user: outcome.user,
			newSession: outcome.session !== null
		} satisfies PasswordChangedAnswer);
	}
	const response = apiError(outcome.status, outcome.code, outcome.message);
	if (outcome.retryAfter) response.headers.set('Retry-After', String(outcome.retryAfter));
	return response;
};
