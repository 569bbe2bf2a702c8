import { fail, redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { setSessionCookie } from '$lib/server/auth/cookie';
import { safeNext } from '$lib/server/auth/next';
import { login, SESSION_COOKIE } from '$lib/server/auth/session';
import { mustEnrol } from '$lib/server/auth/totp';
import { signInSettings } from '$lib/server/auth/sign-in-settings';
import { serverContext } from '$lib/server/platform/context';
import { clientIp } from '$lib/server/http/body';
import type { Actions, PageServerLoad } from './$types';

const LoginSchema = z.object({
	email: z.string().trim().min(1, 'Enter your e-mail address.').max(200, 'That is too long.'),
	password: z.string().min(1, 'Enter your password.').max(1000, 'That is too long.'),
	totp: z.string().trim().max(20, 'That is too long.').optional(),
	recoveryCode: z.string().trim().max(40, 'That is too long.').optional()
});

/** A form field's text, or undefined when it was not sent or is empty. */
function given(value: FormDataEntryValue | null): string | undefined {
	return typeof value === 'string' && value.trim() ? value : undefined;
}

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
		// The code step sends the e-mail and password again, with the code or a recovery code.
		const codeStep = data.has('totp') || data.has('recoveryCode');
		const parsed = LoginSchema.safeParse({
			email,
			password: data.get('password'),
			totp: given(data.get('totp')),
			recoveryCode: given(data.get('recoveryCode'))
		});
		if (!parsed.success) {
			const errors: Record<string, string> = {};
			for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
			return fail(400, {
				values,
				errors,
				message: null as string | null,
				retryAt: null as number | null,
				step: codeStep ? ('code' as const) : null
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
			// The password was right: the same page asks for the code next.
			if (result.code === 'totp_required' || result.code === 'invalid_code') {
				if (result.code === 'invalid_code') {
					errors[parsed.data.recoveryCode ? 'recoveryCode' : 'totp'] = result.message;
				}
				return fail(401, { values, errors, message: null, retryAt, step: 'code' as const });
			}
			return fail(result.status, {
				values,
				errors,
				message: result.message,
				retryAt,
				step: codeStep && result.code === 'rate_limited' ? ('code' as const) : null
			});
		}
		setSessionCookie(event.cookies, event.url, ctx, result.token);
		// REQUIRE_2FA: one who has no second factor yet sets it up first.
		if (await mustEnrol(ctx, result.user)) redirect(303, '/account');
		redirect(303, safeNext(data.get('next')));
	}
};
