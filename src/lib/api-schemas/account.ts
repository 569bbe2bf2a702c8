import { z } from '$lib/core/zod';
import { Millis, RoleSchema } from './common';

/**
 * Answers of the session, the account's own password and second factor, API tokens, users and
 * the audit log. The server builds its answers as these types, so the code and the published
 * document say the same.
 */

/** The user a request acts as: `GET /api/session`, and the answer to a sign-in. */
export const SessionUserSchema = z
	.object({
		id: z.number().int(),
		email: z.string(),
		name: z.string(),
		role: RoleSchema,
		via: z
			.enum(['session', 'token'])
			.meta({ description: 'A session cookie, or an API token sent as Bearer.' }),
		method: z
			.string()
			.nullable()
			.meta({
				description:
					'How the session was made: `password` (with the second factor when the account has one) or `oidc` (single sign-on); null for an API token.',
				examples: ['password', 'oidc']
			})
	})
	.meta({ id: 'SessionUser', description: 'The user a request acts as.' });
export type SessionUser = z.infer<typeof SessionUserSchema>;

/** `POST /api/session` (200) and `GET /api/session`. */
export const SessionSchema = z
	.object({ user: SessionUserSchema })
	.meta({ id: 'Session', description: 'Who is signed in.' });
export type SessionAnswer = z.infer<typeof SessionSchema>;

/** A user as an answer shows one: never the password or its hash. */
export const UserSchema = z
	.object({
		id: z.number().int(),
		email: z.string(),
		name: z.string(),
		role: RoleSchema,
		active: z
			.boolean()
			.meta({ description: 'False for a deactivated account, which cannot sign in.' }),
		createdAt: Millis
	})
	.meta({ id: 'User', description: 'A user, without secrets.' });
export type UserView = z.infer<typeof UserSchema>;

/** `POST /api/users` (201) and `PATCH /api/users/{id}`. */
export const UserAnswerSchema = z.object({ user: UserSchema }).meta({ id: 'UserAnswer' });

/** `PUT /api/me/password`: the user, and whether the caller goes on with a new session. */
export const PasswordChangedSchema = z
	.object({
		user: UserSchema,
		newSession: z.boolean().meta({
			description:
				'True when the request came with a session cookie: this browser has a new session (`Set-Cookie`), and every other session has ended. False when it came with an API token: that token is revoked with every other token of the user; sign in and make a new one to go on.'
		})
	})
	.meta({ id: 'PasswordChanged' });
export type PasswordChangedAnswer = z.infer<typeof PasswordChangedSchema>;

/** A user as `GET /api/users` lists them: with how they sign in. */
export const UserListingSchema = UserSchema.extend({
	signIn: z
		.object({
			sso: z.boolean().meta({ description: 'Linked to an identity of the single sign-on.' }),
			password: z.boolean().meta({ description: 'Has a password.' })
		})
		.meta({ description: 'How the user signs in: through single sign-on, a password, or both.' }),
	secondFactor: z.boolean().meta({ description: 'Whether a second factor (TOTP) is on.' })
}).meta({ id: 'UserListing', description: 'A user, with how they sign in.' });
export type UserListing = z.infer<typeof UserListingSchema>;

/** `GET /api/users`. */
export const UserListSchema = z
	.object({ users: z.array(UserListingSchema) })
	.meta({ id: 'UserList' });

/** `GET /api/me/totp`. */
export const TotpStatusSchema = z
	.object({
		enabled: z.boolean().meta({ description: 'Whether a second factor is on.' }),
		recoveryCodesLeft: z
			.number()
			.int()
			.meta({ description: 'Recovery codes not used yet; 0 when the second factor is off.' })
	})
	.meta({ id: 'TotpStatus', description: 'The signed-in user’s second factor.' });
export type TotpStatus = z.infer<typeof TotpStatusSchema>;

/** `POST /api/me/totp`: a new secret, not on yet. */
export const TotpEnrolmentSchema = z
	.object({
		secret: z.string().meta({ description: 'The new key, in base32.' }),
		uri: z.string().meta({
			description: 'Its `otpauth://totp/…` address, which an authenticator app reads.'
		})
	})
	.meta({ id: 'TotpEnrolment', description: 'A second factor being set up, not on yet.' });
