import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../../../scripts/postgres-cluster.js';
import { kyselyStore, type Backend } from './kysely';
import { appliedVersions, migrate, MIGRATIONS, type Migration } from './migrations';
import {
	openPostgresStore,
	openSqliteStore,
	postgresBackend,
	SQLITE_FILE,
	sqliteBackend
} from './open';
import type { Tables } from './schema';
import type { Store } from './types';

/**
 * The store's tests, run against both backends: SQLite in a temporary data directory, and a
 * throw-away PostgreSQL cluster this file starts (one fresh database per test).
 */

const LATEST = MIGRATIONS.at(-1)!.version;
/** The migration that brought the rate-limit table an earlier version made itself. */
const RATE_LIMITS = MIGRATIONS.find(
	(m) => m.name === 'rate-limit counters shared by the instances'
)!;
const FIXTURE = path.resolve(import.meta.dirname, '../../../../tests/fixtures/sqlite-data-v3');

/** One backend under test: a fresh database per test, and a second connection to it. */
interface Harness {
	/** Prepares an empty database and answers a store on it. */
	fresh(): Promise<void>;
	/** A store on the current database (another connection, as another process would open). */
	open(): Store;
	/** The query builder's backend on the current database (another connection); close it. */
	backend(): Backend;
	/** Runs SQL on a separate raw connection; answers the rows. */
	query(text: string): Promise<Record<string, unknown>[]>;
	/** Closes the raw connections and removes the database. */
	cleanup(): Promise<void>;
}

function sqliteHarness(): Harness {
	let dir: string | undefined;
	let raw: Database.Database | undefined;
	return {
		async fresh() {
			dir = mkdtempSync(path.join(tmpdir(), 'ps-store-'));
		},
		open: () => openSqliteStore(dir!),
		backend: () => sqliteBackend(dir!),
		async query(text) {
			raw ??= new Database(path.join(dir!, SQLITE_FILE));
			const statement = raw.prepare(text);
			if (statement.reader) return statement.all() as Record<string, unknown>[];
			statement.run();
			return [];
		},
		async cleanup() {
			raw?.close();
			raw = undefined;
			if (dir) rmSync(dir, { recursive: true, force: true });
		}
	};
}

let cluster: Cluster | undefined;
let admin: pg.Client | undefined;
let schemas = 0;

/**
 * A fresh, empty schema of the cluster's database per test (much cheaper than a database), and
 * the URL of a connection that works in it.
 */
