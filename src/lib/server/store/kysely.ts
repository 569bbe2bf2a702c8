import {
	sql,
	type Compilable,
	type CompiledQuery,
	type Kysely,
	type Selectable,
	type Transaction
} from 'kysely';
import { isDeepStrictEqual } from 'node:util';
import { migrate } from './migrations';
import type {
	ApiTokensTable,
	AuditLogTable,
	FlowRunsTable,
	DialectName,
	ProfilesTable,
	SandboxPushesTable,
	SandboxesTable,
	SinkRequestsTable,
	SinksTable,
	Tables,
	TestCallsTable,
	UsersTable,
	UserTotpTable
} from './schema';
import type {
	ApiToken,
	AuditEntry,
	AuditStreamState,
	FlowRunRow,
	ProfileRow,
	RevisionRow,
	Role,
	SandboxPushRow,
	SandboxRow,
	SinkRequestRow,
	SinkRow,
	Store,
	TestCallRow,
	TotpRow,
	User
} from './types';

/**
 * The store over the query builder, the same code for SQLite and PostgreSQL. What differs
 * between them is given by the opener (`open.ts`): the connection, and how a high-volume write
 * relaxes durability.
 */

/** What the opener of a dialect gives the store. */
export interface Backend {
	dialect: DialectName;
	db: Kysely<Tables>;
	/**
	 * Runs a transaction of high-volume records (test calls, sink requests, pushes and their
	 * audit entries) with relaxed durability: such a record may be lost in a power cut, never
	 * half-written.
	 */
	relaxed<T>(write: (trx: Transaction<Tables>) => Promise<T>): Promise<T>;
	/**
	 * SQLite only (see `open.ts`): runs compiled queries at once, in the caller's turn, where
	 * the connection is free. A query SQLite answers in microseconds then costs about that,
	 * without the builder's chain of promises around it. Absent on PostgreSQL.
	 */
	now?: RunNow;
	/** Closes the connection(s). */
	close(): Promise<void>;
}

/** Runs one compiled query with its parameters; the rows it reads (none for a write). */
export type RunCompiled = (query: CompiledQuery, parameters: readonly unknown[]) => unknown[];

/**
 * Runs `work` at once, its queries through the `run` it is given: on their own (`read`), or in
 * a transaction of their own with relaxed durability, as {@link Backend.relaxed} writes
 * (`relaxed`). `work` must not wait for anything. Null, having run
 * nothing, while the connection is held by a transaction or a relaxed write that waits between
 * its queries: the caller then goes through the builder, which queues behind that holder.
 */
export type RunNow = <T>(
	work: (run: RunCompiled) => T,
	mode: 'read' | 'relaxed'
) => { value: T } | null;

/** How the store is opened beyond its backend. */
export interface StoreOptions {
	/**
	 * The audit stream is on: every audit entry is written with its row in the stream's outbox,
	 * in the same transaction, so an entry is never recorded without being delivered later.
	 */
	auditOutbox?: boolean;
	/** Told after an entry reached the outbox (the stream's worker then looks at once). */
	onAudit?: () => void;
}

/** Audit actions recorded as often as test calls are made (see `Backend.relaxed`). */
const RELAXED_ACTIONS = new Set(['test_call', 'push.sent']);

const num = (v: number | string | bigint) => Number(v);
const numOrNull = (v: number | string | bigint | null | undefined) =>
	v === null || v === undefined ? null : Number(v);

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

function token(row: Selectable<ApiTokensTable> | undefined): ApiToken | undefined {
	if (!row) return undefined;
	return {
		id: num(row.id),
		userId: num(row.user_id),
		name: row.name,
		prefix: row.prefix,
		tokenHash: row.token_hash,
		createdAt: num(row.created_at),
		lastUsedAt: numOrNull(row.last_used_at),
		revokedAt: numOrNull(row.revoked_at)
	};
}

function profile(row: Selectable<ProfilesTable> | undefined): ProfileRow | undefined {
	if (!row) return undefined;
	return {
		id: row.id,
		name: row.name,
		createdAt: num(row.created_at),
		createdBy: numOrNull(row.created_by),
		deletedAt: numOrNull(row.deleted_at),
		headRevision: num(row.head_revision),
		updatedAt: num(row.updated_at)
	};
}

interface RevisionSelect {
	profile_id: string;
	revision: number;
	document?: string;
	secrets?: string | null;
	author_id: number | null;
	author_name: string | null;
	created_at: number;
	message: string | null;
}

