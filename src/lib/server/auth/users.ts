import { z } from 'zod';
import type { UserListing, UserView } from '$lib/api-schemas/account';
import { recordAudit, type Actor } from '../audit';
import {
	hashPassword,
	hasPassword,
	PasswordBusyError,
	passwordProblem,
	PASSWORD_LIMITS,
	verifyPassword
} from './password';
import { guessAttempt, guessNotChecked, guessSucceeded } from './rate-limit';
import { codeNotRight, noSuchUser, passwordBusy, tooMany, type Refusal } from './refusals';
import type { AuthUser } from './auth-user';
import { startSession } from './session';
import { SecondFactorSchema, useSecondFactor } from './totp';
import type { ServerContext } from '../platform/context';
import type { Store, User } from '../store/types';

/** Managing users (admins) and one's own password (everyone). */

/** A user as answers show one, and a user as `GET /api/users` lists them: the API's shapes. */
export type { UserListing, UserView };

/** A user without secrets, as the API shows one (`UserSchema`). */
export function userView(user: User): UserView {
	const { id, email, name, role, active, createdAt } = user;
	return { id, email, name, role, active, createdAt };
}

/**
 * Every user, as the users page and `GET /api/users` list them (`UserListingSchema`): how each
 * signs in (through single sign-on, a linked identity; with a password; or both), and whether a
 * second factor (TOTP) is on.
 */
export async function listUsers(store: Store): Promise<UserListing[]> {
	const sso = new Set(await store.identities.userIds());
	const factors = new Set(await store.totp.enabledUserIds());
	return (await store.users.list()).map((user) => ({
		...userView(user),
		signIn: { sso: sso.has(user.id), password: hasPassword(user.passwordHash) },
		secondFactor: factors.has(user.id)
	}));
}

