import { z } from 'zod';
import { recordAudit, type Actor } from '../audit';
import { typedTextHash, UNKNOWN_ADDRESS } from '../audit/typed';
import type { ServerContext } from '../platform/context';
import type { AuthUser } from './auth-user';
import type { SessionMethod, TotpRow, User } from '../store/types';
import { hasPassword, PasswordBusyError, verifyNothing, verifyPassword } from './password';
import {
	loginAttempt,
	loginNotChecked,
	loginSucceeded,
	secondFactorAttempt,
	secondFactorSucceeded
} from './rate-limit';
import { SecondFactorSchema, useSecondFactor, type SecondFactor } from './totp';
import { API_TOKEN_PREFIX, hashSecret, newSecret } from './tokens';
import { metrics } from '../platform/metrics.js';
import { passwordBusy, tooMany } from './refusals';
import { signInSettings } from './sign-in-settings';

/**
 * Sessions and API tokens: who a request comes from. Session tokens live in an HttpOnly cookie
 * and only their hashes in the database; a session ends after an idle time and after an
 * absolute time, whichever comes first, and a new one is made at every login.
 */

/** The session cookie's name. */
export const SESSION_COOKIE = 'ps_session';

/** A sign-in: e-mail and password, and for an account with a second factor one of its codes. */
export const SignInSchema = SecondFactorSchema.extend({
	email: z.string().trim().min(1).max(200),
	password: z.string().min(1).max(1000)
});

function authUser(user: User, via: AuthUser['via'], method: SessionMethod | null): AuthUser {
	return { id: user.id, email: user.email, name: user.name, role: user.role, via, method };
}

/**
 * Touching `last_seen_at` at most once a minute keeps reads from becoming writes; more often when
 * the idle time is short, or a session in use would end after an idle time under a minute.
 */
const TOUCH_INTERVAL_MS = 60_000;

/** The user of a session token, or null when it is unknown, expired or the user inactive. */
export async function userFromSession(
	ctx: ServerContext,
	token: string,
	now = Date.now()
): Promise<AuthUser | null> {
	const hash = hashSecret(token);
	const session = await ctx.store.sessions.find(hash);
	if (!session) return null;
	if (now >= session.expiresAt || now - session.lastSeenAt >= ctx.config.sessionIdleMs) {
		await ctx.store.sessions.delete(hash);
		return null;
	}
	const user = await ctx.store.users.findById(session.userId);
	if (!user || !user.active) return null;
	const touchEvery = Math.min(TOUCH_INTERVAL_MS, ctx.config.sessionIdleMs / 10);
	if (now - session.lastSeenAt >= touchEvery) await ctx.store.sessions.touch(hash, now);
	return authUser(user, 'session', session.method);
}

/** The owner of an API token (acting with the owner's role), or null. */
export async function userFromApiToken(
	ctx: ServerContext,
	token: string,
	now = Date.now()
): Promise<AuthUser | null> {
	if (!token.startsWith(API_TOKEN_PREFIX)) return null;
	const found = await ctx.store.tokens.findByHash(hashSecret(token));
	if (!found || found.revokedAt !== null) return null;
	const user = await ctx.store.users.findById(found.userId);
	if (!user || !user.active) return null;
	if (found.lastUsedAt === null || now - found.lastUsedAt >= TOUCH_INTERVAL_MS) {
		await ctx.store.tokens.touch(found.id, now);
	}
	return authUser(user, 'token', null);
}

/** Creates a session and returns its token (for the cookie). */
export async function startSession(
	ctx: ServerContext,
	user: User,
	meta: { ip: string | null; userAgent: string | null; method?: SessionMethod },
	now = Date.now()
): Promise<string> {
	const token = newSecret();
	await ctx.store.sessions.create({
		tokenHash: hashSecret(token),
		userId: user.id,
		createdAt: now,
		lastSeenAt: now,
		expiresAt: now + ctx.config.sessionMaxMs,
		ip: meta.ip,
		userAgent: meta.userAgent?.slice(0, 300) ?? null,
		method: meta.method ?? 'password'
	});
	return token;
}

/** Ends a session. */
export async function endSession(ctx: ServerContext, token: string): Promise<void> {
	await ctx.store.sessions.delete(hashSecret(token));
}

/** The outcome of a login attempt. */
export type LoginResult =
	| { ok: true; user: AuthUser; token: string }
	| {
			ok: false;
			status: 401 | 403 | 429 | 503;
			/** `totp_required` and `invalid_code` only come after a right password. */
			code:
				| 'invalid_credentials'
				| 'totp_required'
				| 'invalid_code'
				| 'password_sign_in_refused'
				| 'rate_limited'
				| 'busy';
			message: string;
			retryAfter?: number;
	  };

/** The one answer to a wrong password, an unknown e-mail and a deactivated account alike. */
export const WRONG_CREDENTIALS = 'The e-mail or the password is wrong.';

/** The answer to a right password of an account with a second factor, sent without a code. */
export const CODE_REQUIRED = 'Enter the authentication code from your app.';

/**
 * Checks credentials and starts a session. The attempt is counted against the rate limits
 * before the password is checked; an unknown e-mail costs the same scrypt as a known one, and a
 * deactivated account gets the answer of a wrong password (whether the password was right is
 * only in the audit log). On success the previous session of this browser ends and a new one
 * starts, unless the account changed (password, role, deactivation) while its password was
 * being checked.
 *
 * An account with a second factor needs a code of its app or a recovery code as well. Only after
 * a right password is it asked for (`totp_required`, and the attempt's points come back: it was
 * no failure); a wrong or replayed code keeps them, and counts against the account too
 * (`secondFactorAttempt`), so the codes cannot be walked from many addresses.
 */
