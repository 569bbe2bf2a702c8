import { error, redirect } from '@sveltejs/kit';
import {
	FLOW_COOKIE,
	FLOW_COOKIE_PATH,
	FLOW_SECONDS,
	problemHeaders,
	startSignIn
} from '$lib/server/auth/oidc';
import { signInSettings } from '$lib/server/auth/sign-in-settings';
import { clientIp } from '$lib/server/http/body';
import { serverContext } from '$lib/server/platform/context';
import type { PageServerLoad } from './$types';

/**
 * Starts single sign-on: sets the cookie of the sign-in under way and sends the browser to the
 * identity provider; when the provider does not answer, a page says so (with the way back to
 * the password form).
 */
export const load: PageServerLoad = async (event) => {
	const { url, cookies } = event;
	const oidc = signInSettings().oidc;
	if (!oidc) error(404, 'Single sign-on is not set up here.');
	const started = await startSignIn(
		serverContext(),
		oidc,
		url.origin,
		url.searchParams.get('next'),
		clientIp(event)
	);
	if (!started.ok) {
		problemHeaders(event, started.problem);
		return { problem: started.problem, next: url.searchParams.get('next') ?? '/', name: oidc.name };
	}
	cookies.set(FLOW_COOKIE, started.cookie, {
		path: FLOW_COOKIE_PATH,
		httpOnly: true,
		sameSite: 'lax',
		secure: url.protocol === 'https:',
		maxAge: FLOW_SECONDS
	});
	redirect(303, started.location);
};
