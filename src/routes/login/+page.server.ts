import { fail, redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { setSessionCookie } from '$lib/server/auth/cookie';
import { safeNext } from '$lib/server/auth/next';
import { login, SESSION_COOKIE } from '$lib/server/auth/session';
import { signInSettings } from '$lib/server/auth/sign-in-settings';
import { serverContext } from '$lib/server/context';
import { clientIp } from '$lib/server/http';
import type { Actions, PageServerLoad } from './$types';

const LoginSchema = z.object({
	email: z.string().trim().min(1, 'Enter your e-mail address.').max(200, 'That is too long.'),
	password: z.string().min(1, 'Enter your password.').max(1000, 'That is too long.')
});

export const load: PageServerLoad = async ({ locals, url }) => {
	const next = safeNext(url.searchParams.get('next'));
	if (locals.user) redirect(303, next);
	const needsSetup = (await serverContext().store.users.count()) === 0;
	const { password, oidc } = signInSettings();
	return {
		next,
		signedOut: url.searchParams.has('signed_out'),
		needsSetup,
		sso: oidc ? { name: oidc.name, password } : null
	};
};

export const actions: Actions = {
	default: async (event) => {
		const data = await event.request.formData();
		const email = data.get('email');
		const values = { email: typeof email === 'string' ? email : '' };
		const parsed = LoginSchema.safeParse({ email, password: data.get('password') });
		if (!parsed.success) {
			const errors: Record<string, string> = {};
			for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
			return fail(400, {
				values,
				errors,
				message: null as string | null,
				retryAt: null as number | null
			});
		}
		const ctx = serverContext();
		const result = await login(ctx, {
			...parsed.data,
			ip: clientIp(event),
			userAgent: event.request.headers.get('user-agent'),
			previous: event.cookies.get(SESSION_COOKIE)
		});
		if (!result.ok) {
			const retryAt = result.retryAfter ? Date.now() + result.retryAfter * 1000 : null;
			const errors: Record<string, string> = {};
			return fail(result.status, { values, errors, message: result.message, retryAt });
		}
		setSessionCookie(event.cookies, event.url, ctx, result.token);
		redirect(303, safeNext(data.get('next')));
	}
};
