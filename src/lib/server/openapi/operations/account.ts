import { z } from 'zod';
import { ErrorSchema } from '$lib/api-schemas/common';
import {
	ApiTokenListSchema,
	AuditEntriesSchema,
	AuditStreamAnswerSchema,
	NewApiTokenSchema,
	PasswordChangedSchema,
	RecoveryCodesSchema,
	SessionSchema,
	TotpEnrolmentSchema,
	TotpStatusSchema,
	UserAnswerSchema,
	UserListSchema
} from '$lib/api-schemas/account';
import { NewTokenSchema } from '../../auth/api-tokens';
import { SignInSchema } from '../../auth/session';
import { ActivateSchema, DisableSchema } from '../../auth/totp';
import { NewUserSchema, PasswordChangeSchema, UserChangesSchema } from '../../auth/users';
import { AuditExportQuerySchema, AuditListQuerySchema } from '../../audit/query';
import { jsonAnswer, NO_CONTENT, RETRY_AFTER, type Answer, type OperationSpec } from '../contract';

/** Sets the session cookie, or removes it. */
const SET_COOKIE = (description: string): Answer['headers'] => ({
	'Set-Cookie': { description, required: true, schema: { type: 'string' } }
});

/**
 * The 503 of an operation that checks a password: scrypt's queue is full (`busy`, nothing was
 * counted), or the database does not answer; both say when to try again.
 */
const BUSY = jsonAnswer(
	'`busy`: too many password checks wait already; `database_unavailable`: the database does not answer. Try again after `Retry-After`.',
	ErrorSchema,
	RETRY_AFTER
);

/**
 * The 403 of the session and of one's own second factor, which stay open to an account that
 * `REQUIRE_2FA` holds back until it sets up a second factor.
 */
const CROSS_SITE = jsonAnswer(
	'`cross_site`: a session’s write from another origin, or whose body is not JSON.',
	ErrorSchema
);

const id = (description: string) => z.object({ id: z.string().meta({ description }) });

/** A password that passes the rules for new passwords (`docs/security.md`). */
const NEW_PASSWORD = 'Quiet-Harbour-Lantern-58';