async function freshSchema(): Promise<string> {
	if (!admin) {
		admin = new pg.Client({ connectionString: cluster!.url });
		await admin.connect();
	}
	const schema = `store_${++schemas}`;
	await admin.query(`CREATE SCHEMA ${schema}`);
	return `${cluster!.url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

function postgresHarness(): Harness {
	let url: string | undefined;
	let raw: pg.Client | undefined;
	return {
		async fresh() {
			url = await freshSchema();
		},
		open: () => openPostgresStore(url!),
		backend: () => postgresBackend(url!),
		async query(text) {
			if (!raw) {
				raw = new pg.Client({ connectionString: url });
				await raw.connect();
			}
			return (await raw.query(text)).rows;
		},
		async cleanup() {
			await raw?.end();
			raw = undefined;
		}
	};
}

const BACKENDS: { name: 'sqlite' | 'postgres'; harness: () => Harness }[] = [
	{ name: 'sqlite', harness: sqliteHarness },
	{ name: 'postgres', harness: postgresHarness }
];

beforeAll(async () => {
	cluster = await startCluster();
}, 120_000);

afterAll(async () => {
	await admin?.end();
	await cluster?.stop();
});

describe.each(BACKENDS)('store on $name', ({ name, harness }) => {
	const db = harness();
	let store: Store;
	const others: Store[] = [];

	/** Another store on the same database, closed after the test. */
	const another = () => {
		const other = db.open();
		others.push(other);
		return other;
	};

	beforeEach(async () => {
		await db.fresh();
		store = db.open();
		await store.ready();
	});

	afterEach(async () => {
		for (const other of others.splice(0)) await other.close();
		await store.close();
		await db.cleanup();
	});

	async function user(email = 'a@example.test') {
		return store.users.create({
			email,
			name: 'A',
			role: 'editor',
			passwordHash: '$scrypt$x',
			at: 1000
		});
	}

	async function profile(id = 'p1') {
		return store.profiles.create({
			id,
			name: 'P',
			document: '{"v":1}',
			secrets: null,
			authorId: null,
			message: 'Created',
			at: 1000
		});
	}

	it('says which backend it is', () => {
		expect(store.backend).toBe(name);
	});

	it('makes an account with its identity in one write, or neither', async () => {
		const input = { email: 'sso@example.test', name: 'SSO', role: 'viewer' as const, at: 1_000 };
		const made = await store.identities.createAccount(
			{ ...input, passwordHash: '!none' },
			{ issuer: 'https://idp.example', subject: 'one' }
		);
		expect(await store.identities.find('https://idp.example', 'one')).toMatchObject({
			userId: made.id,
			createdAt: 1_000
		});
		await expect(
			store.identities.createAccount(
				{ ...input, email: 'SSO@example.test', passwordHash: '!none' },
				{ issuer: 'https://idp.example', subject: 'two' }
			)
		).rejects.toThrow();
		expect(await store.identities.find('https://idp.example', 'two')).toBeUndefined();
	});

	it('links one identity to an account, even two sign-ins at once, and says which it has', async () => {
		const owner = await user('owner@example.test');
		expect(await store.identities.linked(owner.id)).toBe(false);
		const identity = (subject: string) => ({
			issuer: 'https://idp.example',
			subject,
			userId: owner.id,
			createdAt: 1_000,
			lastSignInAt: 1_000
		});
		const both = await Promise.all([
			store.identities.link(identity('first')),
			store.identities.link(identity('second'))
		]);
		expect(both.filter(Boolean)).toHaveLength(1);
		expect(await store.identities.linked(owner.id)).toBe(true);
		const [first, second] = await Promise.all([
			store.identities.find('https://idp.example', 'first'),
			store.identities.find('https://idp.example', 'second')
		]);
		expect([first, second].filter(Boolean)).toHaveLength(1);
		expect(await store.identities.link(identity('third'))).toBe(false);
		expect(await store.identities.link({ ...identity('fourth'), userId: 999_999 })).toBe(false);
	});

	it('finishes a sign-in under way once, even two at once, and never an expired one', async () => {
		await store.signInFlows.begin('flow-a', 2_000, 1_000);
		await store.signInFlows.begin('flow-b', 1_500, 1_000);
		const both = await Promise.all([
			store.signInFlows.finish('flow-a', 1_100),
			store.signInFlows.finish('flow-a', 1_100)
		]);
		expect(both.filter(Boolean)).toHaveLength(1);
		expect(await store.signInFlows.finish('flow-a', 1_200)).toBe(false);
		expect(await store.signInFlows.finish('flow-b', 1_500)).toBe(false);
		expect(await store.signInFlows.finish('never-begun', 1_100)).toBe(false);
	});

	describe('runs followed live', () => {
		const limits = { items: 3, keysPerUser: 2, keys: 3, bytes: 40, ttlMs: 1_000 };
		const seqs = async (userId: number, key: string, since = 0) =>
			(await store.liveItems.after(userId, key, 0, since, 100)).map((r) => r.seq);

		it("number a user's key's items from 1, keep the newest of each, and read only the owner's", async () => {
			const [a, b] = [await user('a@example.test'), await user('b@example.test')];
			for (let i = 1; i <= 4; i++) {
				expect(await store.liveItems.add(a.id, 'key-1', `a${i}`, 1_000 + i, limits)).toBe(i);
			}
			// Another user's items under the same key are theirs, numbered on their own.
			expect(await store.liveItems.add(b.id, 'key-1', 'b1', 1_010, limits)).toBe(1);
			expect(await store.liveItems.after(a.id, 'key-1', 2, 0, 100)).toEqual([
				{ seq: 4, item: 'a4' },
				{ seq: 3, item: 'a3' }
			]);
			expect(await seqs(a.id, 'key-1')).toEqual([4, 3, 2]);
			expect(await store.liveItems.after(b.id, 'key-1', 0, 0, 100)).toEqual([
				{ seq: 1, item: 'b1' }
			]);
			// Two writers at once, as on two instances: one number each.
			const both = await Promise.all([
				another().liveItems.add(a.id, 'key-1', 'x', 1_020, limits),
				store.liveItems.add(a.id, 'key-1', 'y', 1_020, limits)
			]);
			expect(both.sort()).toEqual([5, 6]);
		});

		it('keep the keys of a user and in all, and the bytes in all, the oldest going first', async () => {
			const [a, b] = [await user('a@example.test'), await user('b@example.test')];
			await store.liveItems.add(a.id, 'a-1', 'x'.repeat(10), 1_000, limits);
			await store.liveItems.add(a.id, 'a-2', 'x'.repeat(10), 1_001, limits);
			await store.liveItems.add(a.id, 'a-3', 'x'.repeat(10), 1_002, limits);
			expect(await seqs(a.id, 'a-1')).toEqual([]);
			expect(await seqs(a.id, 'a-2')).toEqual([1]);
			await store.liveItems.add(b.id, 'b-1', 'x'.repeat(10), 1_003, limits);
			await store.liveItems.add(b.id, 'b-2', 'x'.repeat(10), 1_004, limits);
			// Three keys in all: a's oldest left went.
			expect(await seqs(a.id, 'a-2')).toEqual([]);
			expect(await seqs(a.id, 'a-3')).toEqual([1]);
			// 40 bytes in all: the oldest key's items go first, then the next's oldest.
			await store.liveItems.add(b.id, 'b-2', 'x'.repeat(15), 1_005, limits);
			expect(await seqs(a.id, 'a-3')).toEqual([]);
			expect(await seqs(b.id, 'b-1')).toEqual([1]);
			expect(await seqs(b.id, 'b-2')).toEqual([2, 1]);
			await store.liveItems.add(b.id, 'b-2', 'x'.repeat(20), 1_006, limits);
			expect(await seqs(b.id, 'b-1')).toEqual([]);
			expect(await seqs(b.id, 'b-2')).toEqual([3, 2]);
			expect(await db.query('SELECT SUM(size) AS n FROM live_items')).toEqual([
				{ n: name === 'sqlite' ? 35 : '35' }
			]);
		});

		it('expire a key its TTL after its last item: unread, removed at the next write, then afresh', async () => {
			const a = await user();
			await store.liveItems.add(a.id, 'old-key', 'one', 1_000, limits);
			await store.liveItems.add(a.id, 'old-key', 'two', 1_500, limits);
			expect(await seqs(a.id, 'old-key', 1_500 - limits.ttlMs)).toEqual([2, 1]);
			expect(await seqs(a.id, 'old-key', 1_501)).toEqual([]);
			expect(await store.liveItems.add(a.id, 'old-key', 'again', 2_501, limits)).toBe(1);
			// Writing a key removes the expired ones, with their items.
			await store.liveItems.add(a.id, 'other-key', 'one', 3_600, limits);
			expect(await db.query('SELECT item FROM live_items')).toEqual([{ item: 'one' }]);
		});
	});

	describe('migrations', () => {
		it('are recorded once each, in order, and reopening applies nothing and keeps the data', async () => {
			await user();
			expect(
				(await db.query('SELECT version FROM schema_migrations ORDER BY version')).map((r) =>
					Number(r.version)
				)
			).toEqual(MIGRATIONS.map((m) => m.version));
			await store.close();
			store = db.open();
			expect(await store.users.count()).toBe(1);
			expect(await db.query('SELECT version FROM schema_migrations')).toHaveLength(
				MIGRATIONS.length
			);
		});

		it('create every table of the store', async () => {
			const tables = [
				'api_tokens',
				'audit_log',
				'audit_outbox',
				'flow_runs',
				'live_items',
				'live_keys',
				'profiles',
				'revisions',
				'sandbox_pushes',
				'sandboxes',
				'sessions',
				'sink_requests',
				'sinks',
				'test_calls',
				'user_identities',
				'users'
			];
			for (const table of tables) {
				expect(await db.query(`SELECT COUNT(*) AS n FROM ${table}`)).toEqual([
					{ n: name === 'sqlite' ? 0 : '0' }
				]);
			}
			// The shared rate-limit counters: a table on PostgreSQL only (SQLite counts in memory).
			if (name === 'postgres') {
				expect(await db.query('SELECT key, points, expire FROM rate_limits')).toEqual([]);
			} else {
				expect(await db.query("SELECT name FROM sqlite_master WHERE name = 'rate_limits'")).toEqual(
					[]
				);
			}
		});

		it('roll back a migration that fails, leave it unrecorded, and apply it at the next start', async () => {
			await profile();
			const next = LATEST + 1;
			let attempts = 0;
			const labels: Migration = {
				version: next,
				name: 'profile labels',
				async up(trx) {
					attempts++;
					await trx.schema.createTable('labels').addColumn('name', 'text').execute();
					await trx.schema.alterTable('profiles').addColumn('label', 'text').execute();
					await trx.updateTable('profiles').set({ label: 'first' }).execute();
					// The first attempt fails half-way, on a statement the database refuses.
					if (attempts === 1) {
						await trx.schema.createTable('users').addColumn('id', 'integer').execute();
					}
				}
			};
			const backend = db.backend();
			try {
				await expect(migrate(backend.db, name, [...MIGRATIONS, labels])).rejects.toThrow(
					/already exists/
				);
				expect(attempts).toBe(1);
				// Nothing of it is left: no table, no column, no record, the old version.
				await expect(db.query('SELECT name FROM labels')).rejects.toThrow(
					/no such table|does not exist/
				);
				await expect(db.query('SELECT label FROM profiles')).rejects.toThrow(
					/no such column|does not exist/
				);
				expect(await appliedVersions(backend.db)).toEqual(MIGRATIONS.map((m) => m.version));
				if (name === 'sqlite') {
					expect(await db.query('PRAGMA user_version')).toEqual([{ user_version: LATEST }]);
				}
				// The data and the store are as they were.
				expect(await store.profiles.get('p1')).toMatchObject({ name: 'P', headRevision: 1 });

				// The next start tries it again, and this time it is applied and recorded.
				expect(await migrate(backend.db, name, [...MIGRATIONS, labels])).toBe(1);
				expect(attempts).toBe(2);
				expect(await db.query('SELECT id, label FROM profiles')).toEqual([
					{ id: 'p1', label: 'first' }
				]);
				expect(await db.query('SELECT name FROM labels')).toEqual([]);
				expect(await appliedVersions(backend.db)).toEqual([
					...MIGRATIONS.map((m) => m.version),
					next
				]);
				if (name === 'sqlite') {
					expect(await db.query('PRAGMA user_version')).toEqual([{ user_version: next }]);
				}
				// And never again.
				expect(await migrate(backend.db, name, [...MIGRATIONS, labels])).toBe(0);
				expect(attempts).toBe(2);
			} finally {
				await backend.close();
			}
		});
	});

	describe('profiles.save under concurrency', () => {
		// On PostgreSQL the two saves come through two connection pools, as from two instances.
		// SQLite serves one process through one connection, whose transactions run one at a time
		// (another process waits for the file's write lock): there both come through the store.
		it('lets exactly one of two saves on the same base win', async () => {
			await profile();
			const other = name === 'postgres' ? another() : store;
			await other.ready();
			for (let base = 1; base <= 10; base++) {
				const results = await Promise.all(
					[store, other].map((s, i) =>
						s.profiles.save({
							profileId: 'p1',
							baseRevision: base,
							document: `{"v":${base + 1},"by":${i}}`,
							secrets: null,
							authorId: null,
							message: null,
							at: 2000 + base
						})
					)
				);
				const won = results.filter((r) => r.ok);
				const lost = results.filter((r) => !r.ok);
				expect(won).toHaveLength(1);
				expect(lost).toEqual([
					expect.objectContaining({
						reason: 'conflict',
						head: expect.objectContaining({ revision: base + 1 })
					})
				]);
				if (won[0].ok && !lost[0].ok && lost[0].reason === 'conflict') {
					expect(lost[0].head.document).toBe(won[0].revision.document);
				}
			}
			expect((await store.profiles.revisions('p1')).map((r) => r.revision)).toEqual(
				Array.from({ length: 11 }, (_, i) => 11 - i)
			);
			expect((await store.profiles.get('p1'))?.headRevision).toBe(11);
		});
	});

	describe("the audit stream's outbox", () => {
		const entry = (action: string, at: number) => ({
			at,
			actorId: null,
			actor: 'a@example.test',
			action,
			target: null,
			ip: null,
			details: { requestId: `r${at}` }
		});

		it('gets a row with every entry, in its transaction, and hands them out in order, one holder each', async () => {
			// Without the stream, nothing is queued.
			await store.audit.append(entry('logout', 1));
			expect(await store.auditOutbox.claim('a', 10, 1000, 10)).toEqual([]);

			let told = 0;
			const streamed = kyselyStore(db.backend(), { auditOutbox: true, onAudit: () => told++ });
			try {
				await streamed.audit.append(entry('login.success', 2));
				// A relaxed write (test calls, pushes) and a test call's own entries queue too.
				await streamed.audit.append(entry('push.sent', 3));
				const u = await streamed.users.create({
					email: 'b@example.test',
					name: 'B',
					role: 'editor',
					passwordHash: '$scrypt$x',
					at: 4
				});
				await streamed.testCalls.add(
					{
						userId: u.id,
						service: 's',
						profileId: null,
						scenario: null,
						at: 5,
						summary: '{}',
						record: '{}'
					},
					[entry('test_call', 5), entry('test_call', 6)]
				);
				expect(told).toBe(3);
				const ids = (await streamed.audit.list({ oldestFirst: true })).map((e) => e.id);
				const [, e2, e3, e4, e5] = ids;
				expect((await streamed.auditOutbox.state()).backlog).toBe(4);

				// A holds the two oldest; B, claiming meanwhile, the next ones.
				const a = await streamed.auditOutbox.claim('a', 100, 1000, 2);
				expect(a.map((c) => [c.entry.id, c.entry.action, c.attempts])).toEqual([
					[e2, 'login.success', 0],
					[e3, 'push.sent', 0]
				]);
				expect(a[0].entry.details).toEqual({ requestId: 'r2' });
				expect(
					(await streamed.auditOutbox.claim('b', 100, 1000, 1)).map((c) => c.entry.id)
				).toEqual([e4]);
				await streamed.auditOutbox.release('b', 100);

				// A delivers the first; the second fails: it and every newer entry wait for its retry.
				await streamed.auditOutbox.delivered(e2, 150);
				await streamed.auditOutbox.failed([e3], 'HTTP 500', 160, 600);
				expect(await streamed.auditOutbox.claim('b', 200, 1000, 10)).toEqual([]);
				const retry = await streamed.auditOutbox.claim('b', 600, 1000, 10);
				expect(retry.map((c) => [c.entry.id, c.attempts])).toEqual([
					[e3, 1],
					[e4, 0],
					[e5, 0]
				]);

				// B stops answering (a crash): its claims are taken over once its lease ends.
				expect(await streamed.auditOutbox.claim('a', 1599, 1000, 10)).toEqual([]);
				expect(
					(await streamed.auditOutbox.claim('a', 1600, 1000, 10)).map((c) => c.entry.id)
				).toEqual([e3, e4, e5]);
				expect(await streamed.auditOutbox.release('a', 1700)).toBe(3);
				expect(await streamed.auditOutbox.state()).toEqual({
					backlog: 3,
					lastDeliveredAt: 150,
					lastDeliveredId: e2,
					lastError: 'HTTP 500',
					lastErrorAt: 160
				});
			} finally {
				await streamed.close();
			}
		});
	});

	describe('audit log', () => {
		it('lists appended entries newest first, filtered by action prefix', async () => {
			await store.audit.append({
				at: 1,
				actorId: null,
				actor: 'a@example.test',
				action: 'login.success',
				target: null,
				ip: '127.0.0.1',
				details: null
			});
			await store.audit.append({
				at: 2,
				actorId: null,
				actor: 'a@example.test',
				action: 'profile.saved',
				target: 'p1',
				ip: null,
				details: { revision: 2 }
			});
			expect((await store.audit.list({})).map((e) => e.action)).toEqual([
				'profile.saved',
				'login.success'
			]);
			expect(await store.audit.list({ action: 'profile.' })).toEqual([
				expect.objectContaining({ action: 'profile.saved', details: { revision: 2 } })
			]);
			// Oldest first, page by page after an id: how an export reads it.
			const [first] = await store.audit.list({ oldestFirst: true, limit: 1 });
			expect(first.action).toBe('login.success');
			const next = await store.audit.list({ oldestFirst: true, afterId: first.id });
			expect(next.map((e) => e.action)).toEqual(['profile.saved']);
			expect(await store.audit.list({ oldestFirst: true, afterId: next[0].id })).toEqual([]);
		});

		it('rejects UPDATE and DELETE (append-only)', async () => {
			await store.audit.append({
				at: 1,
				actorId: null,
				actor: null,
				action: 'logout',
				target: null,
				ip: null,
				details: null
			});
			await expect(db.query("UPDATE audit_log SET action = 'x'")).rejects.toThrow(/append-only/);
			await expect(db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
			if (name === 'postgres') {
				await expect(db.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
			}
			expect((await store.audit.list({}))[0].action).toBe('logout');
		});
	});

	describe('profiles.save', () => {
		const input = (baseRevision: number, document: string) => ({
			profileId: 'p1',
			baseRevision,
			document,
			secrets: null,
			authorId: null,
			message: null,
			at: 2000
		});

		it('adds the next revision when the base is the head', async () => {
			await profile();
			const saved = await store.profiles.save(input(1, '{"v":2}'));
			expect(saved).toMatchObject({ ok: true, revision: { revision: 2, document: '{"v":2}' } });
			expect((await store.profiles.get('p1'))?.headRevision).toBe(2);
		});

		it('returns the head on a stale base, and writes nothing', async () => {
			await profile();
			await store.profiles.save(input(1, '{"v":2}'));
			const stale = await store.profiles.save(input(1, '{"v":"mine"}'));
			expect(stale).toMatchObject({
				ok: false,
				reason: 'conflict',
				head: { revision: 2, document: '{"v":2}' }
			});
			expect((await store.profiles.revisions('p1')).map((r) => r.revision)).toEqual([2, 1]);
		});

		it('answers not_found for a deleted or unknown profile', async () => {
			await profile();
			await store.profiles.setDeleted('p1', 3000);
			expect(await store.profiles.save(input(1, '{}'))).toEqual({
				ok: false,
				reason: 'not_found'
			});
			expect(await store.profiles.save({ ...input(1, '{}'), profileId: 'nope' })).toEqual({
				ok: false,
				reason: 'not_found'
			});
			await store.profiles.setDeleted('p1', null);
			expect((await store.profiles.save(input(1, '{}'))).ok).toBe(true);
		});

		it('keeps every revision readable with its author name', async () => {
			const author = await user();
			await profile();
			await store.profiles.save({ ...input(1, '{"v":2}'), authorId: author.id, message: 'm' });
			expect(await store.profiles.revision('p1', 2)).toMatchObject({
				authorName: 'A',
				message: 'm',
				document: '{"v":2}'
			});
			expect(await store.profiles.revision('p1', 1)).toMatchObject({ document: '{"v":1}' });
			expect(await store.profiles.revision('p1', 3)).toBeUndefined();
		});
	});

	describe('users and sessions', () => {
		it('finds users by e-mail without regard to case, and refuses a second account', async () => {
			const created = await user('Mixed@Example.test');
			expect((await store.users.findByEmail('mixed@example.TEST'))?.id).toBe(created.id);
			await expect(user('MIXED@example.test')).rejects.toThrow(/unique/i);
		});

		it('purges sessions past their absolute or idle time', async () => {
			const { id } = await user();
			const session = (tokenHash: string, lastSeenAt: number, expiresAt: number) =>
				store.sessions.create({
					tokenHash,
					userId: id,
					createdAt: 0,
					lastSeenAt,
					expiresAt,
					ip: null,
					userAgent: null
				});
			await session('live', 9_000, 20_000);
			await session('too-old', 9_000, 10_000);
			await session('idle', 4_000, 20_000);
			expect(await store.sessions.purgeExpired(10_000, 5_000)).toBe(2);
			expect(await store.sessions.find('live')).toBeDefined();
			expect(await store.sessions.find('too-old')).toBeUndefined();
			expect(await store.sessions.find('idle')).toBeUndefined();
		});

		it('record how a session was made, a password unless told otherwise', async () => {
			const { id } = await user();
			const base = { userId: id, createdAt: 0, lastSeenAt: 0, expiresAt: 9_000 };
			await store.sessions.create({ ...base, tokenHash: 'pw', ip: null, userAgent: null });
			await store.sessions.create({
				...base,
				tokenHash: 'sso',
				method: 'oidc',
				ip: null,
				userAgent: null
			});
			expect((await store.sessions.find('pw'))?.method).toBe('password');
			expect((await store.sessions.find('sso'))?.method).toBe('oidc');
		});

		it('keep an active admin: of two demotions at once, on two connections, one is refused', async () => {
			const admin = (email: string) =>
				store.users.create({ email, name: 'A', role: 'admin', passwordHash: '$x', at: 1000 });
			const [a, b] = [await admin('a@example.test'), await admin('b@example.test')];
			const editor = await user('e@example.test');
			const other = another();
			const both = await Promise.all([
				store.users.update(a.id, { role: 'viewer', at: 2000 }),
				other.users.update(b.id, { active: false, at: 2000 })
			]);
			expect(both.filter((r) => r === 'last_admin')).toHaveLength(1);
			const admins = (await store.users.list()).filter((u) => u.role === 'admin' && u.active);
			expect(admins).toHaveLength(1);
			const [last] = admins;
			// The refused change wrote nothing; the last admin keeps every other change.
			expect(await store.users.findById(last.id)).toMatchObject({ updatedAt: 1000 });
			expect(await store.users.update(last.id, { role: 'editor', at: 3000 })).toBe('last_admin');
			expect(await store.users.update(last.id, { name: 'B', at: 3000 })).toMatchObject({
				name: 'B',
				role: 'admin',
				active: true
			});
			expect(await store.users.update(editor.id, { active: false, at: 3000 })).toMatchObject({
				active: false
			});
			expect(await store.users.update(9999, { role: 'viewer', at: 3000 })).toBeUndefined();
		});
	});

	describe('second factor', () => {
		it('turns a waiting secret on once, with its recovery codes, and accepts each step once', async () => {
			const { id } = await user();
			await store.totp.begin(id, 'sealed-1', 1_000);
			// Starting again replaces a secret that was never turned on.
			await store.totp.begin(id, 'sealed-2', 2_000);
			expect(await store.totp.get(id)).toEqual({
				userId: id,
				secret: 'sealed-2',
				createdAt: 2_000,
				enabledAt: null,
				lastStep: null
			});
			expect(await store.totp.acceptStep(id, 10)).toBe(false);
			expect(await store.totp.enabledUserIds()).toEqual([]);

			expect(await store.totp.enable(id, 10, 3_000, ['h1', 'h2'])).toBe(true);
			expect(await store.totp.enable(id, 11, 3_000, ['h3'])).toBe(false);
			expect(await store.totp.get(id)).toMatchObject({ enabledAt: 3_000, lastStep: 10 });
			expect(await store.totp.enabledUserIds()).toEqual([id]);

			expect(await store.totp.acceptStep(id, 10)).toBe(false);
			expect(await store.totp.acceptStep(id, 9)).toBe(false);
			const twice = await Promise.all([
				store.totp.acceptStep(id, 11),
				another().totp.acceptStep(id, 11)
			]);
			expect(twice.sort()).toEqual([false, true]);

			expect(await store.totp.recoveryCodesLeft(id)).toBe(2);
			expect(await store.totp.useRecoveryCode(id, 'h1', 4_000)).toBe(true);
			expect(await store.totp.useRecoveryCode(id, 'h1', 4_000)).toBe(false);
			expect(await store.totp.useRecoveryCode(id, 'h3', 4_000)).toBe(false);
			expect(await store.totp.recoveryCodesLeft(id)).toBe(1);

			expect(await store.totp.remove(id)).toBe(true);
			expect(await store.totp.remove(id)).toBe(false);
			expect(await store.totp.get(id)).toBeUndefined();
			expect(await store.totp.recoveryCodesLeft(id)).toBe(0);
		});
	});

	describe('sandboxes', () => {
		const sandbox = (id: string, ownerId: number) => ({
			id,
			key: `key-${id}`,
			keyHash: `hash-${id}`,
			name: id,
			ownerId,
			createdAt: 1,
			updatedAt: 1,
			settings: '{}'
		});

		it('keeps the newest pushes of each sandbox and drops a push of a deleted one alone', async () => {
			const owner = await user();
			await store.sandboxes.create(sandbox('one', owner.id));
			await store.sandboxes.create(sandbox('two', owner.id));
			const batch = (n: number, sandboxId: string) =>
				Array.from({ length: n }, (_, i) => ({ sandboxId, at: i, record: `{"n":${i}}` }));
			await store.sandboxes.addPushes([...batch(5, 'one'), ...batch(2, 'two')], 3);
			expect((await store.sandboxes.pushes('one', 0, 100)).map((p) => p.record)).toEqual([
				'{"n":4}',
				'{"n":3}',
				'{"n":2}'
			]);
			expect(await store.sandboxes.pushes('two', 0, 100)).toHaveLength(2);
			const ids = await store.sandboxes.addPushes([...batch(1, 'gone'), ...batch(1, 'two')], 3);
			expect(ids[0]).toBeNull();
			expect(ids[1]).toBeTypeOf('number');
			expect(await store.sandboxes.pushes('two', 0, 100)).toHaveLength(3);
		});

		it('finds a sandbox by its key hash, and deletes its pushes with it', async () => {
			const owner = await user();
			await store.sandboxes.create(sandbox('one', owner.id));
			await store.sandboxes.addPushes([{ sandboxId: 'one', at: 1, record: '{}' }], 10);
			expect((await store.sandboxes.byKeyHash('hash-one'))?.id).toBe('one');
			expect(await store.sandboxes.update('one', { key: 'k2', keyHash: 'h2' }, 5)).toBe(true);
			expect(await store.sandboxes.byKeyHash('hash-one')).toBeUndefined();
			expect((await store.sandboxes.get('one'))?.updatedAt).toBe(5);
			expect(await store.sandboxes.delete('one')).toBe(true);
			expect(await db.query('SELECT id FROM sandbox_pushes')).toEqual([]);
		});
	});

	describe('test calls', () => {
		it('adds a call with its audit entries in one write, and trims to the newest of a service', async () => {
			const a = await user('caller@example.test');
			const entry = (at: number) => ({
				at,
				actorId: a.id,
				actor: a.email,
				action: 'test_call',
				target: 'sendMessage',
				ip: '127.0.0.1',
				details: { method: 'GET', status: 200 }
			});
			const add = (service: string, at: number, audits = [entry(at)]) =>
				store.testCalls.add(
					{
						userId: a.id,
						service,
						profileId: null,
						scenario: null,
						at,
						summary: '{}',
						record: `{"at":${at}}`
					},
					audits
				);
			const first = await add('sendMessage', 1, [entry(1), entry(1)]);
			await add('sendMessage', 2, []);
			await add('sendMessage', 3);
			await add('sendMessage', 4);
			await add('showUser', 5);
			const audited = await store.audit.list({ action: 'test_call' });
			expect(audited.map((e) => e.at)).toEqual([5, 4, 3, 1, 1]);
			expect(audited[0].details).toEqual({ method: 'GET', status: 200 });

			await store.testCalls.trim(a.id, 'sendMessage', 2);
			const kept = await store.testCalls.list(a.id, 'sendMessage', null, 10);
			expect(kept.map((r) => r.at)).toEqual([4, 3]);
			expect(await store.testCalls.get(first, a.id)).toBeUndefined();
			expect((await store.testCalls.list(a.id, 'showUser', null, 10)).map((r) => r.at)).toEqual([
				5
			]);
			// Nothing beyond the kept ones: nothing removed.
			await store.testCalls.trim(a.id, 'sendMessage', 2);
			expect(await store.testCalls.list(a.id, 'sendMessage', null, 10)).toHaveLength(2);
		});

		it('answers the newest call of each service of a profile, whoever made it', async () => {
			const a = await user('first@example.test');
			const b = await user('second@example.test');
			const add = (userId: number, service: string, profileId: string | null, at: number) =>
				store.testCalls.add({
					userId,
					service,
					profileId,
					scenario: null,
					at,
					summary: `{"at":${at}}`,
					record: '{}'
				});
			await add(a.id, 'sendMessage', 'p1', 1);
			await add(b.id, 'sendMessage', 'p1', 2);
			await add(a.id, 'sendMessage', 'p2', 3);
			await add(a.id, 'sendMessage', null, 4);
			await add(a.id, 'showUser', 'p1', 5);
			const latest = await store.testCalls.latestOfProfile('p1');
			const byService = Object.fromEntries(latest.map((r) => [r.service, r]));
			expect(Object.keys(byService).sort()).toEqual(['sendMessage', 'showUser']);
			expect(byService.sendMessage).toMatchObject({
				at: 2,
				userId: b.id,
				userEmail: 'second@example.test',
				summary: '{"at":2}'
			});
			expect(byService.showUser).toMatchObject({ at: 5, userEmail: 'first@example.test' });
			expect(byService.sendMessage).not.toHaveProperty('record');
			expect(await store.testCalls.latestOfProfile('none')).toEqual([]);
		});
	});

	describe('flow runs', () => {
		it('keeps the newest runs of a profile, lists them newest first with who ran them', async () => {
			const a = await user('runner@example.test');
			const add = (profileId: string | null, at: number, ok: boolean) =>
				store.flowRuns.add(
					{ profileId, flow: 'sso', userId: a.id, at, ok, summary: '{}', record: `{"at":${at}}` },
					2
				);
			await add('p1', 1, true);
			await add('p1', 2, false);
			const third = await add('p1', 3, true);
			await add('p2', 4, true);
			await add(null, 5, true);
			await add(null, 6, true);
			await add(null, 7, true);
			const listed = await store.flowRuns.list('p1', 10);
			expect(listed.map((r) => r.at)).toEqual([3, 2]);
			expect(listed[0]).toMatchObject({ ok: true, userEmail: 'runner@example.test', flow: 'sso' });
			expect(listed[1].ok).toBe(false);
			expect(listed[0]).not.toHaveProperty('record');
			expect((await store.flowRuns.list('p2', 10)).map((r) => r.at)).toEqual([4]);
			expect((await store.flowRuns.get(third.id))?.record).toBe('{"at":3}');
			expect((await store.flowRuns.get(third.id))?.userEmail).toBe('runner@example.test');
			expect(await store.flowRuns.get(999)).toBeUndefined();
			expect(
				(await db.query('SELECT at FROM flow_runs WHERE profile_id IS NULL ORDER BY at')).map((r) =>
					Number(r.at)
				)
			).toEqual([6, 7]);
		});
	});
});

describe('SQLite specifics', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'ps-store-'));
	});
	afterEach(() => {
		rmSync(dir, { recursive: true, force: true });
	});

	it('keep the file in WAL mode with user_version at the latest migration', async () => {
		const store = openSqliteStore(dir);
		await store.ready();
		await store.close();
		const raw = new Database(path.join(dir, SQLITE_FILE));
		try {
			expect(raw.pragma('user_version', { simple: true })).toBe(LATEST);
			expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
		} finally {
			raw.close();
		}
	});

	it('write relaxed writes with synchronous = NORMAL, and everything else with FULL', async () => {
		const backend = sqliteBackend(dir);
		const level = async (q: Kysely<Tables>) =>
			(await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(q)).rows[0].synchronous;
		try {
			expect(await level(backend.db)).toBe(2);
			for (let i = 0; i < 3; i++) {
				expect(await backend.relaxed((trx) => level(trx))).toBe(1);
				expect(await level(backend.db)).toBe(2);
			}
			await expect(
				backend.relaxed(async () => {
					throw new Error('refused');
				})
			).rejects.toThrow('refused');
			expect(await level(backend.db)).toBe(2);

			// Written at once: relaxed inside, FULL again after.
			const pragma = sql<{ synchronous: number }>`PRAGMA synchronous`.compile(backend.db);
			const levelNow = (mode: 'read' | 'relaxed') =>
				backend.now!((run) => (run(pragma, [])[0] as { synchronous: number }).synchronous, mode);
			expect(levelNow('relaxed')).toEqual({ value: 1 });
			expect(levelNow('read')).toEqual({ value: 2 });

			// A relaxed write through the builder sets its pragma a few turns before its BEGIN and
			// puts it back a few after its COMMIT: whatever runs at once meanwhile runs with FULL.
			const writing = backend.relaxed((trx) => level(trx));
			let turns = 0;
			let done = false;
			void writing.finally(() => (done = true));
			while (!done && turns < 1000) {
				const seen = levelNow('read');
				if (seen) expect(seen.value).toBe(2);
				turns++;
				await Promise.resolve();
			}
			expect(await writing).toBe(1);
		} finally {
			await backend.close();
		}
	});

	it('run queries at once only outside the transactions of others, whose awaits leave turns free', async () => {
		const backend = sqliteBackend(dir);
		const store = kyselyStore(backend);
		try {
			await store.ready();
			const caller = await store.users.create({
				email: 'caller@example.test',
				name: 'Caller',
				role: 'editor',
				passwordHash: 'x',
				at: 1
			});
			const row = (at: number) => ({
				userId: caller.id,
				service: 'sendMessage',
				profileId: null,
				scenario: null,
				at,
				summary: '{}',
				record: '{}'
			});
			const entry = {
				at: 2,
				actorId: caller.id,
				actor: caller.email,
				action: 'test_call',
				target: 'sendMessage',
				ip: null,
				details: null
			};
			// Outside any transaction, a read and a relaxed write run in the caller's turn.
			expect(
				backend.now!((run) => run(sql`select 1 as one`.compile(backend.db), [])[0], 'read')
			).toEqual({ value: { one: 1 } });

			// Another transaction changes the user and waits between its queries, then rolls back.
			let proceed!: () => void;
			const held = new Promise<void>((resolve) => (proceed = resolve));
			let changed!: () => void;
			const inside = new Promise<void>((resolve) => (changed = resolve));
			const other = backend.db.transaction().execute(async (trx) => {
				await trx
					.updateTable('users')
					.set({ role: 'viewer' })
					.where('id', '=', caller.id)
					.execute();
				changed();
				await held;
				throw new Error('rolled back');
			});
			await inside;
			expect(backend.now!(() => 'ran', 'read')).toBeNull();
			const seen = store.users.findById(caller.id);
			const kept = store.testCalls.add(row(2), [entry]);
			proceed();
			await expect(other).rejects.toThrow('rolled back');
			// The read did not see the change that was never committed, and the write was not
			// part of the transaction that rolled back.
			expect((await seen)?.role).toBe('editor');
			const id = await kept;
			expect((await store.testCalls.get(id, caller.id))?.at).toBe(2);
			expect((await store.audit.list({ action: 'test_call' })).map((e) => e.at)).toEqual([2]);

			// While a relaxed write holds the connection between its queries, nothing runs at once.
			let release!: () => void;
			const relaxedHeld = new Promise<void>((resolve) => (release = resolve));
			const relaxed = backend.relaxed(async () => relaxedHeld);
			await new Promise((resolve) => setImmediate(resolve));
			expect(backend.now!(() => 'ran', 'relaxed')).toBeNull();
			release();
			await relaxed;
			expect(backend.now!(() => 'ran', 'relaxed')).toEqual({ value: 'ran' });
		} finally {
			await store.close();
		}
	});

	it('apply every migration to an empty database, in order, and nothing the second time', async () => {
		const db = new Kysely<Tables>({
			dialect: new SqliteDialect({ database: new Database(':memory:') })
		});
		try {
			expect(await migrate(db, 'sqlite')).toBe(MIGRATIONS.length);
			expect(await migrate(db, 'sqlite')).toBe(0);
			expect(await appliedVersions(db)).toEqual(MIGRATIONS.map((m) => m.version));
		} finally {
			await db.destroy();
		}
	});

	it('number the migrations from 1 upwards, in order, each number once', () => {
		// Numbers are given out to work under way in other branches, so one may land before a
		// lower one: a gap is allowed, the order is not.
		const versions = MIGRATIONS.map((m) => m.version);
		expect(versions[0]).toBe(1);
		expect(versions.every((v, i) => i === 0 || v > versions[i - 1])).toBe(true);
	});

	it('open a data directory made before migrations were recorded, and lose nothing', async () => {
		cpSync(FIXTURE, dir, { recursive: true });
		const before = new Database(path.join(dir, SQLITE_FILE), { readonly: true });
		const dump = (db: Database.Database) =>
			Object.fromEntries(
				(
					db
						.prepare(
							"SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'schema_migrations'"
						)
						.pluck()
						.all() as string[]
				).map((table) => [table, db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()])
			);
		const rows = dump(before);
		const schema = before.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all();
		expect(before.pragma('user_version', { simple: true })).toBe(3);
		before.close();
		expect(Object.values(rows).every((table) => table.length > 0)).toBe(true);

		const store = openSqliteStore(dir);
		try {
			// Nothing is re-run on the old schema: the versions it had are recorded as applied.
			await store.ready();
			const now = new Database(path.join(dir, SQLITE_FILE), { readonly: true });
			try {
				// Every row kept; tables of later migrations are there, empty.
				expect(dump(now)).toEqual({
					...rows,
					flow_runs: [],
					user_identities: [],
					audit_outbox: [],
					audit_stream: [
						{ id: 1, delivered_at: null, delivered_id: null, error: null, error_at: null }
					],
					user_totp: [],
					recovery_codes: [],
					sign_in_flows: [],
					live_keys: [],
					live_items: [],
					// Sessions of before were all made with a password.
					sessions: (rows.sessions as object[]).map((s) => ({ ...s, method: 'password' }))
				});
			} finally {
				now.close();
			}
			const acme = await store.profiles.revision('acme', 2);
			expect(acme).toMatchObject({ document: '{"v":2}', authorName: 'Ada' });
			expect((await store.profiles.revision('acme', 1))?.secrets).toBe('v1.sealed.secret');
			expect((await store.users.findByEmail('ada@example.test'))?.role).toBe('admin');
			expect(await store.sessions.find('sess-hash')).toMatchObject({
				expiresAt: 4_000_000_000_000
			});
			expect(await store.audit.list({})).toHaveLength(2);
			// New rows follow the old ones.
			const saved = await store.profiles.save({
				profileId: 'acme',
				baseRevision: 2,
				document: '{"v":3}',
				secrets: null,
				authorId: null,
				message: null,
				at: 1_800_000_000_000
			});
			expect(saved).toMatchObject({ ok: true, revision: { revision: 3 } });
			const user = await store.users.create({
				email: 'new@example.test',
				name: 'New',
				role: 'viewer',
				passwordHash: '$scrypt$new',
				at: 1_800_000_000_000
			});
			expect(user.id).toBe(3);
		} finally {
			await store.close();
		}
		const after = new Database(path.join(dir, SQLITE_FILE), { readonly: true });
		try {
			expect(after.pragma('user_version', { simple: true })).toBe(LATEST);
			expect(
				after.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all()
			).toEqual(MIGRATIONS.map((m) => m.version));
			// The old schema is kept as it was; only later migrations' tables and indexes are added
			// beside it.
			const later = (name: string) =>
				name.startsWith('flow_runs') ||
				name === 'test_calls_profile_service' ||
				name.startsWith('audit_outbox') ||
				name === 'audit_stream' ||
				name.includes('user_identities') ||
				/^(sqlite_autoindex_)?(user_totp|recovery_codes|sign_in_flows|live_)/.test(name);
			// Sessions gained one column (how each was made), added at the end of their table.
			const method = `, "method" text default 'password' not null`;
			const added = after
				.prepare(
					"SELECT type, name, sql FROM sqlite_master WHERE name != 'schema_migrations' AND name NOT LIKE 'sqlite_autoindex_schema%' ORDER BY name"
				)
				.all() as { name: string; sql: string | null }[];
			expect(added.find((o) => o.name === 'sessions')?.sql).toContain(method);
			expect(
				added
					.filter((o) => !later(o.name))
					.map((o) => (o.name === 'sessions' ? { ...o, sql: o.sql!.replace(method, '') } : o))
			).toEqual(schema);
		} finally {
			after.close();
		}
	});
});

describe('store on PostgreSQL, several connections', () => {
	const db = postgresHarness();
	let store: Store;
	let other: Store;

	afterEach(async () => {
		await other.close();
		await store.close();
		await db.cleanup();
	});

	it('adopt the rate-limit table an earlier version made itself, keeping its counters', async () => {
		await db.fresh();
		const backend = db.backend();
		try {
			const before = MIGRATIONS.filter((m) => m.version < RATE_LIMITS.version);
			expect(await migrate(backend.db, 'postgres', before)).toBe(before.length);
		} finally {
			await backend.close();
		}
		// What instances of earlier versions ran when they first counted a limit.
		await db.query(
			`CREATE TABLE IF NOT EXISTS rate_limits (
				key varchar(255) PRIMARY KEY,
				points integer NOT NULL DEFAULT 0,
				expire bigint
			)`
		);
		await db.query("INSERT INTO rate_limits VALUES ('login_ip:192.0.2.1', 3, 4000000000000)");
		store = db.open();
		other = db.open();
		await store.ready();
		expect(
			await db.query(`SELECT name FROM schema_migrations WHERE version = ${RATE_LIMITS.version}`)
		).toEqual([{ name: RATE_LIMITS.name }]);
		expect(await db.query('SELECT key, points, expire FROM rate_limits')).toEqual([
			{ key: 'login_ip:192.0.2.1', points: 3, expire: '4000000000000' }
		]);
		// Reopened, nothing is applied again.
		await other.ready();
		expect(await db.query('SELECT version FROM schema_migrations')).toHaveLength(MIGRATIONS.length);
	});

	it('keep an active admin while another connection demotes one, before it commits', async () => {
		await db.fresh();
		store = db.open();
		other = db.open();
		await store.ready();
		const admin = (email: string) =>
			store.users.create({ email, name: 'A', role: 'admin', passwordHash: '$x', at: 1000 });
		const [a, b] = [await admin('a@example.test'), await admin('b@example.test')];
		await db.query('BEGIN');
		await db.query(`UPDATE users SET role = 'viewer' WHERE id = ${a.id}`);
		const demotion = other.users.update(b.id, { role: 'viewer', at: 2000 });
		// Time for the demotion to reach the database while the first one is uncommitted.
		await setTimeout(300);
		await db.query('COMMIT');
		expect(await demotion).toBe('last_admin');
		expect(await store.users.findById(b.id)).toMatchObject({ role: 'admin', active: true });
	});

	it('run once when two stores open the same new database at the same time', async () => {
		await db.fresh();
		store = db.open();
		other = db.open();
		await Promise.all([store.ready(), other.ready()]);
		expect(await db.query('SELECT version FROM schema_migrations')).toHaveLength(MIGRATIONS.length);
		expect(await other.users.count()).toBe(0);
	});
});
