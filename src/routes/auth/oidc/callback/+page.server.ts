import { error, redirect } from '@sveltejs/kit';
import { setSessionCookie } from '$lib/server/auth/cookie';
import { FLOW_COOKIE, FLOW_COOKIE_PATH, finishSignIn, problemHeaders } from '$lib/server/auth/oidc';
import { SESSION_COOKIE } from '$lib/server/auth/session';
import { signInSettings } from '$lib/server/auth/sign-in-settings';
import { serverContext } from '$lib/server/platform/context';
import { clientIp } from '$lib/server/http/body';
import type { PageServerLoad } from './$types';

/**
 * Where the identity provider sends the browser back: a session and the page the sign-in was
 * started from, or a page saying what went wrong. The sign-in's cookie is used once either way.
 */
export const load: PageServerLoad = async (event) => {
	const { url, cookies } = event;
	const oidc = signInSettings().oidc;
	if (!oidc) error(404, 'Single sign-on is not set up here.');
	const ctx = serverContext();
	const cookie = cookies.get(FLOW_COOKIE);
	cookies.delete(FLOW_COOKIE, { path: FLOW_COOKIE_PATH, secure: url.protocol === 'https:' });
	const result = await finishSignIn(ctx, oidc, {
		url,
		origin: url.origin,
		cookie,
		ip: clientIp(event),
		userAgent: event.request.headers.get('user-agent'),
		previous: cookies.get(SESSION_COOKIE)
	});
	if (!result.ok) {
		problemHeaders(event, result.problem);
		return { problem: result.problem, next: result.next, name: oidc.name };
	}
	setSessionCookie(cookies, url, ctx, result.token);
	redirect(303, result.next);
};