function revision(row: RevisionSelect | undefined): RevisionRow | undefined {
	if (!row) return undefined;
	return {
		profileId: row.profile_id,
		revision: num(row.revision),
		document: row.document ?? '',
		secrets: row.secrets ?? null,
		authorId: numOrNull(row.author_id),
		authorName: row.author_name ?? null,
		createdAt: num(row.created_at),
		message: row.message ?? null
	};
}

function testCall(
	row: Omit<Selectable<TestCallsTable>, 'record'> & { record?: string }
): TestCallRow {
	return {
		id: num(row.id),
		userId: num(row.user_id),
		service: row.service,
		profileId: row.profile_id ?? null,
		scenario: row.scenario ?? null,
		at: num(row.at),
		summary: row.summary,
		record: row.record ?? ''
	};
}

function flowRun(
	row: Omit<Selectable<FlowRunsTable>, 'record'> & { record?: string; user_email?: string | null }
): FlowRunRow {
	return {
		id: num(row.id),
		profileId: row.profile_id ?? null,
		flow: row.flow,
		userId: numOrNull(row.user_id),
		userEmail: row.user_email ?? null,
		at: num(row.at),
		ok: num(row.ok) === 1,
		summary: row.summary,
		record: row.record ?? ''
	};
}

function sink(row: Selectable<SinksTable> | undefined): SinkRow | undefined {
	if (!row) return undefined;
	return {
		key: row.key,
		name: row.name,
		createdBy: numOrNull(row.created_by),
		createdAt: num(row.created_at),
		answer: row.answer
	};
}

function sinkRequest(row: Selectable<SinkRequestsTable>): SinkRequestRow {
	return { id: num(row.id), sinkKey: row.sink_key, at: num(row.at), record: row.record };
}

function sandbox(row: Selectable<SandboxesTable> | undefined): SandboxRow | undefined {
	if (!row) return undefined;
	return {
		id: row.id,
		key: row.key,
		keyHash: row.key_hash,
		name: row.name,
		ownerId: numOrNull(row.owner_id),
		createdAt: num(row.created_at),
		updatedAt: num(row.updated_at),
		settings: row.settings
	};
}

function sandboxPush(row: Selectable<SandboxPushesTable>): SandboxPushRow {
	return { id: num(row.id), sandboxId: row.sandbox_id, at: num(row.at), record: row.record };
}

/** The row of an audit entry. */
function auditRow(entry: Omit<AuditEntry, 'id'>) {
	return {
		at: entry.at,
		actor_id: entry.actorId,
		actor: entry.actor,
		action: entry.action,
		target: entry.target,
		ip: entry.ip,
		details: entry.details ? JSON.stringify(entry.details) : null
	};
}

function audit(row: Selectable<AuditLogTable>): AuditEntry {
	return {
		id: num(row.id),
		at: num(row.at),
		actorId: numOrNull(row.actor_id),
		actor: row.actor ?? null,
		action: row.action,
		target: row.target ?? null,
		ip: row.ip ?? null,
		details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null
	};
}

/** A revision with its author's name. */
function revisionQuery(db: Kysely<Tables>) {
	return db
		.selectFrom('revisions as r')
		.leftJoin('users as u', 'u.id', 'r.author_id')
		.selectAll('r')
		.select('u.name as author_name');
}

/**
 * The store over a backend. Its schema is migrated before the first query runs; when that fails
 * (the database is unreachable at start), the next call tries again, so the app recovers by
 * itself once the database is back.
 */
