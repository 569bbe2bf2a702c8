import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from './migrations';
import { migrate, openSqliteStore } from './sqlite';
import type { Store } from './types';

const LATEST = MIGRATIONS.at(-1)!.version;

let dir: string;
let store: Store;
let raw: Database.Database | undefined;

beforeEach(() => {
	dir = mkdtempSync(path.join(tmpdir(), 'ps-store-'));
	store = openSqliteStore(dir);
});

afterEach(async () => {
	raw?.close();
	raw = undefined;
	await store.close();
	rmSync(dir, { recursive: true, force: true });
});

/** A second connection to the store's database, as another process would open it. */
function rawDb(): Database.Database {
	raw = new Database(path.join(dir, 'provisioning.db'));
	return raw;
}

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

describe('migrations', () => {
	it('bring a new database to the latest user_version, in WAL mode', () => {
		const db = rawDb();
		expect(db.pragma('user_version', { simple: true })).toBe(LATEST);
		expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
		const tables = db
			.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
			.pluck()
			.all();
		expect(tables).toEqual(
			expect.arrayContaining([
				'api_tokens',
				'audit_log',
				'profiles',
				'revisions',
				'sessions',
				'users'
			])
		);
	});

	it('are applied once: reopening applies nothing and keeps the data', async () => {
		await user();
		await store.close();
		store = openSqliteStore(dir);
		expect(await store.users.count()).toBe(1);
		const db = rawDb();
		expect(migrate(db)).toBe(0);
		expect(db.pragma('user_version', { simple: true })).toBe(LATEST);
	});

	it('apply every migration to an empty database, in order', () => {
		const db = new Database(':memory:');
		try {
			expect(migrate(db)).toBe(MIGRATIONS.length);
			expect(db.pragma('user_version', { simple: true })).toBe(LATEST);
			expect(migrate(db)).toBe(0);
		} finally {
			db.close();
		}
	});

	it('number the migrations 1, 2, 3… without gaps', () => {
		expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
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
		const db = rawDb();
		expect(() => db.prepare("UPDATE audit_log SET action = 'x'").run()).toThrow(/append-only/);
		expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
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
		expect(await store.profiles.save(input(1, '{}'))).toEqual({ ok: false, reason: 'not_found' });
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
		await expect(user('MIXED@example.test')).rejects.toThrow(/UNIQUE/);
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
		expect(rawDb().prepare('SELECT COUNT(*) AS n FROM sandbox_pushes').get()).toEqual({ n: 0 });
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
		const listed = await store.flowRuns.list('p1', 10);
		expect(listed.map((r) => r.at)).toEqual([3, 2]);
		expect(listed[0]).toMatchObject({ ok: true, userEmail: 'runner@example.test', flow: 'sso' });
		expect(listed[1].ok).toBe(false);
		expect(listed[0]).not.toHaveProperty('record');
		expect((await store.flowRuns.list('p2', 10)).map((r) => r.at)).toEqual([4]);
		expect((await store.flowRuns.get(third.id))?.record).toBe('{"at":3}');
		expect(await store.flowRuns.get(999)).toBeUndefined();
	});
});