const PasswordSchema = z.string().superRefine((value, ctx) => {
	const problem = passwordProblem(value);
	if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** The fields of a new user. */
export const NewUserFields = z.object({
	email: z
		.string()
		.trim()
		.toLowerCase()
		.pipe(z.email({ message: 'Enter a valid e-mail address.' })),
	name: z.string().trim().min(1, 'Enter a name.').max(100),
	role: z.enum(['admin', 'editor', 'viewer']),
	password: PasswordSchema
});

/** Refuses, at the password field, a new user's password made of their e-mail address. */
export function passwordNotEmail(user: { email: string; password: string }, ctx: z.RefinementCtx) {
	if (passwordProblem(user.password)) return;
	const problem = passwordProblem(user.password, user.email);
	if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
}

/** A new user. */
export const NewUserSchema = NewUserFields.superRefine(passwordNotEmail);

/** Changes to a user. */
export const UserChangesSchema = z.object({
	name: z.string().trim().min(1).max(100).optional(),
	role: z.enum(['admin', 'editor', 'viewer']).optional(),
	active: z.boolean().optional(),
	password: PasswordSchema.optional()
});

/** A password change; an account with a second factor sends one of its codes as well. */
export const PasswordChangeSchema = SecondFactorSchema.extend({
	current: z.string().min(1).max(PASSWORD_LIMITS.max),
	password: PasswordSchema
});

/** The outcome of a user operation: the user, or a problem to show. */
export type UserOutcome = { ok: true; user: UserView } | Refusal<400 | 404 | 409 | 429 | 503>;

/** The refusal of a new password that is the user's own e-mail address. */
function weakPassword(password: string, email: string): (UserOutcome & { ok: false }) | null {
	const problem = passwordProblem(password, email);
	return problem ? { ok: false, status: 400, code: 'weak_password', message: problem } : null;
}

/**
 * Ends everything the user's previous state made: every session and every API token. Called
 * when a password is reset or changed, an account is deactivated, or a role changes.
 */
async function endSessionsAndTokens(ctx: ServerContext, userId: number): Promise<void> {
	await ctx.store.sessions.deleteForUser(userId);
	await ctx.store.tokens.revokeForUser(userId, Date.now());
}

function actorOf(user: AuthUser | null, ip: string | null): Actor {
	return { id: user?.id ?? null, email: user?.email ?? null, ip };
}

/** Creates a user (by an admin, or the first admin at setup when `by` is null). */
export async function createUser(
	ctx: ServerContext,
	by: AuthUser | null,
	ip: string | null,
	input: z.infer<typeof NewUserSchema>
): Promise<UserOutcome> {
	if (await ctx.store.users.findByEmail(input.email)) {
		return {
			ok: false,
			status: 409,
			code: 'email_taken',
			message: `${input.email} already has an account.`
		};
	}
	const user = await ctx.store.users.create({
		email: input.email,
		name: input.name,
		role: input.role,
		passwordHash: await hashPassword(input.password),
		at: Date.now()
	});
	await recordAudit(
		ctx.store,
		actorOf(by, ip),
		by ? 'user.created' : 'setup.admin_created',
		user.email,
		{
			role: user.role
		}
	);
	return { ok: true, user: userView(user) };
}

/**
 * Changes a user's name, role, active flag or password. A password reset, a deactivation or a
 * role change ends the user's sessions and revokes their API tokens.
 */
export async function updateUser(
	ctx: ServerContext,
	by: AuthUser,
	ip: string | null,
	id: number,
	changes: z.infer<typeof UserChangesSchema>
): Promise<UserOutcome> {
	const user = await ctx.store.users.findById(id);
	if (!user) return noSuchUser();
	if (changes.password) {
		const weak = weakPassword(changes.password, user.email);
		if (weak) return weak;
	}
	// The store refuses, in the write itself, a change that would leave no active admin.
	const updated = await ctx.store.users.update(id, {
		name: changes.name,
		role: changes.role,
		active: changes.active,
		passwordHash: changes.password ? await hashPassword(changes.password) : undefined,
		at: Date.now()
	});
	if (updated === 'last_admin') {
		return {
			ok: false,
			status: 409,
			code: 'last_admin',
			message: 'This is the last active admin: make someone else admin first.'
		};
	}
	if (!updated) return noSuchUser();
	const roleChanged = changes.role !== undefined && changes.role !== user.role;
	if (changes.active === false || changes.password || roleChanged) {
		await endSessionsAndTokens(ctx, id);
	}
	await recordAudit(ctx.store, actorOf(by, ip), 'user.updated', user.email, {
		name: changes.name ?? null,
		role: changes.role ?? null,
		active: changes.active ?? null,
		password: changes.password ? 'changed' : null
	});
	return { ok: true, user: userView(updated) };
}

/**
 * The outcome of a change of one's own password: with it, the token of the new session of a
 * caller who came with a session cookie (null for one who came with an API token).
 */
export type PasswordChangeOutcome =
	{ ok: true; user: UserView; session: string | null } | (UserOutcome & { ok: false });

/** Why a change of one's own password was refused, as its audit entry says. */
type PasswordChangeRefusal =
	'rate_limited' | 'busy' | 'wrong_password' | 'wrong_code' | 'wrong_recovery_code';

/** The refusal of a change of one's own password, recorded with its reason. */
async function passwordChangeRefused(
	ctx: ServerContext,
	me: AuthUser,
	ip: string | null,
	reason: PasswordChangeRefusal,
	outcome: UserOutcome & { ok: false }
): Promise<PasswordChangeOutcome> {
	await recordAudit(ctx.store, actorOf(me, ip), 'user.password_change_failure', me.email, {
		reason,
		via: me.via
	});
	return outcome;
}

/**
 * Changes one's own password after checking the current one, and with a second factor on one of
 * its codes; every session of the user ends and their API tokens are revoked. A caller who came
 * with a session gets a new one, made as that one was, so this browser stays signed in (and only
 * it); one who came with an API token has lost it. Every attempt counts against the caller's
 * credential (`meta.credential`, its hash) and not against sign-in, so a session or a token can
 * neither walk the password nor lock its owner out by trying.
 */
export async function changeOwnPassword(
	ctx: ServerContext,
	me: AuthUser,
	meta: { ip: string | null; userAgent: string | null; credential: string },
	input: z.infer<typeof PasswordChangeSchema>
): Promise<PasswordChangeOutcome> {
	const { ip } = meta;
	const caller = { userId: me.id, via: me.via, credential: meta.credential };
	const user = await ctx.store.users.findById(me.id);
	if (!user) return noSuchUser();
	const weak = weakPassword(input.password, user.email);
	if (weak) return weak;
	const factor = await ctx.store.totp.get(me.id);
	const withFactor = factor?.enabledAt != null;
	// Nothing is checked yet, so nothing counts: the caller only learns what to send.
	if (withFactor && !input.totp && !input.recoveryCode) {
		return {
			ok: false,
			status: 400,
			code: 'totp_required',
			message: 'Enter the authentication code from your app (or a recovery code) as well.'
		};
	}
	const wait = await guessAttempt(caller);
	if (wait > 0) {
		return passwordChangeRefused(ctx, me, ip, 'rate_limited', tooMany('wrong attempts', wait));
	}
	let valid: boolean;
	try {
		valid = await verifyPassword(input.current, user.passwordHash);
	} catch (error) {
		if (!(error instanceof PasswordBusyError)) throw error;
		await guessNotChecked(caller);
		return passwordChangeRefused(ctx, me, ip, 'busy', passwordBusy(error));
	}
	if (!valid) {
		return passwordChangeRefused(ctx, me, ip, 'wrong_password', {
			ok: false,
			status: 400,
			code: 'wrong_password',
			message: 'The current password is wrong.'
		});
	}
	// Checked only after a right password, so a wrong password does not use a right code up.
	if (withFactor && !(await useSecondFactor(ctx, user, factor, input))) {
		const reason = input.totp ? 'wrong_code' : 'wrong_recovery_code';
		return passwordChangeRefused(ctx, me, ip, reason, codeNotRight());
	}
	await guessSucceeded(caller);
	const updated = await ctx.store.users.update(me.id, {
		passwordHash: await hashPassword(input.password),
		at: Date.now()
	});
	if (typeof updated !== 'object') {
		return noSuchUser();
	}
	await endSessionsAndTokens(ctx, me.id);
	const session =
		me.via === 'session'
			? await startSession(ctx, updated, { ...meta, method: me.method ?? undefined })
			: null;
	await recordAudit(ctx.store, actorOf(me, ip), 'user.password_changed', me.email, {
		via: me.via
	});
	return { ok: true, user: userView(updated), session };
}