export type TotpEnrolment = z.infer<typeof TotpEnrolmentSchema>;

/** `PUT /api/me/totp`: the recovery codes, shown this once. */
export const RecoveryCodesSchema = z
	.object({
		recoveryCodes: z
			.array(z.string())
			.meta({ description: 'Ten single-use codes (`xxxx-xxxx-xxxx-xxxx`), shown this once.' })
	})
	.meta({ id: 'RecoveryCodes' });
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

/** An API token as listed: never its secret or its hash. */
export const ApiTokenSchema = z
	.object({
		id: z.number().int(),
		name: z.string(),
		prefix: z
			.string()
			.meta({ description: 'The secret’s first characters (`pst_` and six more), to tell it.' }),
		createdAt: Millis,
		lastUsedAt: Millis.nullable().meta({ description: 'Null when never used.' }),
		revokedAt: Millis.nullable().meta({ description: 'Null while the token works.' })
	})
	.meta({ id: 'ApiToken', description: 'An API token, without its secret.' });
export type ApiTokenView = z.infer<typeof ApiTokenSchema>;

/** `GET /api/tokens`. */
export const ApiTokenListSchema = z
	.object({ tokens: z.array(ApiTokenSchema).meta({ description: 'Newest first.' }) })
	.meta({ id: 'ApiTokenList' });
export type ApiTokenList = z.infer<typeof ApiTokenListSchema>;

/** `POST /api/tokens` (201): the secret, this once. */
export const NewApiTokenSchema = z
	.object({
		token: z.string().meta({
			description: 'The secret (`pst_…`), to send as `Authorization: Bearer`; shown this once.'
		}),
		info: ApiTokenSchema
	})
	.meta({ id: 'NewApiToken' });
export type NewApiToken = z.infer<typeof NewApiTokenSchema>;

/** One entry of the audit log. */
export const AuditEntrySchema = z
	.object({
		id: z.number().int(),
		at: Millis,
		actorId: z
			.number()
			.int()
			.nullable()
			.meta({ description: 'The acting user; null before a sign-in.' }),
		actor: z
			.string()
			.nullable()
			.meta({ description: 'The acting user’s e-mail address, or what was typed at sign-in.' }),
		action: z.string().meta({ example: 'profile.saved' }),
		target: z.string().nullable().meta({ description: 'What the action was done to.' }),
		ip: z.string().nullable(),
		details: z.record(z.string(), z.unknown()).nullable().meta({
			description:
				'What the action needs said, never a body, password, token or secret value; `requestId` names the request that made it.'
		})
	})
	.meta({ id: 'AuditEntry', description: 'Who did what, and when.' });

/** `GET /api/audit`. */
export const AuditEntriesSchema = z
	.object({ entries: z.array(AuditEntrySchema).meta({ description: 'Newest first.' }) })
	.meta({ id: 'AuditEntries' });
export type AuditEntries = z.infer<typeof AuditEntriesSchema>;

/** The audit stream's state, as the audit page shows it. */
export const AuditStreamStatusSchema = z
	.object({
		configured: z.boolean().meta({ description: 'Whether `AUDIT_WEBHOOK_URL` is set.' }),
		target: z.string().nullable().meta({
			description: 'The receiver’s host and port, never its path or query; null when off.'
		}),
		backlog: z
			.number()
			.int()
			.meta({ description: 'Entries waiting in the outbox, of every instance.' }),
		lastDeliveredAt: Millis.nullable().meta({ description: 'Null when none yet.' }),
		lastDeliveredId: z.number().int().nullable(),
		lastError: z
			.string()
			.nullable()
			.meta({ description: 'Stays after the receiver recovered: compare the times.' }),
		lastErrorAt: Millis.nullable()
	})
	.meta({
		id: 'AuditStreamStatus',
		description:
			'The audit stream’s state. Off, the rest still describes the outbox: entries left wait there until it is on again.'
	});
export type AuditStreamStatus = z.infer<typeof AuditStreamStatusSchema>;

/** `GET /api/audit/stream`. */
export const AuditStreamAnswerSchema = z
	.object({ stream: AuditStreamStatusSchema })
	.meta({ id: 'AuditStreamAnswer' });
