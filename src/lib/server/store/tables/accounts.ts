import { sql, type Kysely, type Selectable } from 'kysely';
import type { Tables, UsersTable, UserTotpTable } from '../schema';
import type { AccountStore, NewUser, Role, TotpRow, User } from '../types';
import { num, numOrNull, type Queries } from './shared';

function user(row: Selectable<UsersTable> | undefined): User | undefined {
	if (!row) return undefined;
	return {
		id: num(row.id),
		email: row.email,
		name: row.name,
		role: row.role as Role,
		active: Number(row.active) === 1,
		passwordHash: row.password_hash,
		createdAt: num(row.created_at),
		updatedAt: num(row.updated_at)
	};
}

function totp(row: Selectable<UserTotpTable> | undefined): TotpRow | undefined {
	if (!row) return undefined;
	return {
		userId: num(row.user_id),
		secret: row.secret,
		createdAt: num(row.created_at),
		enabledAt: numOrNull(row.enabled_at),
		lastStep: numOrNull(row.last_step)
	};
}

/** The row changed is no active admin, or another active admin stays. */
const ANOTHER_ADMIN_STAYS = sql<boolean>`(
	role <> 'admin' or active = 0
	or (select count(*) from users where role = 'admin' and active = 1) > 1
)`;

/**
 * Accounts (`users`), their identities at providers (`user_identities`), their sessions and their
 * second factors (`user_totp`, `recovery_codes`).
 */
