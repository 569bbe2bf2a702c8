import { fail } from '@sveltejs/kit';
import { z } from 'zod';
import { createToken, listTokens, revokeToken } from '$lib/server/auth/api-tokens';
import { setSessionCookie } from '$lib/server/auth/cookie';
import { hasPassword } from '$lib/server/auth/password';
import { qrPath } from '$lib/server/auth/qr';
import {
	activate,
	disableOwn,
	mustEnrol,
	pendingEnrolment,
	startEnrolment
} from '$lib/server/auth/totp';
import { serverContext } from '$lib/server/platform/context';
import { clientIp, requireUser } from '$lib/server/http/body';
import { requireCredential } from '$lib/server/http/credential';
import { changeOwnPassword, PasswordChangeSchema } from '$lib/server/auth/users';
import type { Actions, PageServerLoad } from './$types';

const TokenNameSchema = z
	.string()
	.trim()
	.min(1, 'Give the token a name, such as what will use it.')
	.max(100, 'Use at most 100 characters.');

function text(value: FormDataEntryValue | null): string {
	return typeof value === 'string' ? value : '';
}

/** A code typed in one field: longer than six digits, it is a recovery code. */
function typedCode(code: string): { totp: string } | { recoveryCode: string } {
	return code.replace(/\s+/g, '').length > 6 ? { recoveryCode: code } : { totp: code };
}

/** The second factor as the page shows it: on or off, or the secret being set up. */
async function secondFactor(event: Parameters<PageServerLoad>[0]) {
	const ctx = serverContext();
	const me = requireUser(event);
	const row = await ctx.store.totp.get(me.id);
	const enabled = row?.enabledAt != null;
	const pending = enabled ? null : await pendingEnrolment(ctx, me);
	return {
		enabled,
		recoveryCodesLeft: enabled ? await ctx.store.totp.recoveryCodesLeft(me.id) : 0,
		pending: pending && { ...pending, qr: qrPath(pending.uri) },
		// REQUIRE_2FA holds this user here until it is on.
		required: await mustEnrol(ctx, me),
		// Those who sign in another way (single sign-on) have no use for it.
		passwordSession: me.method === 'password'
	};
}

export const load: PageServerLoad = async (event) => {
	const me = requireUser(event);
	const ctx = serverContext();
	const account = await ctx.store.users.findById(me.id);
	return {
		tokens: await listTokens(ctx, me),
		secondFactor: await secondFactor(event),
		// An account made through single sign-on has no password to change.
		hasPassword: account !== undefined && hasPassword(account.passwordHash)
	};
};

export const actions: Actions = {
	/**
	 * Changes the password. That ends every session of the user, this one included, so this
	 * browser gets a fresh session at once: the user stays signed in here and only here.
	 */
	password: async (event) => {
		const me = requireUser(event);
		const data = await event.request.formData();
		const code = text(data.get('code')).trim();
		const input = {
			current: text(data.get('current')),
			password: text(data.get('password')),
			...(code ? typedCode(code) : {})
		};
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
		const meta = {
			ip: clientIp(event),
			userAgent: event.request.headers.get('user-agent'),
			credential: requireCredential(event)
		};
		const outcome = await changeOwnPassword(ctx, me, meta, parsed.data);
		if (!outcome.ok) {
			const field =
				{
					wrong_password: 'current',
					weak_password: 'password',
					totp_required: 'code',
					invalid_code: 'code'
				}[outcome.code] ?? 'form';
			return fail(outcome.status, {
				form: 'password' as const,
				errors: { [field]: outcome.message }
			});
		}
		// A page is always reached with a session: this is its successor.
		if (outcome.session) setSessionCookie(event.cookies, event.url, ctx, outcome.session);
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

	/** Starts setting up an authenticator app; the page then shows its QR code and secret. */
	totpStart: async (event) => {
		const outcome = await startEnrolment(serverContext(), requireUser(event), clientIp(event));
		if (!outcome.ok) {
			return fail(outcome.status, { form: 'totp' as const, errors: { form: outcome.message } });
		}
		return { form: 'totp' as const, started: true };
	},

	/** Turns the second factor on with a code of the app; the recovery codes are in this answer only. */
	totpActivate: async (event) => {
		const data = await event.request.formData();
		const code = text(data.get('code')).trim();
		if (!code) {
			return fail(400, {
				form: 'totp' as const,
				errors: { code: 'Enter the code your app shows.' }
			});
		}
		const outcome = await activate(serverContext(), requireUser(event), clientIp(event), code);
		if (!outcome.ok) {
			const field = outcome.code === 'invalid_code' ? 'code' : 'form';
			return fail(outcome.status, { form: 'totp' as const, errors: { [field]: outcome.message } });
		}
		return { form: 'totp' as const, recoveryCodes: outcome.value.recoveryCodes };
	},

	/** Turns the second factor off with a code of the app or a recovery code. */
	totpDisable: async (event) => {
		const data = await event.request.formData();
		const code = text(data.get('code')).trim();
		if (!code) {
			return fail(400, {
				form: 'totpOff' as const,
				errors: { off: 'Enter the code your app shows now, or one of your recovery codes.' }
			});
		}
		const outcome = await disableOwn(
			serverContext(),
			requireUser(event),
			{ ip: clientIp(event), credential: requireCredential(event) },
			typedCode(code)
		);
		if (!outcome.ok) {
			return fail(outcome.status, { form: 'totpOff' as const, errors: { off: outcome.message } });
		}
		return { form: 'totpOff' as const, disabled: true };
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
