import { fail } from '@sveltejs/kit';
import { z } from 'zod';
import { createToken, listTokens, revokeToken } from '$lib/server/api-tokens';
import { setSessionCookie } from '$lib/server/auth/cookie';
import { startSession } from '$lib/server/auth/session';
import { serverContext } from '$lib/server/context';
import { clientIp, requireUser } from '$lib/server/http';
import { changeOwnPassword, PasswordChangeSchema } from '$lib/server/users';
import type { Actions, PageServerLoad } from './$types';

const TokenNameSchema = z
	.string()
	.trim()
	.min(1, 'Give the token a name, such as what will use it.')
	.max(100, 'Use at most 100 characters.');

function text(value: FormDataEntryValue | null): string {
	return typeof value === 'string' ? value : '';
}

export const load: PageServerLoad = async (event) => ({
	tokens: await listTokens(serverContext(), requireUser(event))
});

export const actions: Actions = {
	/**
	 * Changes the password. That ends every session of the user, this one included, so this
	 * browser gets a fresh session at once: the user stays signed in here and only here.
	 */
	password: async (event) => {
		const me = requireUser(event);
		const data = await event.request.formData();
		const input = { current: text(data.get('current')), password: text(data.get('password')) };
		const errors: Record<string, string> = {};
		const parsed = PasswordChangeSchema.safeParse(input);
		if (!parsed.success) {
			for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
		}
		if (!input.current) errors.current = 'Enter your current password.';
		if (input.password !== text(data.get('confirm'))) errors.confirm = 'The two passwords differ.';
		if (!parsed.success || Object.keys(errors).length) {
			return fail(400, { form: 'password' as const, errors });
		}
		const ctx = serverContext();
		const ip = clientIp(event);
		const outcome = await changeOwnPassword(ctx, me, ip, parsed.data);
		if (!outcome.ok) {
			const field =
				{ wrong_password: 'current', weak_password: 'password' }[outcome.code] ?? 'form';
			return fail(outcome.status, {
				form: 'password' as const,
				errors: { [field]: outcome.message }
			});
		}
		const user = (await ctx.store.users.findById(me.id))!;
		const token = await startSession(ctx, user, {
			ip,
			userAgent: event.request.headers.get('user-agent')
		});
		setSessionCookie(event.cookies, event.url, ctx, token);
		return { form: 'password' as const, changed: true };
	},

	/** Creates an API token; its secret is in this answer only. */
	createToken: async (event) => {
		const data = await event.request.formData();
		const name = text(data.get('name'));
		const parsed = TokenNameSchema.safeParse(name);
		if (!parsed.success) {
			return fail(400, {
				form: 'token' as const,
				values: { name },
				errors: { name: parsed.error.issues[0].message }
			});
		}
		const created = await createToken(
			serverContext(),
			requireUser(event),
			clientIp(event),
			parsed.data
		);
		return { form: 'token' as const, created: { name: created.info.name, secret: created.token } };
	},

	/** Revokes one of the user's tokens. */
	revokeToken: async (event) => {
		const data = await event.request.formData();
		const id = Number(text(data.get('id')));
		const done =
			Number.isInteger(id) &&
			(await revokeToken(serverContext(), requireUser(event), clientIp(event), id));
		if (!done) {
			return fail(404, { form: 'revoke' as const, message: 'That token is already revoked.' });
		}
		return { form: 'revoke' as const, revoked: text(data.get('name')) };
	}
};
