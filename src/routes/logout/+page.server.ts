import { redirect } from '@sveltejs/kit';
import { recordAudit } from '$lib/server/audit';
import { clearSessionCookie } from '$lib/server/auth/cookie';
import { endSession, SESSION_COOKIE } from '$lib/server/auth/session';
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
		redirect(303, '/login?signed_out=1');
	}
};
