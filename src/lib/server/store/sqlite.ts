import Database from 'better-sqlite3';
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './migrations';
import type {
	ApiToken,
	AuditEntry,
	ProfileRow,
	RevisionRow,
	Role,
	Session,
	SandboxPushRow,
	SandboxRow,
	SinkRequestRow,
	SinkRow,
	Store,
	TestCallRow,
	FlowRunRow,
	User
} from './types';

/**
 * The SQLite store: one file in the data directory, WAL mode, migrated at open. Every write is
 * one transaction with `synchronous = FULL`, so a save that was answered survives a crash.
 */

type Row = Record<string, unknown>;

/** Audit actions recorded as often as test calls are made (see `relaxed`). */
const RELAXED_ACTIONS = new Set(['test_call', 'push.sent']);

function user(row: Row | undefined): User | undefined {
	if (!row) return undefined;
	return {
		id: row.id as number,
		email: row.email as string,
		name: row.name as string,
		role: row.role as Role,
		active: row.active === 1,
		passwordHash: row.password_hash as string,
		createdAt: row.created_at as number,
		updatedAt: row.updated_at as number
	};
}

function session(row: Row | undefined): Session | undefined {
	if (!row) return undefined;
	return {
		tokenHash: row.token_hash as string,
		userId: row.user_id as number,
		createdAt: row.created_at as number,
		lastSeenAt: row.last_seen_at as number,
		expiresAt: row.expires_at as number
	};
}

function token(row: Row | undefined): ApiToken | undefined {
	if (!row) return undefined;
	return {
		id: row.id as number,
		userId: row.user_id as number,
		name: row.name as string,
		prefix: row.prefix as string,
		tokenHash: row.token_hash as string,
		createdAt: row.created_at as number,
		lastUsedAt: (row.last_used_at as number | null) ?? null,
		revokedAt: (row.revoked_at as number | null) ?? null
	};
}

function profile(row: Row | undefined): ProfileRow | undefined {
	if (!row) return undefined;
	return {
		id: row.id as string,
		name: row.name as string,
		createdAt: row.created_at as number,
		createdBy: (row.created_by as number | null) ?? null,
		deletedAt: (row.deleted_at as number | null) ?? null,
		headRevision: row.head_revision as number,
		updatedAt: row.updated_at as number
	};
}

function revision(row: Row | undefined): RevisionRow | undefined {
	if (!row) return undefined;
	return {
		profileId: row.profile_id as string,
		revision: row.revision as number,
		document: (row.document as string) ?? '',
		secrets: (row.secrets as string | null) ?? null,
		authorId: (row.author_id as number | null) ?? null,
		authorName: (row.author_name as string | null) ?? null,
		createdAt: row.created_at as number,
		message: (row.message as string | null) ?? null
	};
}

function testCall(row: Row): TestCallRow {
	return {
		id: row.id as number,
		userId: row.user_id as number,
		service: row.service as string,
		profileId: (row.profile_id as string | null) ?? null,
		scenario: (row.scenario as string | null) ?? null,
		at: row.at as number,
		summary: row.summary as string,
		record: (row.record as string | undefined) ?? ''
	};
}

function flowRun(row: Row): FlowRunRow {
	return {
		id: row.id as number,
		profileId: (row.profile_id as string | null) ?? null,
		flow: row.flow as string,
		userId: (row.user_id as number | null) ?? null,
		userEmail: (row.user_email as string | null | undefined) ?? null,
		at: row.at as number,
		ok: row.ok === 1,
		summary: row.summary as string,
		record: (row.record as string | undefined) ?? ''
	};
}

function sink(row: Row | undefined): SinkRow | undefined {
	if (!row) return undefined;
	return {
		key: row.key as string,
		name: row.name as string,
		createdBy: (row.created_by as number | null) ?? null,
		createdAt: row.created_at as number,
		answer: row.answer as string
	};
}

function sinkRequest(row: Row): SinkRequestRow {
	return {
		id: row.id as number,
		sinkKey: row.sink_key as string,
		at: row.at as number,
		record: row.record as string
	};
}

