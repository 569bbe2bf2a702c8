import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { z } from 'zod';
import type { RecoveryCodes, TotpEnrolment } from '$lib/api-schemas/account';
import { recordAudit, type Actor } from '../audit';
import type { ServerContext } from '../platform/context';
import { seal, unseal } from '../platform/secrets';
import type { TotpRow, User } from '../store/types';
import { guessAttempt, guessSucceeded } from './rate-limit';
import { codeNotRight, noSuchUser, tooMany, type Refusal } from './refusals';
import type { AuthUser } from './auth-user';
import { hashSecret } from './tokens';

/**
 * The second factor of password accounts: a time-based one-time password (RFC 6238, the codes
 * of authenticator apps) and ten single-use recovery codes. The secret is stored sealed with the
 * app's key (`secrets.ts`), the recovery codes as hashes only. A code is accepted one step
 * (30 s) either side of now, and never twice: the step of the last accepted code is kept, and
 * codes of it or of an earlier step are refused (RFC 6238 §5.2).
 */

/** The issuer authenticator apps show beside the account. */
export const TOTP_ISSUER = 'Provisioning Studio';

/** Steps either side of now a code is accepted in (clocks drift, people type slowly). */
const WINDOW = 1;

/** How many recovery codes an account gets when it turns the second factor on. */
export const RECOVERY_CODE_COUNT = 10;

/** What one sends for a second factor: a code of the app, or a recovery code. */
export const SecondFactorSchema = z.object({
	totp: z.string().trim().max(20).optional(),
	recoveryCode: z.string().trim().max(40).optional()
});
export type SecondFactor = z.infer<typeof SecondFactorSchema>;

function totpOf(email: string, secret: string): TOTP {
	return new TOTP({
		issuer: TOTP_ISSUER,
		label: email,
		secret: Secret.fromBase32(secret),
		algorithm: 'SHA1',
		digits: 6,
		period: 30
	});
}

/**
 * The time step a code belongs to when it is right within the window around `now`, else null.
 * Spaces people type between the digits are ignored.
 */