/** Session, account, API tokens, users and the audit log. */
export const accountOperations: OperationSpec[] = [
	{
		operationId: 'signIn',
		method: 'post',
		path: '/api/session',
		summary: 'Sign in with e-mail and password',
		description:
			'Starts a session and sets its cookie (`ps_session`: HttpOnly, SameSite=Lax, Secure over https); the session this browser had ends. An account with a second factor also sends `totp` (the six digits of its app) or `recoveryCode`: with the right password and neither, the answer is `401 totp_required` and no session. A wrong password, an unknown e-mail and a deactivated account all get the same `401 invalid_credentials`. Attempts are counted per e-mail and address before the password is checked (`429 rate_limited`); wrong codes count against the account too. With `PASSWORD_SIGN_IN=admins` a non-admin’s right password is `403 password_sign_in_refused`; with `off`, every attempt is.',
		tag: 'Session',
		body: {
			schema: SignInSchema,
			example: { email: 'ada@example.com', password: 'correct horse battery' }
		},
		answers: {
			200: jsonAnswer(
				'Signed in: the user, and the session cookie.',
				SessionSchema,
				SET_COOKIE('The session cookie, `ps_session`.')
			),
			403: jsonAnswer(
				'`password_sign_in_refused`: signing in with a password is off here, or for admins only; `cross_site`: sent from another origin, or not as JSON.',
				ErrorSchema
			),
			503: BUSY
		},
		errors: {
			401: '`invalid_credentials`: the e-mail or the password is wrong (or the account is deactivated); `totp_required`: the password is right and the account’s second factor is needed (no session); `invalid_code`: the password is right and the code is wrong, replayed or used.',
			429: '`rate_limited`: too many failed attempts from this address for this e-mail, or too many wrong codes for the account.'
		}
	},
	{
		operationId: 'getSession',
		method: 'get',
		path: '/api/session',
		summary: 'Who is signed in',
		description:
			'The user the request acts as: through the session cookie or an API token (`via`), and how the session was made (`method`).',
		tag: 'Session',
		answers: { 200: jsonAnswer('The signed-in user.', SessionSchema), 403: CROSS_SITE }
	},
	{
		operationId: 'signOut',
		method: 'delete',
		path: '/api/session',
		summary: 'Sign out',
		description:
			'Ends the session of the cookie and removes the cookie. With an API token it removes no token: revoke one with `DELETE /api/tokens/{id}`.',
		tag: 'Session',
		answers: {
			204: { ...NO_CONTENT, headers: SET_COOKIE('Removes the session cookie.') },
			403: CROSS_SITE
		}
	},
	{
		operationId: 'changePassword',
		method: 'put',
		path: '/api/me/password',
		summary: 'Change one’s own password',
		description:
			'Checks the current password and sets the new one: every session of the user ends and every API token of theirs is revoked. A request with a session cookie gets a new session for this browser (`Set-Cookie`, `newSession: true`); a request with an API token has revoked that token too (`newSession: false`): sign in and make a new one. An account with a second factor also sends `totp` (the six digits of its app) or `recoveryCode`. Each try counts against the session or token it comes with (10 per 15 minutes), and an account’s API tokens share a ceiling (30 per 15 minutes); sign-in is never held back by them (`429 rate_limited`). New passwords need 12 to 256 characters and must not be commonly used, repetitive, sequential or the user’s e-mail address.',
		tag: 'Account',
		body: {
			schema: PasswordChangeSchema,
			example: { current: 'the password of now', password: NEW_PASSWORD }
		},
		answers: {
			200: jsonAnswer(
				'Changed: the user, and whether this browser has a new session.',
				PasswordChangedSchema,
				{
					'Set-Cookie': {
						description:
							'The new session cookie, `ps_session`, when the request came with a session cookie.',
						schema: { type: 'string' }
					}
				}
			),
			503: BUSY
		},
		errors: {
			400: '`invalid_input`: the body is not acceptable (a weak new password is named at `password`); `weak_password`: the new password is the user’s e-mail address; `totp_required`: the account has a second factor and neither `totp` nor `recoveryCode` was sent (nothing was checked or counted); `wrong_password`: the current password is wrong; `invalid_code`: the password is right and the code is wrong, replayed or used.',
			404: '`not_found`: the account was removed meanwhile.',
			429: '`rate_limited`: too many tries with this session or token, or with the account’s tokens; nothing is checked until `Retry-After`.'
		}
	},
	{
		operationId: 'getSecondFactor',
		method: 'get',
		path: '/api/me/totp',
		summary: 'Whether one’s second factor is on',
		description:
			'Whether the signed-in user has a second factor (an authenticator app) on, and how many recovery codes are left.',
		tag: 'Account',
		answers: {
			200: jsonAnswer('The second factor’s state.', TotpStatusSchema),
			403: CROSS_SITE
		}
	},
	{
		operationId: 'startSecondFactor',
		method: 'post',
		path: '/api/me/totp',
		summary: 'Start setting up an authenticator app',
		description:
			'Makes a new key, not on yet, and its `otpauth://totp/…` address (for the QR code an authenticator app reads). Starting again replaces a key that was never turned on. Open before the second factor is set up, even when `REQUIRE_2FA` asks for one.',
		tag: 'Account',
		answers: {
			200: jsonAnswer('The new key, not on yet.', TotpEnrolmentSchema),
			403: CROSS_SITE
		},
		errors: {
			409: '`already_enabled`: a second factor is on already; turn it off first.'
		}
	},
	{
		operationId: 'enableSecondFactor',
		method: 'put',
		path: '/api/me/totp',
		summary: 'Turn the second factor on',
		description:
			'Turns the key of `POST /api/me/totp` on with a code the app shows now, and answers ten single-use recovery codes: they are shown this once and stored hashed. A wrong code turns nothing on.',
		tag: 'Account',
		body: { schema: ActivateSchema, example: { code: '123456' } },
		answers: {
			200: jsonAnswer('On; the recovery codes, this once.', RecoveryCodesSchema),
			403: CROSS_SITE
		},
		errors: {
			400: '`invalid_input`: the body is not acceptable; `invalid_code`: the code is not right.',
			409: '`not_enrolling`: start the set-up first (`POST /api/me/totp`); `already_enabled`: the second factor is on already.'
		}
	},
	{
		operationId: 'disableSecondFactor',
		method: 'delete',
		path: '/api/me/totp',
		summary: 'Turn the second factor off',
		description:
			'Turns the signed-in user’s second factor off, with a code of the app (`code` or `totp`) or a recovery code; the password alone is refused (a user who lost both asks an admin: `DELETE /api/users/{id}/totp`). Each try counts against the session or token it comes with (10 per 15 minutes), and an account’s API tokens share a ceiling (30 per 15 minutes); sign-in is never held back by them.',
		tag: 'Account',
		body: { schema: DisableSchema, example: { code: '123456' } },
		answers: { 204: NO_CONTENT, 403: CROSS_SITE },
		errors: {
			400: '`invalid_input`: the body is not acceptable (it has neither a code nor a recovery code, such as a password alone); `invalid_code`: the code is wrong or was used.',
			409: '`not_enabled`: no second factor is on.',
			429: '`rate_limited`: too many tries with this session or token, or with the account’s tokens; nothing is checked until `Retry-After`.'
		}
	},
	{
		operationId: 'listApiTokens',
		method: 'get',
		path: '/api/tokens',
		summary: 'One’s API tokens',
		description:
			'The signed-in user’s API tokens, revoked ones too, newest first; never their secrets.',
		tag: 'API tokens',
		answers: { 200: jsonAnswer('The tokens.', ApiTokenListSchema) }
	},
	{
		operationId: 'createApiToken',
		method: 'post',
		path: '/api/tokens',
		summary: 'Make an API token',
		description:
			'Makes a token that acts with its owner’s role; its secret (`pst_…`) is in this answer only. It is revoked when the owner’s password changes, their role changes or they are deactivated.',
		tag: 'API tokens',
		body: { schema: NewTokenSchema, example: { name: 'CI' } },
		answers: { 201: jsonAnswer('Made; the secret, this once.', NewApiTokenSchema) }
	},
	{
		operationId: 'revokeApiToken',
		method: 'delete',
		path: '/api/tokens/{id}',
		summary: 'Revoke an API token',
		description: 'Revokes one of the signed-in user’s tokens: it stops working at once.',
		tag: 'API tokens',
		params: { path: id('The token’s id.') },
		answers: {
			204: NO_CONTENT,
			404: jsonAnswer('`not_found`: no such active token of yours.', ErrorSchema)
		}
	},
	{
		operationId: 'listUsers',
		method: 'get',
		path: '/api/users',
		summary: 'The users',
		description:
			'Every user, with how each signs in (single sign-on, a password, or both) and whether a second factor is on.',
		tag: 'Users',
		answers: { 200: jsonAnswer('The users.', UserListSchema) }
	},
	{
		operationId: 'createUser',
		method: 'post',
		path: '/api/users',
		summary: 'Add a user',
		description:
			'Makes an account with a password. Passwords need 12 to 256 characters and must not be commonly used, repetitive, sequential or the user’s e-mail address.',
		tag: 'Users',
		body: {
			schema: NewUserSchema,
			example: {
				email: 'grace@example.com',
				name: 'Grace Hopper',
				role: 'editor',
				password: NEW_PASSWORD
			}
		},
		answers: { 201: jsonAnswer('Made.', UserAnswerSchema) },
		errors: { 409: '`email_taken`: the e-mail address already has an account.' }
	},
	{
		operationId: 'updateUser',
		method: 'patch',
		path: '/api/users/{id}',
		summary: 'Change a user',
		description:
			'Changes a user’s name, role, active flag or password. A password reset, a role change or a deactivation ends the user’s sessions and revokes their API tokens. The last active admin cannot be demoted or deactivated.',
		tag: 'Users',
		params: { path: id('The user’s id.') },
		body: { schema: UserChangesSchema, example: { name: 'Ada Lovelace' } },
		answers: { 200: jsonAnswer('Changed.', UserAnswerSchema) },
		errors: {
			400: '`invalid_input`: the body is not acceptable; `weak_password`: the new password is the user’s e-mail address.',
			409: '`last_admin`: this is the last active admin; make someone else admin first.'
		}
	},
	{
		operationId: 'resetSecondFactor',
		method: 'delete',
		path: '/api/users/{id}/totp',
		summary: 'Take a user’s second factor off',
		description:
			'For a user who lost their authenticator and their recovery codes: removes both, and the user signs in with the password alone.',
		tag: 'Users',
		params: { path: id('The user’s id.') },
		answers: { 204: NO_CONTENT },
		errors: { 409: '`not_enabled`: the user has no second factor on.' }
	},
	{
		operationId: 'listAuditEntries',
		method: 'get',
		path: '/api/audit',
		summary: 'The audit log',
		description:
			'Entries newest first, filtered by action prefix, actor and time, paged by id (`before`). Entries are never changed or deleted, and never hold bodies, passwords, tokens or secret values. A parameter that cannot be read is no filter.',
		tag: 'Audit',
		params: { query: AuditListQuerySchema },
		invalidInput: false,
		answers: { 200: jsonAnswer('The entries.', AuditEntriesSchema) }
	},
	{
		operationId: 'exportAuditLog',
		method: 'get',
		path: '/api/audit/export',
		summary: 'The audit log as a file',
		description:
			"The whole log, or the entries the filters match (`until` exclusive), oldest first, streamed a thousand at a time as the client takes them. `jsonl` (`application/jsonl; charset=utf-8`): one entry a line as the list shows it, with its time also as `time` (ISO 8601). `csv` (`text/csv; charset=utf-8; header=present`): RFC 4180, UTF-8 without BOM, CRLF, the header `id,time,actor_id,actor,action,target,ip,details`, `time` ISO 8601 (UTC), `details` as JSON, empty cells for what is absent; a cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, so a spreadsheet shows it rather than running it. The export is recorded (`audit.exported`, with the format and filters) as it starts, so it is the last entry of a full export.",
		tag: 'Audit',
		params: { query: AuditExportQuerySchema },
		answers: {
			200: {
				description: 'The file.',
				content: {
					'application/jsonl': z.string().meta({ description: 'JSON Lines: one entry a line.' }),
					'text/csv': z.string().meta({ description: 'CSV with a header row.' })
				},
				headers: {
					'Content-Disposition': {
						description: 'An attachment named `audit-YYYY-MM-DD.jsonl` or `.csv`.',
						required: true,
						schema: {
							type: 'string',
							pattern: '^attachment; filename="audit-[0-9]{4}-[0-9]{2}-[0-9]{2}\\.(jsonl|csv)"$'
						}
					}
				}
			}
		},
		errors: {
			400: '`invalid_input`: `format` is not `jsonl` or `csv`, or `since` or `until` is not a time; `issues` names it.'
		}
	},
	{
		operationId: 'getAuditStream',
		method: 'get',
		path: '/api/audit/stream',
		summary: 'The audit stream’s state',
		description:
			'Whether entries are sent to a webhook (`AUDIT_WEBHOOK_URL`), its host, the entries waiting in the outbox, the last delivery and the last error.',
		tag: 'Audit',
		answers: { 200: jsonAnswer('The state.', AuditStreamAnswerSchema) }
	}
];