function sandbox(row: Row | undefined): SandboxRow | undefined {
	if (!row) return undefined;
	return {
		id: row.id as string,
		key: row.key as string,
		keyHash: row.key_hash as string,
		name: row.name as string,
		ownerId: (row.owner_id as number | null) ?? null,
		createdAt: row.created_at as number,
		updatedAt: row.updated_at as number,
		settings: row.settings as string
	};
}

function sandboxPush(row: Row): SandboxPushRow {
	return {
		id: row.id as number,
		sandboxId: row.sandbox_id as string,
		at: row.at as number,
		record: row.record as string
	};
}

function audit(row: Row): AuditEntry {
	return {
		id: row.id as number,
		at: row.at as number,
		actorId: (row.actor_id as number | null) ?? null,
		actor: (row.actor as string | null) ?? null,
		action: row.action as string,
		target: (row.target as string | null) ?? null,
		ip: (row.ip as string | null) ?? null,
		details: row.details ? (JSON.parse(row.details as string) as Record<string, unknown>) : null
	};
}

/** Applies the migrations the database has not seen yet, each in its own transaction. */
export function migrate(db: Database.Database): number {
	const current = db.pragma('user_version', { simple: true }) as number;
	let applied = 0;
	for (const migration of MIGRATIONS) {
		if (migration.version <= current) continue;
		db.transaction(() => {
			db.exec(migration.sql);
			db.pragma(`user_version = ${migration.version}`);
		})();
		applied++;
	}
	return applied;
}

const REVISION_SELECT = `SELECT r.*, u.name AS author_name FROM revisions r
	LEFT JOIN users u ON u.id = r.author_id`;