export function kyselyStore(backend: Backend, options: StoreOptions = {}): Store {
	const { db, dialect } = backend;
	const pg = dialect === 'postgres';
	const outbox = options.auditOutbox === true;
	/**
	 * The outbox row of the audit entry inserted just before, on the same connection and in the
	 * same transaction: its id is the connection's last one (SQLite's rowid, PostgreSQL's last
	 * sequence value, which the audit log's identity column just took).
	 */
	const outboxRow = (at: number) => ({
		audit_id: pg ? sql<number>`lastval()` : sql<number>`last_insert_rowid()`,
		available_at: at
	});
	let ready: Promise<void> | undefined;
	const whenReady = () => {
		ready ??= migrate(db, dialect).then(
			() => undefined,
			(error: unknown) => {
				ready = undefined;
				throw error;
			}
		);
		return ready;
	};

	/**
	 * The queries every request makes (its session or token, its user, a profile and revision)
	 * and a test call's writes are built and compiled once, then run with new parameters:
	 * building and compiling costs more than SQLite running them. `params` are the query's
	 * parameters in the order the built query has them (checked when it is compiled); none is
	 * undefined, which the builder would have left out of the query.
	 */
	const compiled = new Map<string, CompiledQuery>();
	function compiledQuery<R>(
		key: string,
		params: unknown[],
		build: () => Compilable<R>
	): CompiledQuery<R> {
		if (params.includes(undefined)) throw new Error(`The query "${key}" lacks a parameter.`);
		let query = compiled.get(key);
		if (!query) {
			query = build().compile();
			if (!isDeepStrictEqual(query.parameters, params)) {
				throw new Error(`The query "${key}" takes its parameters in another order.`);
			}
			compiled.set(key, query);
		}
		return query as CompiledQuery<R>;
	}
	/** The first row of a compiled query; on SQLite at once where the connection is free. */
	async function first<R>(
		q: Kysely<Tables>,
		key: string,
		params: unknown[],
		build: () => Compilable<R>
	): Promise<R | undefined> {
		const query = compiledQuery(key, params, build);
		if (q === db) {
			const done = backend.now?.((run) => run(query, params)[0] as R | undefined, 'read');
			if (done) return done.value;
		}
		const result = await q.executeQuery<R>({ ...query, parameters: params });
		return result.rows[0];
	}
	/**
	 * Runs compiled writes in one relaxed transaction (see `Backend.relaxed`): on SQLite at once
	 * where the connection is free, else through the builder. Returns the first query's first row.
	 */
	async function relaxedWrites(
		writes: { query: CompiledQuery; params: unknown[] }[]
	): Promise<unknown> {
		const done = backend.now?.(
			(run) => writes.map(({ query, params }) => run(query, params))[0]?.[0],
			'relaxed'
		);
		if (done) return done.value;
		return backend.relaxed(async (trx) => {
			const rows: unknown[][] = [];
			for (const { query, params } of writes) {
				rows.push((await trx.executeQuery({ ...query, parameters: params })).rows);
			}
			return rows[0]?.[0];
		});
	}

	const getRevision = (q: Kysely<Tables>, id: string, rev: number) =>
		first(q, 'revision', [id, rev], () =>
			revisionQuery(q).where('r.profile_id', '=', id).where('r.revision', '=', rev)
		);

	const getProfile = async (q: Kysely<Tables>, id: string) =>
		profile(
			await first(q, 'profile', [id], () =>
				q.selectFrom('profiles').selectAll().where('id', '=', id)
			)
		);

	/** E-mails compare without regard to case: SQLite's column is NOCASE, PostgreSQL's index lower(). */
	const emailIs = (email: string) =>
		pg ? sql<boolean>`lower(email) = lower(${email})` : sql<boolean>`email = ${email}`;

	/** Inserts an account (in `trx` when given). */
	async function insertUser(
		input: Parameters<Store['users']['create']>[0],
		trx: Kysely<Tables> = db
	): Promise<User> {
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

	const store: Store = {
		backend: dialect,
		async ready() {
			await whenReady();
		},
		async ping() {
			await sql`SELECT 1`.execute(db);
		},
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
				const row = await db
					.updateTable('users')
					.set({
						updated_at: changes.at,
						...(changes.name !== undefined && { name: changes.name }),
						...(changes.role !== undefined && { role: changes.role }),
						...(changes.active !== undefined && { active: changes.active ? 1 : 0 }),
						...(changes.passwordHash !== undefined && { password_hash: changes.passwordHash })
					})
					.where('id', '=', id)
					.returningAll()
					.executeTakeFirst();
				return user(row);
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
				const result = await db
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
		signInFlows: {
			async begin(id, expiresAt, now) {
				await db.deleteFrom('sign_in_flows').where('expires_at', '<=', now).execute();
				await db.insertInto('sign_in_flows').values({ id, expires_at: expiresAt }).execute();
			},
			async finish(id, now) {
				// One statement: of two callbacks at once, on any instances, one deletes the row.
				const result = await db
					.deleteFrom('sign_in_flows')
					.where('id', '=', id)
					.where('expires_at', '>', now)
					.executeTakeFirst();
				return Number(result.numDeletedRows) === 1;
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
		},
		tokens: {
			async create(input) {
				const row = await db
					.insertInto('api_tokens')
					.values({
						user_id: input.userId,
						name: input.name,
						prefix: input.prefix,
						token_hash: input.tokenHash,
						created_at: input.createdAt
					})
					.returningAll()
					.executeTakeFirstOrThrow();
				return token(row)!;
			},
			async findByHash(tokenHash) {
				return token(
					await first(db, 'token', [tokenHash], () =>
						db.selectFrom('api_tokens').selectAll().where('token_hash', '=', tokenHash)
					)
				);
			},
			async listForUser(userId) {
				const rows = await db
					.selectFrom('api_tokens')
					.selectAll()
					.where('user_id', '=', userId)
					.orderBy('id', 'desc')
					.execute();
				return rows.map((r) => token(r)!);
			},
			async revoke(id, userId, at) {
				const result = await db
					.updateTable('api_tokens')
					.set({ revoked_at: at })
					.where('id', '=', id)
					.where('user_id', '=', userId)
					.where('revoked_at', 'is', null)
					.executeTakeFirst();
				return Number(result.numUpdatedRows) === 1;
			},
			async revokeForUser(userId, at) {
				const result = await db
					.updateTable('api_tokens')
					.set({ revoked_at: at })
					.where('user_id', '=', userId)
					.where('revoked_at', 'is', null)
					.executeTakeFirst();
				return Number(result.numUpdatedRows);
			},
			async touch(id, at) {
				await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
			}
		},
		profiles: {
			async list({ deleted }) {
				const rows = await db
					.selectFrom('profiles')
					.selectAll()
					.where('deleted_at', deleted ? 'is not' : 'is', null)
					.orderBy(sql`lower(name)`)
					.orderBy('id')
					.execute();
				return rows.map((r) => profile(r)!);
			},
			async get(id) {
				return getProfile(db, id);
			},
			async create(input) {
				return db.transaction().execute(async (trx) => {
					await trx
						.insertInto('profiles')
						.values({
							id: input.id,
							name: input.name,
							created_at: input.at,
							created_by: input.authorId,
							head_revision: 1,
							updated_at: input.at
						})
						.execute();
					await trx
						.insertInto('revisions')
						.values({
							profile_id: input.id,
							revision: 1,
							document: input.document,
							secrets: input.secrets,
							author_id: input.authorId,
							created_at: input.at,
							message: input.message
						})
						.execute();
					return {
						profile: (await getProfile(trx, input.id))!,
						revision: revision(await getRevision(trx, input.id, 1))!
					};
				});
			},
			/**
			 * The head moves by a conditional update: of two saves on the same base, in this process
			 * or another, the second waits for the first's row lock, then finds the head moved and
			 * updates nothing. Only the save that moved the head writes its revision.
			 */
			async save(input) {
				return db.transaction().execute(async (trx) => {
					const next = input.baseRevision + 1;
					const moved = await trx
						.updateTable('profiles')
						.set({ head_revision: next, updated_at: input.at })
						.where('id', '=', input.profileId)
						.where('head_revision', '=', input.baseRevision)
						.where('deleted_at', 'is', null)
						.executeTakeFirst();
					if (Number(moved.numUpdatedRows) !== 1) {
						const row = await getProfile(trx, input.profileId);
						if (!row || row.deletedAt !== null) {
							return { ok: false as const, reason: 'not_found' as const };
						}
						const head = revision(await getRevision(trx, row.id, row.headRevision))!;
						return { ok: false as const, reason: 'conflict' as const, head };
					}
					await trx
						.insertInto('revisions')
						.values({
							profile_id: input.profileId,
							revision: next,
							document: input.document,
							secrets: input.secrets,
							author_id: input.authorId,
							created_at: input.at,
							message: input.message
						})
						.execute();
					return {
						ok: true as const,
						revision: revision(await getRevision(trx, input.profileId, next))!
					};
				});
			},
			async rename(id, name, at) {
				const result = await db
					.updateTable('profiles')
					.set({ name, updated_at: at })
					.where('id', '=', id)
					.executeTakeFirst();
				return Number(result.numUpdatedRows) === 1;
			},
			async setDeleted(id, deletedAt) {
				const result = await db
					.updateTable('profiles')
					.set({ deleted_at: deletedAt })
					.where('id', '=', id)
					.executeTakeFirst();
				return Number(result.numUpdatedRows) === 1;
			},
			async revisions(id) {
				const rows = await db
					.selectFrom('revisions as r')
					.leftJoin('users as u', 'u.id', 'r.author_id')
					.select([
						'r.profile_id',
						'r.revision',
						'r.author_id',
						'r.created_at',
						'r.message',
						'u.name as author_name'
					])
					.where('r.profile_id', '=', id)
					.orderBy('r.revision', 'desc')
					.execute();
				return rows.map((r) => {
					const { document: _d, secrets: _s, ...rest } = revision(r)!;
					void _d;
					void _s;
					return rest;
				});
			},
			async revision(id, rev) {
				return revision(await getRevision(db, id, rev));
			}
		},
		testCalls: {
			async add(row, audit = []) {
				const values = {
					user_id: row.userId,
					service: row.service,
					profile_id: row.profileId,
					scenario: row.scenario,
					at: row.at,
					summary: row.summary,
					record: row.record
				};
				// Compiled once (see `first`): a test call's write is on the way to its answer.
				const params = Object.values(values);
				const writes = [
					{
						query: compiledQuery('test_call', params, () =>
							db.insertInto('test_calls').values(values).returning('id')
						),
						params
					},
					...audit.flatMap((entry) => {
						const values = auditRow(entry);
						const params = Object.values(values);
						const query = compiledQuery('audit', params, () =>
							db.insertInto('audit_log').values(values)
						);
						if (!outbox) return [{ query, params }];
						const next = [entry.at];
						const queued = compiledQuery('audit_outbox', next, () =>
							db.insertInto('audit_outbox').values(outboxRow(entry.at))
						);
						return [
							{ query, params },
							{ query: queued, params: next }
						];
					})
				];
				const inserted = (await relaxedWrites(writes)) as { id: number | bigint } | undefined;
				if (!inserted) throw new Error('The test call was not stored.');
				if (outbox && audit.length) options.onAudit?.();
				return num(inserted.id);
			},
			async trim(userId, service, keep) {
				const params = [userId, service, userId, service, 1, keep];
				await relaxedWrites([
					{
						query: compiledQuery('test_call.trim', params, () =>
							db
								.deleteFrom('test_calls')
								.where('user_id', '=', userId)
								.where('service', '=', service)
								// The newest call past those kept, found on the index; none: nothing to remove.
								.where('id', '<=', (eb) =>
									eb
										.selectFrom('test_calls')
										.select('id')
										.where('user_id', '=', userId)
										.where('service', '=', service)
										.orderBy('id', 'desc')
										.limit(1)
										.offset(keep)
								)
						),
						params
					}
				]);
			},
			async list(userId, service, profileId, limit) {
				const rows = await db
					.selectFrom('test_calls')
					.select(['id', 'user_id', 'service', 'profile_id', 'scenario', 'at', 'summary'])
					.where('user_id', '=', userId)
					.where('service', '=', service)
					.where('profile_id', profileId === null ? 'is' : '=', profileId)
					.orderBy('id', 'desc')
					.limit(limit)
					.execute();
				return rows.map((r) => {
					const { record: _r, ...rest } = testCall(r);
					void _r;
					return rest;
				});
			},
			async get(id, userId) {
				const row = await db
					.selectFrom('test_calls')
					.selectAll()
					.where('id', '=', id)
					.where('user_id', '=', userId)
					.executeTakeFirst();
				return row ? testCall(row) : undefined;
			},
			async latestOfProfile(profileId) {
				// The newest id of each service, found on the (profile, service, id) index.
				const rows = await db
					.selectFrom('test_calls as t')
					.leftJoin('users as u', 'u.id', 't.user_id')
					.select([
						't.id',
						't.user_id',
						't.service',
						't.profile_id',
						't.scenario',
						't.at',
						't.summary',
						'u.name as user_name',
						'u.email as user_email'
					])
					.where('t.id', 'in', (eb) =>
						eb
							.selectFrom('test_calls')
							.select((e) => e.fn.max('id').as('id'))
							.where('profile_id', '=', profileId)
							.groupBy('service')
					)
					.execute();
				return rows.map((r) => {
					const { record: _r, ...rest } = testCall(r);
					void _r;
					return { ...rest, userName: r.user_name ?? null, userEmail: r.user_email ?? null };
				});
			}
		},
		flowRuns: {
			async add(row, keep) {
				return backend.relaxed(async (trx) => {
					const inserted = await trx
						.insertInto('flow_runs')
						.values({
							profile_id: row.profileId,
							flow: row.flow,
							user_id: row.userId,
							at: row.at,
							ok: row.ok ? 1 : 0,
							summary: row.summary,
							record: row.record
						})
						.returningAll()
						.executeTakeFirstOrThrow();
					const sameProfile = row.profileId === null ? 'is' : '=';
					await trx
						.deleteFrom('flow_runs')
						.where('profile_id', sameProfile, row.profileId)
						.where('id', 'not in', (eb) =>
							eb
								.selectFrom('flow_runs')
								.select('id')
								.where('profile_id', sameProfile, row.profileId)
								.orderBy('id', 'desc')
								.limit(keep)
						)
						.execute();
					return flowRun(inserted);
				});
			},
			async list(profileId, limit) {
				const rows = await db
					.selectFrom('flow_runs as f')
					.leftJoin('users as u', 'u.id', 'f.user_id')
					.select([
						'f.id',
						'f.profile_id',
						'f.flow',
						'f.user_id',
						'u.email as user_email',
						'f.at',
						'f.ok',
						'f.summary'
					])
					.where('f.profile_id', '=', profileId)
					.orderBy('f.id', 'desc')
					.limit(limit)
					.execute();
				return rows.map((r) => {
					const { record: _r, ...rest } = flowRun(r);
					void _r;
					return rest;
				});
			},
			async get(id) {
				const row = await db
					.selectFrom('flow_runs as f')
					.leftJoin('users as u', 'u.id', 'f.user_id')
					.selectAll('f')
					.select('u.email as user_email')
					.where('f.id', '=', id)
					.executeTakeFirst();
				return row ? flowRun(row) : undefined;
			}
		},
		sinks: {
			async create(row) {
				const created = await db
					.insertInto('sinks')
					.values({
						key: row.key,
						name: row.name,
						created_by: row.createdBy,
						created_at: row.createdAt,
						answer: row.answer
					})
					.returningAll()
					.executeTakeFirstOrThrow();
				return sink(created)!;
			},
			async list() {
				const rows = await db
					.selectFrom('sinks')
					.selectAll()
					.orderBy('created_at', 'desc')
					.execute();
				return rows.map((r) => sink(r)!);
			},
			async get(key) {
				return sink(
					await db.selectFrom('sinks').selectAll().where('key', '=', key).executeTakeFirst()
				);
			},
			async update(key, changes) {
				const set = {
					...(changes.name !== undefined && { name: changes.name }),
					...(changes.answer !== undefined && { answer: changes.answer })
				};
				if (!Object.keys(set).length) return (await store.sinks.get(key)) !== undefined;
				const result = await db
					.updateTable('sinks')
					.set(set)
					.where('key', '=', key)
					.executeTakeFirst();
				return Number(result.numUpdatedRows) === 1;
			},
			async delete(key) {
				const result = await db.deleteFrom('sinks').where('key', '=', key).executeTakeFirst();
				return Number(result.numDeletedRows) === 1;
			},
			async addRequest(sinkKey, at, record, keep) {
				return backend.relaxed(async (trx) => {
					const row = await trx
						.insertInto('sink_requests')
						.values({ sink_key: sinkKey, at, record })
						.returningAll()
						.executeTakeFirstOrThrow();
					await trx
						.deleteFrom('sink_requests')
						.where('sink_key', '=', sinkKey)
						.where('id', 'not in', (eb) =>
							eb
								.selectFrom('sink_requests')
								.select('id')
								.where('sink_key', '=', sinkKey)
								.orderBy('id', 'desc')
								.limit(keep)
						)
						.execute();
					return sinkRequest(row);
				});
			},
			async requests(sinkKey, afterId, limit) {
				const rows = await db
					.selectFrom('sink_requests')
					.selectAll()
					.where('sink_key', '=', sinkKey)
					.where('id', '>', afterId)
					.orderBy('id', 'desc')
					.limit(limit)
					.execute();
				return rows.map(sinkRequest);
			},
			async clearRequests(sinkKey) {
				await db.deleteFrom('sink_requests').where('sink_key', '=', sinkKey).execute();
			}
		},
		sandboxes: {
			async create(row) {
				const created = await db
					.insertInto('sandboxes')
					.values({
						id: row.id,
						key: row.key,
						key_hash: row.keyHash,
						name: row.name,
						owner_id: row.ownerId,
						created_at: row.createdAt,
						updated_at: row.updatedAt,
						settings: row.settings
					})
					.returningAll()
					.executeTakeFirstOrThrow();
				return sandbox(created)!;
			},
			async list() {
				const rows = await db
					.selectFrom('sandboxes')
					.selectAll()
					.orderBy('created_at', 'desc')
					.orderBy('id')
					.execute();
				return rows.map((r) => sandbox(r)!);
			},
			async get(id) {
				return sandbox(
					await db.selectFrom('sandboxes').selectAll().where('id', '=', id).executeTakeFirst()
				);
			},
			async byKeyHash(keyHash) {
				return sandbox(
					await db
						.selectFrom('sandboxes')
						.selectAll()
						.where('key_hash', '=', keyHash)
						.executeTakeFirst()
				);
			},
			async update(id, changes, at) {
				const result = await db
					.updateTable('sandboxes')
					.set({
						updated_at: at,
						...(changes.name !== undefined && { name: changes.name }),
						...(changes.settings !== undefined && { settings: changes.settings }),
						...(changes.key !== undefined && { key: changes.key }),
						...(changes.keyHash !== undefined && { key_hash: changes.keyHash })
					})
					.where('id', '=', id)
					.executeTakeFirst();
				return Number(result.numUpdatedRows) === 1;
			},
			async delete(id) {
				const result = await db.deleteFrom('sandboxes').where('id', '=', id).executeTakeFirst();
				return Number(result.numDeletedRows) === 1;
			},
			// Pruning seeks the `keep`-th newest push in the index, so a batch costs the same however
			// many were dropped before.
			async addPushes(pushes, keep) {
				return backend.relaxed(async (trx) => {
					const ids: (number | null)[] = [];
					const touched = new Set<string>();
					for (const push of pushes) {
						const inserted = await trx
							.insertInto('sandbox_pushes')
							.columns(['sandbox_id', 'at', 'record'])
							.expression((eb) =>
								eb
									.selectFrom('sandboxes')
									.select(['id', eb.val(push.at).as('at'), eb.val(push.record).as('record')])
									.where('id', '=', push.sandboxId)
							)
							.returning('id')
							.executeTakeFirst();
						ids.push(inserted ? num(inserted.id) : null);
						if (inserted) touched.add(push.sandboxId);
					}
					for (const sandboxId of touched) {
						await trx
							.deleteFrom('sandbox_pushes')
							.where('sandbox_id', '=', sandboxId)
							.where('id', '<=', (eb) =>
								eb
									.selectFrom('sandbox_pushes')
									.select('id')
									.where('sandbox_id', '=', sandboxId)
									.orderBy('id', 'desc')
									.limit(1)
									.offset(keep)
							)
							.execute();
					}
					return ids;
				});
			},
			async pushes(sandboxId, afterId, limit) {
				const rows = await db
					.selectFrom('sandbox_pushes')
					.selectAll()
					.where('sandbox_id', '=', sandboxId)
					.where('id', '>', afterId)
					.orderBy('id', 'desc')
					.limit(limit)
					.execute();
				return rows.map(sandboxPush);
			}
		},
		audit: {
			async append(entry) {
				const write = async (q: Kysely<Tables>) => {
					await q.insertInto('audit_log').values(auditRow(entry)).execute();
					if (outbox) await q.insertInto('audit_outbox').values(outboxRow(entry.at)).execute();
				};
				if (RELAXED_ACTIONS.has(entry.action)) await backend.relaxed(write);
				else if (outbox) await db.transaction().execute(write);
				else await write(db);
				if (outbox) options.onAudit?.();
			},
			async list(filter) {
				const limit = Math.min(Math.max(filter.limit ?? 100, 1), 1000);
				// SQLite's LIKE ignores the case of ASCII letters; PostgreSQL's ILIKE does the same.
				const like = pg ? 'ilike' : 'like';
				let query = db.selectFrom('audit_log').selectAll();
				if (filter.action) query = query.where('action', like, `${filter.action}%`);
				if (filter.actor) query = query.where('actor', like, `%${filter.actor}%`);
				if (filter.since !== undefined) query = query.where('at', '>=', filter.since);
				if (filter.until !== undefined) query = query.where('at', '<', filter.until);
				if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
				if (filter.afterId !== undefined) query = query.where('id', '>', filter.afterId);
				const order = filter.oldestFirst ? 'asc' : 'desc';
				const rows = await query.orderBy('id', order).limit(limit).execute();
				return rows.map(audit);
			}
		},
		auditOutbox: {
			async claim(owner, now, leaseMs, limit) {
				return db.transaction().execute(async (trx) => {
					// An entry waiting for its next attempt holds back every newer one: the receiver
					// gets them in order once it answers again.
					let due = trx
						.selectFrom('audit_outbox')
						.select('audit_id')
						.where('available_at', '<=', now)
						.where(
							sql<boolean>`audit_id < COALESCE((SELECT MIN(w.audit_id) FROM audit_outbox w
								WHERE w.claimed_by IS NULL AND w.available_at > ${now}), ${Number.MAX_SAFE_INTEGER})`
						)
						.orderBy('audit_id')
						.limit(limit);
					// Another instance's claim under way is skipped, not waited for.
					if (pg) due = due.forUpdate().skipLocked();
					const ids = (await due.execute()).map((r) => num(r.audit_id));
					if (!ids.length) return [];
					await trx
						.updateTable('audit_outbox')
						.set({ claimed_by: owner, available_at: now + leaseMs })
						.where('audit_id', 'in', ids)
						.execute();
					const rows = await trx
						.selectFrom('audit_outbox as o')
						.innerJoin('audit_log as a', 'a.id', 'o.audit_id')
						.selectAll('a')
						.select('o.attempts')
						.where('o.audit_id', 'in', ids)
						.orderBy('o.audit_id')
						.execute();
					return rows.map((r) => ({ entry: audit(r), attempts: num(r.attempts) }));
				});
			},
			async delivered(auditId, at) {
				await db.transaction().execute(async (trx) => {
					await trx.deleteFrom('audit_outbox').where('audit_id', '=', auditId).execute();
					await trx
						.updateTable('audit_stream')
						.set({ delivered_at: at, delivered_id: auditId })
						.where('id', '=', 1)
						.execute();
				});
			},
			async failed(auditIds, error, at, retryAt) {
				if (!auditIds.length) return;
				await db.transaction().execute(async (trx) => {
					await trx
						.updateTable('audit_outbox')
						.set({ claimed_by: null, available_at: retryAt })
						.where('audit_id', 'in', auditIds)
						.execute();
					await trx
						.updateTable('audit_outbox')
						.set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: error }))
						.where('audit_id', '=', auditIds[0])
						.execute();
					await trx
						.updateTable('audit_stream')
						.set({ error, error_at: at })
						.where('id', '=', 1)
						.execute();
				});
			},
			async release(owner, now) {
				const result = await db
					.updateTable('audit_outbox')
					.set({ claimed_by: null, available_at: now })
					.where('claimed_by', owner === null ? 'is not' : '=', owner)
					.executeTakeFirst();
				return Number(result.numUpdatedRows);
			},
			async state(): Promise<AuditStreamState> {
				const count = await db
					.selectFrom('audit_outbox')
					.select((eb) => eb.fn.countAll().as('n'))
					.executeTakeFirstOrThrow();
				const row = await db
					.selectFrom('audit_stream')
					.selectAll()
					.where('id', '=', 1)
					.executeTakeFirst();
				return {
					backlog: Number(count.n),
					lastDeliveredAt: numOrNull(row?.delivered_at),
					lastDeliveredId: numOrNull(row?.delivered_id),
					lastError: row?.error ?? null,
					lastErrorAt: numOrNull(row?.error_at)
				};
			}
		},
		async close() {
			await backend.close();
		}
	};
	return gated(store, whenReady);
}

/** The store with every data method waiting for the migrations first. */
function gated(store: Store, whenReady: () => Promise<void>): Store {
	const wrapped: Record<string, unknown> = { ...store };
	for (const [name, part] of Object.entries(store)) {
		if (typeof part !== 'object' || part === null) continue;
		const methods: Record<string, unknown> = {};
		for (const [key, fn] of Object.entries(part as Record<string, unknown>)) {
			methods[key] =
				typeof fn === 'function'
					? async (...args: unknown[]) => {
							await whenReady();
							return (fn as (...a: unknown[]) => unknown)(...args);
						}
					: fn;
		}
		wrapped[name] = methods;
	}
	return wrapped as unknown as Store;
}
