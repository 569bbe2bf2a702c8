import { redirect } from '@sveltejs/kit';
import { recordAudit } from '$lib/server/audit';
import { clearSessionCookie } from '$lib/server/auth/cookie';
import { endSessionUrl, SIGNED_OUT_PATH } from '$lib/server/auth/oidc';
import { endSession, SESSION_COOKIE } from '$lib/server/auth/session';
import { signInSettings } from '$lib/server/auth/sign-in-settings';
import { serverContext } from '$lib/server/platform/context';
import { clientIp, requireUser } from '$lib/server/http/body';
import type { Actions } from './$types';

export const actions: Actions = {
	/** Ends this browser's session, removes the cookie and records the sign-out. */
	default: async (event) => {
		const ctx = serverContext();
		const user = requireUser(event);
		const token = event.cookies.get(SESSION_COOKIE);
		if (token) await endSession(ctx, token);
		clearSessionCookie(event.cookies, event.url);
		await recordAudit(
			ctx.store,
			{ id: user.id, email: user.email, ip: clientIp(event) },
			'logout',
			null
		);
		// A session made through the provider may end there too, and come back to the sign-in page.
		const oidc = signInSettings().oidc;
		const away =
			user.method === 'oidc' && oidc ? await endSessionUrl(oidc, event.url.origin) : null;
		redirect(303, away?.href ?? SIGNED_OUT_PATH);
	}
};