export function codeStep(email: string, secret: string, code: string, now = Date.now()) {
	const token = code.replace(/\s+/g, '');
	if (!/^\d{6}$/.test(token)) return null;
	const totp = totpOf(email, secret);
	const delta = totp.validate({ token, timestamp: now, window: WINDOW });
	return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

/** Letters and digits of recovery codes: no 0/o, 1/l/i or u to mistake when typed from paper. */
const RECOVERY_ALPHABET = '23456789abcdefghjkmnpqrstvwxyz';

/** A new recovery code: four groups of four characters (about 78 bits). */
function newRecoveryCode(): string {
	const chars = Array.from({ length: 16 }, () => RECOVERY_ALPHABET[randomInt(30)]);
	return [0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join('')).join('-');
}

/**
 * The stored form of a recovery code: a hash of the code as typed without case, spaces or
 * dashes, bound to its account (the same code of two accounts has two hashes).
 */
export function recoveryCodeHash(userId: number, code: string): string {
	return hashSecret(`recovery:${userId}:${code.toLowerCase().replace(/[\s-]+/g, '')}`);
}

/** Whether a user has a second factor turned on. */
export async function hasSecondFactor(ctx: ServerContext, userId: number): Promise<boolean> {
	const row = await ctx.store.totp.get(userId);
	return row?.enabledAt != null;
}

/**
 * Checks a second factor of a user whose authenticator is on, and uses it up: a code's step is
 * remembered, a recovery code marked used. Null when it was refused, else what was used.
 */
export async function useSecondFactor(
	ctx: ServerContext,
	user: User,
	row: TotpRow,
	factor: SecondFactor,
	now = Date.now()
): Promise<'totp' | 'recovery_code' | null> {
	if (factor.totp) {
		const step = codeStep(user.email, unseal(ctx.secretKey, row.secret), factor.totp, now);
		if (step === null) return null;
		return (await ctx.store.totp.acceptStep(user.id, step)) ? 'totp' : null;
	}
	if (factor.recoveryCode) {
		const hash = recoveryCodeHash(user.id, factor.recoveryCode);
		return (await ctx.store.totp.useRecoveryCode(user.id, hash, now)) ? 'recovery_code' : null;
	}
	return null;
}

/** The outcome of a change to a second factor. */
export type TotpOutcome<T> = { ok: true; value: T } | Refusal<400 | 404 | 409 | 429 | 503>;

function actorOf(user: AuthUser, ip: string | null): Actor {
	return { id: user.id, email: user.email, ip };
}

/**
 * Starts an enrolment: a new secret, not on yet, and the `otpauth://` address an authenticator
 * app reads from its QR code. Starting again replaces a secret that was never turned on.
 */
export async function startEnrolment(
	ctx: ServerContext,
	me: AuthUser,
	ip: string | null
): Promise<TotpOutcome<TotpEnrolment>> {
	if (await hasSecondFactor(ctx, me.id)) {
		return {
			ok: false,
			status: 409,
			code: 'already_enabled',
			message: 'A second factor is already on: turn it off first to set up another one.'
		};
	}
	const secret = new Secret({ size: 20 }).base32;
	await ctx.store.totp.begin(me.id, seal(ctx.secretKey, secret), Date.now());
	await recordAudit(ctx.store, actorOf(me, ip), 'totp.enrolment_started', me.email);
	return { ok: true, value: { secret, uri: totpOf(me.email, secret).toString() } };
}

/** The secret being set up (not on yet) and its otpauth:// address, or null when there is none. */
export async function pendingEnrolment(
	ctx: ServerContext,
	me: AuthUser
): Promise<TotpEnrolment | null> {
	const row = await ctx.store.totp.get(me.id);
	if (!row || row.enabledAt !== null) return null;
	const secret = unseal(ctx.secretKey, row.secret);
	return { secret, uri: totpOf(me.email, secret).toString() };
}

/** A code of the new secret, which turns it on. */
export const ActivateSchema = z.object({ code: z.string().trim().min(1).max(20) });

/**
 * Turns the enrolled secret on with a code of it, and answers the recovery codes: they are
 * shown this once and stored hashed. A wrong code turns nothing on.
 */
export async function activate(
	ctx: ServerContext,
	me: AuthUser,
	ip: string | null,
	code: string
): Promise<TotpOutcome<RecoveryCodes>> {
	const row = await ctx.store.totp.get(me.id);
	if (!row || row.enabledAt !== null) {
		return {
			ok: false,
			status: 409,
			code: row ? 'already_enabled' : 'not_enrolling',
			message: row
				? 'The second factor is already on.'
				: 'Start the set-up first (POST /api/me/totp).'
		};
	}
	const step = codeStep(me.email, unseal(ctx.secretKey, row.secret), code);
	if (step === null) {
		return {
			ok: false,
			status: 400,
			code: 'invalid_code',
			message: 'That code is not right: enter the code your app shows now.'
		};
	}
	const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
	const hashes = codes.map((c) => recoveryCodeHash(me.id, c));
	if (!(await ctx.store.totp.enable(me.id, step, Date.now(), hashes))) {
		return {
			ok: false,
			status: 409,
			code: 'already_enabled',
			message: 'The second factor is already on.'
		};
	}
	await recordAudit(ctx.store, actorOf(me, ip), 'totp.enabled', me.email, {
		recoveryCodes: RECOVERY_CODE_COUNT
	});
	return { ok: true, value: { recoveryCodes: codes } };
}

/**
 * What turns one's own second factor off: a code of it, or a recovery code. Never the password
 * alone: a password change asks for a code, which turning the factor off would let it skip.
 */
export const DisableSchema = SecondFactorSchema.extend({
	code: z.string().trim().max(20).optional()
}).refine((v) => v.code || v.totp || v.recoveryCode, {
	message:
		'Send a code of your app or a recovery code: the password alone does not turn the second factor off (an admin can remove it for you).'
});

/** Why turning one's own second factor off was refused, as its audit entry says. */
type DisableRefusal = 'rate_limited' | 'wrong_code' | 'wrong_recovery_code';

/**
 * Turns one's own second factor off after a code of it or a recovery code. Every proof counts
 * against the caller's credential (`credential`, its hash), not against sign-in, so a session
 * left open cannot walk the codes nor lock its owner out by trying.
 */
export async function disableOwn(
	ctx: ServerContext,
	me: AuthUser,
	meta: { ip: string | null; credential: string },
	proof: z.infer<typeof DisableSchema>
): Promise<TotpOutcome<null>> {
	const { ip } = meta;
	const caller = { userId: me.id, via: me.via, credential: meta.credential };
	const refuse = async (reason: DisableRefusal, outcome: TotpOutcome<null> & { ok: false }) => {
		await recordAudit(ctx.store, actorOf(me, ip), 'totp.disable_failure', me.email, {
			reason,
			via: me.via
		});
		return outcome;
	};
	const user = await ctx.store.users.findById(me.id);
	const row = await ctx.store.totp.get(me.id);
	if (!user || !row || row.enabledAt === null) {
		return {
			ok: false,
			status: 409,
			code: 'not_enabled',
			message: 'You have no second factor turned on.'
		};
	}
	const wait = await guessAttempt(caller);
	if (wait > 0) {
		return refuse('rate_limited', tooMany('wrong codes', wait));
	}
	const factor = { totp: proof.code ?? proof.totp, recoveryCode: proof.recoveryCode };
	const used = await useSecondFactor(ctx, user, row, factor);
	if (!used) {
		return refuse(factor.totp ? 'wrong_code' : 'wrong_recovery_code', codeNotRight());
	}
	await guessSucceeded(caller);
	await ctx.store.totp.remove(me.id);
	await recordAudit(ctx.store, actorOf(me, ip), 'totp.disabled', me.email, {
		by: used === 'totp' ? 'code' : 'recovery_code'
	});
	return { ok: true, value: null };
}

/** An admin takes the second factor off a user (who lost their phone and their codes). */
export async function resetForUser(
	ctx: ServerContext,
	by: AuthUser,
	ip: string | null,
	userId: number
): Promise<TotpOutcome<null>> {
	const user = await ctx.store.users.findById(userId);
	if (!user) return noSuchUser();
	if (!(await ctx.store.totp.remove(userId))) {
		return {
			ok: false,
			status: 409,
			code: 'not_enabled',
			message: `${user.email} has no second factor turned on.`
		};
	}
	await recordAudit(ctx.store, actorOf(by, ip), 'totp.reset', user.email);
	return { ok: true, value: null };
}

/**
 * Whether REQUIRE_2FA holds this user back until they set up a second factor: a session made
 * with a password, of a user in its scope, without one. Sessions of a single sign-on are not
 * asked (the identity provider has its own factors), nor are API tokens: a token is made by a
 * user who was signed in, and is revoked with their password.
 */
export async function mustEnrol(ctx: ServerContext, user: AuthUser): Promise<boolean> {
	const scope = ctx.config.require2fa;
	if (scope === 'off' || user.via !== 'session' || user.method !== 'password') return false;
	if (scope === 'admins' && user.role !== 'admin') return false;
	return !(await hasSecondFactor(ctx, user.id));
}

/** What REQUIRE_2FA refuses until the second factor is set up. */
export const ENROL_FIRST =
	'Set up a second factor (an authenticator app) on your account page first.';

/**
 * What stays open to a user who must enrol first: setting up the second factor, the session
 * (who am I, sign out), and the account page to do it on (its other forms wait).
 */
export function openBeforeEnrolment(method: string, path: string, search = ''): boolean {
	if (/^\/api\/(me\/totp|session)\/?$/.test(path) || /^\/logout\/?$/.test(path)) return true;
	if (!/^\/account\/?$/.test(path)) return false;
	return method === 'GET' || method === 'HEAD' || /^\?\/totp(Start|Activate)$/.test(search);
}