/** Opens (creating and migrating when needed) the store in `dataDir/provisioning.db`. */
export function openSqliteStore(dataDir: string): Store {
	mkdirSync(dataDir, { recursive: true, mode: 0o700 });
	const file = path.join(dataDir, 'provisioning.db');
	const db = new Database(file);
	// Password and session hashes live here: readable by the server's user only. SQLite gives
	// the WAL and shared-memory files the database file's mode.
	chmodSync(file, 0o600);
	db.pragma('journal_mode = WAL');
	db.pragma('synchronous = FULL');
	db.pragma('foreign_keys = ON');
	db.pragma('busy_timeout = 5000');
	migrate(db);

	// Statements are prepared once per text: preparing costs more than running most of them.
	const statements = new Map<string, Database.Statement>();
	const q = (sql: string) => {
		let statement = statements.get(sql);
		if (!statement) {
			statement = db.prepare(sql);
			statements.set(sql, statement);
		}
		return statement;
	};

	/**
	 * Runs high-volume records (test calls, sink requests and their audit entries) with
	 * `synchronous = NORMAL`: in WAL mode they survive a crash of the app, and only a power loss
	 * can take the last of them. Everything else stays `FULL`.
	 */
	const relaxed = <T>(write: () => T): T => {
		db.pragma('synchronous = NORMAL');
		try {
			return write();
		} finally {
			db.pragma('synchronous = FULL');
		}
	};
	const getRevision = q(`${REVISION_SELECT} WHERE r.profile_id = ? AND r.revision = ?`);
	const insertRevision = q(
		`INSERT INTO revisions (profile_id, revision, document, secrets, author_id, created_at, message)
		 VALUES (@profileId, @revision, @document, @secrets, @authorId, @at, @message)`
	);

	const save = db.transaction((input: Parameters<Store['profiles']['save']>[0]) => {
		const row = profile(q('SELECT * FROM profiles WHERE id = ?').get(input.profileId) as Row);
		if (!row || row.deletedAt !== null) return { ok: false as const, reason: 'not_found' as const };
		if (row.headRevision !== input.baseRevision) {
			const head = revision(getRevision.get(row.id, row.headRevision) as Row) as RevisionRow;
			return { ok: false as const, reason: 'conflict' as const, head };
		}
		const next = row.headRevision + 1;
		insertRevision.run({ ...input, revision: next });
		q('UPDATE profiles SET head_revision = ?, updated_at = ? WHERE id = ?').run(
			next,
			input.at,
			row.id
		);
		return { ok: true as const, revision: revision(getRevision.get(row.id, next) as Row)! };
	});

	const create = db.transaction((input: Parameters<Store['profiles']['create']>[0]) => {
		q(
			`INSERT INTO profiles (id, name, created_at, created_by, head_revision, updated_at)
			 VALUES (?, ?, ?, ?, 1, ?)`
		).run(input.id, input.name, input.at, input.authorId, input.at);
		insertRevision.run({ ...input, profileId: input.id, revision: 1 });
		return {
			profile: profile(q('SELECT * FROM profiles WHERE id = ?').get(input.id) as Row)!,
			revision: revision(getRevision.get(input.id, 1) as Row)!
		};
	});

	const addTestCall = db.transaction((input: Omit<TestCallRow, 'id'>, keep: number) => {
		const info = q(
			`INSERT INTO test_calls (user_id, service, profile_id, scenario, at, summary, record)
			 VALUES (@userId, @service, @profileId, @scenario, @at, @summary, @record)`
		).run(input);
		q(
			`DELETE FROM test_calls WHERE user_id = ? AND service = ? AND id NOT IN
			 (SELECT id FROM test_calls WHERE user_id = ? AND service = ? ORDER BY id DESC LIMIT ?)`
		).run(input.userId, input.service, input.userId, input.service, keep);
		return testCall(q('SELECT * FROM test_calls WHERE id = ?').get(info.lastInsertRowid) as Row);
	});

	const addFlowRun = db.transaction((input: Omit<FlowRunRow, 'id' | 'userEmail'>, keep: number) => {
		const info = q(
			`INSERT INTO flow_runs (profile_id, flow, user_id, at, ok, summary, record)
			 VALUES (@profileId, @flow, @userId, @at, @ok, @summary, @record)`
		).run({ ...input, ok: input.ok ? 1 : 0 });
		q(
			`DELETE FROM flow_runs WHERE profile_id IS ? AND id NOT IN
			 (SELECT id FROM flow_runs WHERE profile_id IS ? ORDER BY id DESC LIMIT ?)`
		).run(input.profileId, input.profileId, keep);
		return flowRun(q('SELECT * FROM flow_runs WHERE id = ?').get(info.lastInsertRowid) as Row);
	});

	// Pruning seeks the `keep`-th newest push in the index, so a batch costs the same however
	// many were dropped before.
	const addSandboxPushes = db.transaction(
		(pushes: { sandboxId: string; at: number; record: string }[], keep: number) => {
			const ids: (number | null)[] = [];
			const touched = new Set<string>();
			for (const push of pushes) {
				if (!q('SELECT 1 FROM sandboxes WHERE id = ?').get(push.sandboxId)) {
					ids.push(null);
					continue;
				}
				const info = q('INSERT INTO sandbox_pushes (sandbox_id, at, record) VALUES (?, ?, ?)').run(
					push.sandboxId,
					push.at,
					push.record
				);
				ids.push(Number(info.lastInsertRowid));
				touched.add(push.sandboxId);
			}
			for (const sandboxId of touched) {
				q(
					`DELETE FROM sandbox_pushes WHERE sandbox_id = ? AND id <= (SELECT id FROM sandbox_pushes
					 WHERE sandbox_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`
				).run(sandboxId, sandboxId, keep);
			}
			return ids;
		}
	);

	const addSinkRequest = db.transaction(
		(sinkKey: string, at: number, record: string, keep: number) => {
			const info = q('INSERT INTO sink_requests (sink_key, at, record) VALUES (?, ?, ?)').run(
				sinkKey,
				at,
				record
			);
			q(
				`DELETE FROM sink_requests WHERE sink_key = ? AND id NOT IN
				 (SELECT id FROM sink_requests WHERE sink_key = ? ORDER BY id DESC LIMIT ?)`
			).run(sinkKey, sinkKey, keep);
			return sinkRequest(
				q('SELECT * FROM sink_requests WHERE id = ?').get(info.lastInsertRowid) as Row
			);
		}
	);

	const store: Store = {
		users: {
			async count() {
				return (q('SELECT COUNT(*) AS n FROM users').get() as { n: number }).n;
			},
			async create(input) {
				const info = q(
					`INSERT INTO users (email, name, role, password_hash, created_at, updated_at)
					 VALUES (?, ?, ?, ?, ?, ?)`
				).run(input.email, input.name, input.role, input.passwordHash, input.at, input.at);
				return user(q('SELECT * FROM users WHERE id = ?').get(info.lastInsertRowid) as Row)!;
			},
			async findById(id) {
				return user(q('SELECT * FROM users WHERE id = ?').get(id) as Row);
			},
			async findByEmail(email) {
				return user(q('SELECT * FROM users WHERE email = ?').get(email) as Row);
			},
			async list() {
				return (q('SELECT * FROM users ORDER BY email').all() as Row[]).map((r) => user(r)!);
			},
			async update(id, changes) {
				const sets: string[] = ['updated_at = @at'];
				if (changes.name !== undefined) sets.push('name = @name');
				if (changes.role !== undefined) sets.push('role = @role');
				if (changes.active !== undefined) sets.push('active = @active');
				if (changes.passwordHash !== undefined) sets.push('password_hash = @passwordHash');
				q(`UPDATE users SET ${sets.join(', ')} WHERE id = @id`).run({
					...changes,
					active: changes.active === undefined ? undefined : changes.active ? 1 : 0,
					id
				});
				return user(q('SELECT * FROM users WHERE id = ?').get(id) as Row);
			}
		},
		sessions: {
			async create(s) {
				q(
					`INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at, ip, user_agent)
					 VALUES (?, ?, ?, ?, ?, ?, ?)`
				).run(s.tokenHash, s.userId, s.createdAt, s.lastSeenAt, s.expiresAt, s.ip, s.userAgent);
			},
			async find(tokenHash) {
				return session(q('SELECT * FROM sessions WHERE token_hash = ?').get(tokenHash) as Row);
			},
			async touch(tokenHash, at) {
				q('UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?').run(at, tokenHash);
			},
			async delete(tokenHash) {
				q('DELETE FROM sessions WHERE token_hash = ?').run(tokenHash);
			},
			async deleteForUser(userId) {
				q('DELETE FROM sessions WHERE user_id = ?').run(userId);
			},
			async purgeExpired(now, idleMs) {
				return q('DELETE FROM sessions WHERE expires_at <= ? OR last_seen_at <= ?').run(
					now,
					now - idleMs
				).changes;
			}
		},
		tokens: {
			async create(input) {
				const info = q(
					`INSERT INTO api_tokens (user_id, name, prefix, token_hash, created_at) VALUES (?, ?, ?, ?, ?)`
				).run(input.userId, input.name, input.prefix, input.tokenHash, input.createdAt);
				return token(q('SELECT * FROM api_tokens WHERE id = ?').get(info.lastInsertRowid) as Row)!;
			},
			async findByHash(tokenHash) {
				return token(q('SELECT * FROM api_tokens WHERE token_hash = ?').get(tokenHash) as Row);
			},
			async listForUser(userId) {
				const rows = q('SELECT * FROM api_tokens WHERE user_id = ? ORDER BY id DESC').all(userId);
				return (rows as Row[]).map((r) => token(r)!);
			},
			async revoke(id, userId, at) {
				const info = q(
					'UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL'
				).run(at, id, userId);
				return info.changes === 1;
			},
			async revokeForUser(userId, at) {
				return q(
					'UPDATE api_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL'
				).run(at, userId).changes;
			},
			async touch(id, at) {
				q('UPDATE api_tokens SET last_used_at = ? WHERE id = ?').run(at, id);
			}
		},
		profiles: {
			async list({ deleted }) {
				const where = deleted ? 'deleted_at IS NOT NULL' : 'deleted_at IS NULL';
				const rows = q(`SELECT * FROM profiles WHERE ${where} ORDER BY name COLLATE NOCASE`).all();
				return (rows as Row[]).map((r) => profile(r)!);
			},
			async get(id) {
				return profile(q('SELECT * FROM profiles WHERE id = ?').get(id) as Row);
			},
			async create(input) {
				return create(input);
			},
			async save(input) {
				return save(input);
			},
			async rename(id, name, at) {
				const info = q('UPDATE profiles SET name = ?, updated_at = ? WHERE id = ?').run(
					name,
					at,
					id
				);
				return info.changes === 1;
			},
			async setDeleted(id, deletedAt) {
				const info = q('UPDATE profiles SET deleted_at = ? WHERE id = ?').run(deletedAt, id);
				return info.changes === 1;
			},
			async revisions(id) {
				const rows = q(
					`SELECT r.profile_id, r.revision, r.author_id, r.created_at, r.message, u.name AS author_name
					 FROM revisions r LEFT JOIN users u ON u.id = r.author_id
					 WHERE r.profile_id = ? ORDER BY r.revision DESC`
				).all(id) as Row[];
				return rows.map((r) => {
					const { document: _d, secrets: _s, ...rest } = revision(r)!;
					void _d;
					void _s;
					return rest;
				});
			},
			async revision(id, rev) {
				return revision(getRevision.get(id, rev) as Row);
			}
		},
		testCalls: {
			async add(row, keep) {
				return relaxed(() => addTestCall(row, keep));
			},
			async list(userId, service, profileId, limit) {
				const rows = q(
					`SELECT id, user_id, service, profile_id, scenario, at, summary FROM test_calls
					 WHERE user_id = ? AND service = ? AND profile_id IS ? ORDER BY id DESC LIMIT ?`
				).all(userId, service, profileId, limit) as Row[];
				return rows.map((r) => {
					const { record: _r, ...rest } = testCall(r);
					void _r;
					return rest;
				});
			},
			async get(id, userId) {
				const row = q('SELECT * FROM test_calls WHERE id = ? AND user_id = ?').get(id, userId);
				return row ? testCall(row as Row) : undefined;
			}
		},
		flowRuns: {
			async add(row, keep) {
				return relaxed(() => addFlowRun(row, keep));
			},
			async list(profileId, limit) {
				const rows = q(
					`SELECT f.id, f.profile_id, f.flow, f.user_id, u.email AS user_email, f.at, f.ok, f.summary
					 FROM flow_runs f LEFT JOIN users u ON u.id = f.user_id
					 WHERE f.profile_id = ? ORDER BY f.id DESC LIMIT ?`
				).all(profileId, limit) as Row[];
				return rows.map((r) => {
					const { record: _r, ...rest } = flowRun(r);
					void _r;
					return rest;
				});
			},
			async get(id) {
				const row = q(
					`SELECT f.*, u.email AS user_email FROM flow_runs f
					 LEFT JOIN users u ON u.id = f.user_id WHERE f.id = ?`
				).get(id);
				return row ? flowRun(row as Row) : undefined;
			}
		},
		sinks: {
			async create(row) {
				q(
					'INSERT INTO sinks (key, name, created_by, created_at, answer) VALUES (?, ?, ?, ?, ?)'
				).run(row.key, row.name, row.createdBy, row.createdAt, row.answer);
				return sink(q('SELECT * FROM sinks WHERE key = ?').get(row.key) as Row)!;
			},
			async list() {
				const rows = q('SELECT * FROM sinks ORDER BY created_at DESC').all() as Row[];
				return rows.map((r) => sink(r)!);
			},
			async get(key) {
				return sink(q('SELECT * FROM sinks WHERE key = ?').get(key) as Row);
			},
			async update(key, changes) {
				const sets: string[] = [];
				if (changes.name !== undefined) sets.push('name = @name');
				if (changes.answer !== undefined) sets.push('answer = @answer');
				if (!sets.length) return (await store.sinks.get(key)) !== undefined;
				const info = q(`UPDATE sinks SET ${sets.join(', ')} WHERE key = @key`).run({
					...changes,
					key
				});
				return info.changes === 1;
			},
			async delete(key) {
				return q('DELETE FROM sinks WHERE key = ?').run(key).changes === 1;
			},
			async addRequest(sinkKey, at, record, keep) {
				return relaxed(() => addSinkRequest(sinkKey, at, record, keep));
			},
			async requests(sinkKey, afterId, limit) {
				const rows = q(
					'SELECT * FROM sink_requests WHERE sink_key = ? AND id > ? ORDER BY id DESC LIMIT ?'
				).all(sinkKey, afterId, limit) as Row[];
				return rows.map(sinkRequest);
			},
			async clearRequests(sinkKey) {
				q('DELETE FROM sink_requests WHERE sink_key = ?').run(sinkKey);
			}
		},
		sandboxes: {
			async create(row) {
				q(
					`INSERT INTO sandboxes (id, key, key_hash, name, owner_id, created_at, updated_at, settings)
					 VALUES (@id, @key, @keyHash, @name, @ownerId, @createdAt, @updatedAt, @settings)`
				).run(row);
				return sandbox(q('SELECT * FROM sandboxes WHERE id = ?').get(row.id) as Row)!;
			},
			async list() {
				const rows = q('SELECT * FROM sandboxes ORDER BY created_at DESC, id').all() as Row[];
				return rows.map((r) => sandbox(r)!);
			},
			async get(id) {
				return sandbox(q('SELECT * FROM sandboxes WHERE id = ?').get(id) as Row);
			},
			async byKeyHash(keyHash) {
				return sandbox(q('SELECT * FROM sandboxes WHERE key_hash = ?').get(keyHash) as Row);
			},
			async update(id, changes, at) {
				const sets = ['updated_at = @at'];
				if (changes.name !== undefined) sets.push('name = @name');
				if (changes.settings !== undefined) sets.push('settings = @settings');
				if (changes.key !== undefined) sets.push('key = @key');
				if (changes.keyHash !== undefined) sets.push('key_hash = @keyHash');
				const info = q(`UPDATE sandboxes SET ${sets.join(', ')} WHERE id = @id`).run({
					name: null,
					settings: null,
					key: null,
					keyHash: null,
					...changes,
					at,
					id
				});
				return info.changes === 1;
			},
			async delete(id) {
				return q('DELETE FROM sandboxes WHERE id = ?').run(id).changes === 1;
			},
			async addPushes(pushes, keep) {
				return relaxed(() => addSandboxPushes(pushes, keep));
			},
			async pushes(sandboxId, afterId, limit) {
				const rows = q(
					'SELECT * FROM sandbox_pushes WHERE sandbox_id = ? AND id > ? ORDER BY id DESC LIMIT ?'
				).all(sandboxId, afterId, limit) as Row[];
				return rows.map(sandboxPush);
			}
		},
		audit: {
			async append(entry) {
				const write = () =>
					q(
						`INSERT INTO audit_log (at, actor_id, actor, action, target, ip, details)
						 VALUES (?, ?, ?, ?, ?, ?, ?)`
					).run(
						entry.at,
						entry.actorId,
						entry.actor,
						entry.action,
						entry.target,
						entry.ip,
						entry.details ? JSON.stringify(entry.details) : null
					);
				if (RELAXED_ACTIONS.has(entry.action)) relaxed(write);
				else write();
			},
			async list(filter) {
				const where: string[] = [];
				const params: Record<string, unknown> = {
					limit: Math.min(Math.max(filter.limit ?? 100, 1), 1000)
				};
				if (filter.action) {
					where.push('action LIKE @action');
					params.action = `${filter.action}%`;
				}
				if (filter.actor) {
					where.push('actor LIKE @actor');
					params.actor = `%${filter.actor}%`;
				}
				if (filter.since !== undefined) {
					where.push('at >= @since');
					params.since = filter.since;
				}
				if (filter.until !== undefined) {
					where.push('at < @until');
					params.until = filter.until;
				}
				if (filter.beforeId !== undefined) {
					where.push('id < @beforeId');
					params.beforeId = filter.beforeId;
				}
				const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
				const rows = q(`SELECT * FROM audit_log ${clause} ORDER BY id DESC LIMIT @limit`).all(
					params
				);
				return (rows as Row[]).map(audit);
			}
		},
		async close() {
			db.close();
		}
	};
	return store;
}