export async function login(
	ctx: ServerContext,
	input: {
		email: string;
		password: string;
		ip: string;
		userAgent: string | null;
		previous?: string;
	} & SecondFactor
): Promise<LoginResult> {
	const email = input.email.trim();
	const user = email ? await ctx.store.users.findByEmail(email) : undefined;
	// What was typed in the e-mail box is recorded only when it is an account's address: it may
	// be a password typed in the wrong box. Otherwise only a keyed hash of it.
	const actor: Actor = user
		? { id: user.id, email: user.email, ip: input.ip }
		: { id: null, email: UNKNOWN_ADDRESS, ip: input.ip };
	const typed: Record<string, string> = user ? {} : { typed: typedTextHash(ctx.secretKey, email) };
	const failed = (reason: string) =>
		recordAudit(ctx.store, actor, 'login.failure', null, { reason, ...typed });
	const signIns = metrics().signIns;
	const settings = signInSettings();
	const elsewhere = settings.oidc ? `Sign in with ${settings.oidc.name}.` : '';
	if (settings.password === 'off') {
		signIns.inc({ method: 'password', result: 'refused' });
		await failed('password_sign_in_off');
		return {
			ok: false,
			status: 403,
			code: 'password_sign_in_refused',
			message: `Signing in with a password is turned off here. ${elsewhere}`.trim()
		};
	}
	const wait = await loginAttempt(email, input.ip);
	if (wait > 0) {
		signIns.inc({ method: 'password', result: 'rate_limited' });
		await failed('rate_limited');
		return tooMany('failed attempts', wait);
	}
	let valid: boolean;
	try {
		// An account made through single sign-on has no password: it costs the same time.
		valid =
			user && hasPassword(user.passwordHash)
				? await verifyPassword(input.password, user.passwordHash)
				: await verifyNothing(input.password);
	} catch (error) {
		if (!(error instanceof PasswordBusyError)) throw error;
		await loginNotChecked(email, input.ip);
		signIns.inc({ method: 'password', result: 'busy' });
		await failed('busy');
		return passwordBusy(error);
	}
	// The account as it is now: a reset, a deactivation or a role change during the check wins.
	const now = user && valid ? await ctx.store.users.findById(user.id) : undefined;
	const unchanged =
		now !== undefined &&
		now.passwordHash === user!.passwordHash &&
		now.role === user!.role &&
		now.active;
	if (!user || !valid || !unchanged) {
		const reason = !user
			? 'unknown_user'
			: !valid
				? 'wrong_password'
				: now?.active
					? 'changed_meanwhile'
					: 'inactive';
		signIns.inc({ method: 'password', result: 'refused' });
		await failed(reason);
		return { ok: false, status: 401, code: 'invalid_credentials', message: WRONG_CREDENTIALS };
	}
	let secondFactor: 'totp' | 'recovery_code' | null = null;
	const factor = await ctx.store.totp.get(now.id);
	if (factor && factor.enabledAt !== null) {
		const refused = await checkSecondFactor(ctx, now, factor, input);
		if (refused) return refused;
		secondFactor = input.totp ? 'totp' : 'recovery_code';
	}
	await loginSucceeded(email, input.ip);
	if (settings.password === 'admins' && now.role !== 'admin') {
		signIns.inc({ method: 'password', result: 'refused' });
		await failed('password_admins_only');
		return {
			ok: false,
			status: 403,
			code: 'password_sign_in_refused',
			message: `Only admins sign in with a password here. ${elsewhere}`.trim()
		};
	}
	signIns.inc({ method: 'password', result: 'success' });
	if (input.previous) await endSession(ctx, input.previous);
	const token = await startSession(ctx, now, { ip: input.ip, userAgent: input.userAgent });
	await recordAudit(
		ctx.store,
		{ id: now.id, email: now.email, ip: input.ip },
		'login.success',
		null,
		secondFactor ? { secondFactor } : null
	);
	return { ok: true, user: authUser(now, 'session', 'password'), token };
}

/**
 * The refusal of a sign-in whose password was right, when the account's second factor is
 * missing, wrong or already used; null when it passed (and is now used up).
 */
async function checkSecondFactor(
	ctx: ServerContext,
	user: User,
	factor: TotpRow,
	input: { email: string; ip: string } & SecondFactor
): Promise<LoginResult | null> {
	const email = input.email.trim();
	const signIns = metrics().signIns;
	const actor = { id: user.id, email: user.email, ip: input.ip };
	if (!input.totp && !input.recoveryCode) {
		await loginNotChecked(email, input.ip);
		return { ok: false, status: 401, code: 'totp_required', message: CODE_REQUIRED };
	}
	const wait = await secondFactorAttempt(user.id);
	if (wait > 0) {
		signIns.inc({ method: 'password', result: 'rate_limited' });
		await recordAudit(ctx.store, actor, 'login.failure', null, { reason: 'rate_limited' });
		return tooMany('wrong codes', wait);
	}
	const used = await useSecondFactor(ctx, user, factor, input);
	if (!used) {
		signIns.inc({ method: 'password', result: 'refused' });
		await recordAudit(ctx.store, actor, 'login.failure', null, {
			reason: input.totp ? 'wrong_code' : 'wrong_recovery_code'
		});
		return {
			ok: false,
			status: 401,
			code: 'invalid_code',
			message: input.totp
				? 'The authentication code is wrong or was already used: wait for the next one.'
				: 'The recovery code is wrong or was already used.'
		};
	}
	await secondFactorSucceeded(user.id);
	return null;
}