export function accountStore({ db, pg, first }: Queries): AccountStore {
	/** E-mails compare without regard to case: SQLite's column is NOCASE, PostgreSQL's index lower(). */
	const emailIs = (email: string) =>
		pg ? sql<boolean>`lower(email) = lower(${email})` : sql<boolean>`email = ${email}`;

	/** Inserts an account (in `trx` when given). */
	async function insertUser(input: NewUser, trx: Kysely<Tables> = db): Promise<User> {
		const row = await trx
			.insertInto('users')
			.values({
				email: input.email,
				name: input.name,
				role: input.role,
				password_hash: input.passwordHash,
				created_at: input.at,
				updated_at: input.at
			})
			.returningAll()
			.executeTakeFirstOrThrow();
		return user(row)!;
	}

	return {
		users: {
			async count() {
				const row = await db
					.selectFrom('users')
					.select((eb) => eb.fn.countAll().as('n'))
					.executeTakeFirstOrThrow();
				return Number(row.n);
			},
			async create(input) {
				return insertUser(input);
			},
			async findById(id) {
				return user(
					await first(db, 'user', [id], () =>
						db.selectFrom('users').selectAll().where('id', '=', id)
					)
				);
			},
			async findByEmail(email) {
				return user(
					await db.selectFrom('users').selectAll().where(emailIs(email)).executeTakeFirst()
				);
			},
			async list() {
				const rows = await db.selectFrom('users').selectAll().orderBy('email').execute();
				return rows.map((r) => user(r)!);
			},
			async update(id, changes) {
				const takesAdminAway =
					(changes.role !== undefined && changes.role !== 'admin') || changes.active === false;
				const write = (q: Kysely<Tables>) => {
					let update = q
						.updateTable('users')
						.set({
							updated_at: changes.at,
							...(changes.name !== undefined && { name: changes.name }),
							...(changes.role !== undefined && { role: changes.role }),
							...(changes.active !== undefined && { active: changes.active ? 1 : 0 }),
							...(changes.passwordHash !== undefined && { password_hash: changes.passwordHash })
						})
						.where('id', '=', id);
					// The check and the write are one statement: no other change comes between.
					if (takesAdminAway) update = update.where(ANOTHER_ADMIN_STAYS);
					return update.returningAll().executeTakeFirst();
				};
				if (!takesAdminAway) return user(await write(db));
				// PostgreSQL counts in the statement's snapshot: a change running at the same time
				// could count the same admins. Locking their rows first makes it wait and count again.
				const row = pg
					? await db.transaction().execute(async (trx) => {
							await trx
								.selectFrom('users')
								.select('id')
								.where('role', '=', 'admin')
								.where('active', '=', 1)
								.orderBy('id')
								.forUpdate()
								.execute();
							return write(trx);
						})
					: await write(db);
				if (row) return user(row);
				const exists = await db
					.selectFrom('users')
					.select('id')
					.where('id', '=', id)
					.executeTakeFirst();
				return exists ? 'last_admin' : undefined;
			}
		},
		identities: {
			async find(issuer, subject) {
				const row = await db
					.selectFrom('user_identities')
					.selectAll()
					.where('issuer', '=', issuer)
					.where('subject', '=', subject)
					.executeTakeFirst();
				if (!row) return undefined;
				return {
					issuer: row.issuer,
					subject: row.subject,
					userId: num(row.user_id),
					createdAt: num(row.created_at),
					lastSignInAt: num(row.last_sign_in_at)
				};
			},
			async createAccount(input, identity) {
				return db.transaction().execute(async (trx) => {
					const created = await insertUser(input, trx);
					await trx
						.insertInto('user_identities')
						.values({
							issuer: identity.issuer,
							subject: identity.subject,
							user_id: created.id,
							created_at: input.at,
							last_sign_in_at: input.at
						})
						.execute();
					return created;
				});
			},
			async link(identity) {
				return db.transaction().execute(async (trx) => {
					// One identity an account: on PostgreSQL the account's row is locked, so two
					// sign-ins with the same address cannot both link it (SQLite writes one at a time).
					let owner = trx.selectFrom('users').select('id').where('id', '=', identity.userId);
					if (pg) owner = owner.forUpdate();
					if (!(await owner.executeTakeFirst())) return false;
					const linked = await trx
						.selectFrom('user_identities')
						.select('user_id')
						.where('user_id', '=', identity.userId)
						.executeTakeFirst();
					if (linked) return false;
					const result = await trx
						.insertInto('user_identities')
						.values({
							issuer: identity.issuer,
							subject: identity.subject,
							user_id: identity.userId,
							created_at: identity.createdAt,
							last_sign_in_at: identity.lastSignInAt
						})
						.onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
						.executeTakeFirst();
					return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
				});
			},
			async linked(userId) {
				const row = await db
					.selectFrom('user_identities')
					.select('user_id')
					.where('user_id', '=', userId)
					.executeTakeFirst();
				return row !== undefined;
			},
			async touch(issuer, subject, at) {
				await db
					.updateTable('user_identities')
					.set({ last_sign_in_at: at })
					.where('issuer', '=', issuer)
					.where('subject', '=', subject)
					.execute();
			},
			async userIds() {
				const rows = await db.selectFrom('user_identities').select('user_id').distinct().execute();
				return rows.map((r) => num(r.user_id));
			}
		},
		sessions: {
			async create(s) {
				await db
					.insertInto('sessions')
					.values({
						token_hash: s.tokenHash,
						user_id: s.userId,
						created_at: s.createdAt,
						last_seen_at: s.lastSeenAt,
						expires_at: s.expiresAt,
						ip: s.ip,
						user_agent: s.userAgent,
						method: s.method ?? 'password'
					})
					.execute();
			},
			async find(tokenHash) {
				const row = await first(db, 'session', [tokenHash], () =>
					db
						.selectFrom('sessions')
						.select(['token_hash', 'user_id', 'created_at', 'last_seen_at', 'expires_at', 'method'])
						.where('token_hash', '=', tokenHash)
				);
				if (!row) return undefined;
				return {
					tokenHash: row.token_hash,
					userId: num(row.user_id),
					createdAt: num(row.created_at),
					lastSeenAt: num(row.last_seen_at),
					expiresAt: num(row.expires_at),
					method: row.method
				};
			},
			async touch(tokenHash, at) {
				await db
					.updateTable('sessions')
					.set({ last_seen_at: at })
					.where('token_hash', '=', tokenHash)
					.execute();
			},
			async delete(tokenHash) {
				await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
			},
			async deleteForUser(userId) {
				await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
			},
			async purgeExpired(now, idleMs) {
				const result = await db
					.deleteFrom('sessions')
					.where((eb) =>
						eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', now - idleMs)])
					)
					.executeTakeFirst();
				return Number(result.numDeletedRows);
			}
		},
		totp: {
			async get(userId) {
				return totp(
					await db
						.selectFrom('user_totp')
						.selectAll()
						.where('user_id', '=', userId)
						.executeTakeFirst()
				);
			},
			async begin(userId, secret, at) {
				await db.transaction().execute(async (trx) => {
					await trx
						.deleteFrom('user_totp')
						.where('user_id', '=', userId)
						.where('enabled_at', 'is', null)
						.execute();
					await trx
						.insertInto('user_totp')
						.values({ user_id: userId, secret, created_at: at })
						.execute();
				});
			},
			async enable(userId, step, at, codeHashes) {
				return db.transaction().execute(async (trx) => {
					const result = await trx
						.updateTable('user_totp')
						.set({ enabled_at: at, last_step: step })
						.where('user_id', '=', userId)
						.where('enabled_at', 'is', null)
						.executeTakeFirst();
					if (Number(result.numUpdatedRows) !== 1) return false;
					await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
					await trx
						.insertInto('recovery_codes')
						.values(codeHashes.map((hash) => ({ user_id: userId, code_hash: hash })))
						.execute();
					return true;
				});
			},
			async acceptStep(userId, step) {
				// One statement: of two sign-ins with the same code at once, one moves the step on.
				const result = await db
					.updateTable('user_totp')
					.set({ last_step: step })
					.where('user_id', '=', userId)
					.where('enabled_at', 'is not', null)
					.where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
					.executeTakeFirst();
				return Number(result.numUpdatedRows) === 1;
			},
			async useRecoveryCode(userId, codeHash, at) {
				const result = await db
					.updateTable('recovery_codes')
					.set({ used_at: at })
					.where('user_id', '=', userId)
					.where('code_hash', '=', codeHash)
					.where('used_at', 'is', null)
					.executeTakeFirst();
				return Number(result.numUpdatedRows) === 1;
			},
			async recoveryCodesLeft(userId) {
				const row = await db
					.selectFrom('recovery_codes')
					.select((eb) => eb.fn.countAll().as('n'))
					.where('user_id', '=', userId)
					.where('used_at', 'is', null)
					.executeTakeFirstOrThrow();
				return Number(row.n);
			},
			async remove(userId) {
				return db.transaction().execute(async (trx) => {
					await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
					const removed = await trx
						.deleteFrom('user_totp')
						.where('user_id', '=', userId)
						.returning('enabled_at')
						.execute();
					return removed.some((r) => r.enabled_at !== null);
				});
			},
			async enabledUserIds() {
				const rows = await db
					.selectFrom('user_totp')
					.select('user_id')
					.where('enabled_at', 'is not', null)
					.execute();
				return rows.map((r) => num(r.user_id));
			}
		}
	};
}
