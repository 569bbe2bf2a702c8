import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../../../scripts/postgres-cluster.js';
import { compareStores, copyStore } from './copy';
import { MIGRATIONS, migrate } from './migrations';
import type { Backend } from './kysely';
import { openPostgresStore, postgresBackend, sqliteBackend, SQLITE_FILE } from './open';

/**
 * Moving an existing SQLite data directory into PostgreSQL: the copy keeps every row and id,
 * compares both sides row by row, refuses a target that holds data, and the `npm run db:copy`
 * and `npm run migrate` commands do it from the command line.
 */

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const FIXTURE = path.join(ROOT, 'tests/fixtures/sqlite-data-v3');
const run = promisify(execFile);

let cluster: Cluster;
let databases = 0;
let dir: string;
const open: Backend[] = [];

beforeAll(async () => {
	cluster = await startCluster();
}, 120_000);

afterAll(async () => {
	await cluster?.stop();
});

beforeEach(() => {
	// A data directory made by an older version of the app, with rows in every table.
	dir = mkdtempSync(path.join(tmpdir(), 'ps-copy-'));
	cpSync(FIXTURE, dir, { recursive: true });
});

afterEach(async () => {
	for (const backend of open.splice(0)) await backend.close();
	rmSync(dir, { recursive: true, force: true });
});

const emptyDatabase = () => cluster.createDatabase(`copy_${++databases}`);

function backends(url: string) {
	const source = sqliteBackend(dir);
	const target = postgresBackend(url);
	open.push(source, target);
	return { source, target };
}

describe('copyStore', { timeout: 30_000 }, () => {
	it('copies every row with its id, identical after the copy, and the app reads it', async () => {
		// More rows than a page, so the copy and the comparison page through them.
		const before = new Database(path.join(dir, SQLITE_FILE));
		const insert = before.prepare(
			`INSERT INTO audit_log (at, actor_id, actor, action, target, ip, details)
			 VALUES (?, 1, 'Ada@Example.test', 'login.success', NULL, '127.0.0.1', ?)`
		);
		before.transaction(() => {
			for (let i = 0; i < 1200; i++) {
				insert.run(1_800_000_000_000 + i, JSON.stringify({ i, text: 'ünïcode ✓ "quoted"' }));
			}
		})();
		before.close();

		const url = await emptyDatabase();
		const { source, target } = backends(url);
		// Tables newer than the data directory get a row too, once its schema is brought up to date.
		await migrate(source.db, source.dialect);
		await source.db
			.insertInto('flow_runs')
			.values({
				profile_id: 'acme',
				flow: 'sso',
				user_id: 1,
				at: 1,
				ok: 1,
				summary: '{}',
				record: '{}'
			})
			.execute();
		// An entry the audit stream has still to deliver goes along with the log.
		await source.db
			.insertInto('audit_outbox')
			.values({ audit_id: 1, available_at: 1, claimed_by: null, last_error: 'HTTP 503' })
			.execute();
		await source.db
			.insertInto('user_totp')
			.values({ user_id: 1, secret: 'v1.sealed', created_at: 1, enabled_at: 2, last_step: 3 })
			.execute();
		await source.db
			.insertInto('recovery_codes')
			.values({ user_id: 1, code_hash: 'hash', used_at: null })
			.execute();
		await source.db
			.insertInto('user_identities')
			.values({
				issuer: 'https://sso.example.test',
				subject: 'ada',
				user_id: 1,
				created_at: 1,
				last_sign_in_at: 2
			})
			.execute();
		const report = await copyStore(source, target);
		expect(report.tables.find((t) => t.table === 'audit_log')?.rows).toBe(1202);
		expect(report.tables.every((t) => t.rows > 0)).toBe(true);
		expect(await compareStores(source.db, target.db)).toEqual([]);

		const store = openPostgresStore(url);
		try {
			expect((await store.users.findByEmail('ADA@example.test'))?.name).toBe('Ada');
			expect(await store.profiles.revision('acme', 1)).toMatchObject({
				secrets: 'v1.sealed.secret',
				authorName: 'Ada'
			});
			// New rows get ids after the copied ones.
			const user = await store.users.create({
				email: 'new@example.test',
				name: 'New',
				role: 'viewer',
				passwordHash: '$scrypt$new',
				at: 1
			});
			expect(user.id).toBe(3);
			await store.audit.append({
				at: 2,
				actorId: null,
				actor: null,
				action: 'logout',
				target: null,
				ip: null,
				details: null
			});
			expect((await store.audit.list({ limit: 1 }))[0].id).toBe(1203);
		} finally {
			await store.close();
		}
	});

	it('finds a row that differs after the copy', async () => {
		const url = await emptyDatabase();
		const { source, target } = backends(url);
		await copyStore(source, target);
		const client = new pg.Client({ connectionString: url });
		await client.connect();
		try {
			await client.query(`UPDATE revisions SET document = '{"v":"changed"}' WHERE revision = 2`);
		} finally {
			await client.end();
		}
		expect(await compareStores(source.db, target.db)).toEqual([
			{
				table: 'revisions',
				counts: [3, 3],
				first: {
					source: expect.objectContaining({ document: '{"v":2}' }),
					target: expect.objectContaining({ document: '{"v":"changed"}' })
				}
			}
		]);
	});

	it('refuses a target that already holds data, and leaves it as it was', async () => {
		const url = await emptyDatabase();
		const { source, target } = backends(url);
		await copyStore(source, target);
		await expect(copyStore(source, target)).rejects.toThrow(/already holds data \(table users/);
		expect(await compareStores(source.db, target.db)).toEqual([]);
	});
});

describe('the command-line tools', { timeout: 60_000 }, () => {
	const tool = (script: string, args: string[], env: Record<string, string>) =>
		run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', script), ...args], {
			cwd: ROOT,
			env: { ...process.env, DATA_DIR: '', DATABASE_URL: '', ...env }
		});

	it('npm run migrate brings PostgreSQL up to date, once', async () => {
		const url = await emptyDatabase();
		const first = await tool('migrate.ts', [], { DATABASE_URL: url });
		// Numbers may have gaps (see migrations.ts): the count and the latest number can differ.
		const latest = MIGRATIONS.at(-1)!.version;
		expect(first.stdout).toContain(
			`applied ${MIGRATIONS.length} migration(s); schema version ${latest}`
		);
		const again = await tool('migrate.ts', [], { DATABASE_URL: url });
		expect(again.stdout).toContain(`already up to date; schema version ${latest}`);
	});

	it('npm run db:copy copies a data directory and says it compared every row', async () => {
		const url = await emptyDatabase();
		const copied = await tool('db-copy.ts', ['--from', dir, '--to', url], {});
		expect(copied.stdout).toMatch(/^users +2 rows$/m);
		expect(copied.stdout).toMatch(/compared every row: identical/);
		const refused = tool('db-copy.ts', [], { DATA_DIR: dir, DATABASE_URL: url });
		await expect(refused).rejects.toMatchObject({
			code: 1,
			stderr: expect.stringMatching(/already holds data/)
		});
	});

	it('npm run db:copy names a data directory without a database', async () => {
		await expect(
			tool('db-copy.ts', ['--from', path.join(dir, 'nothing'), '--to', cluster.url], {})
		).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/No SQLite database in/) });
	});
});
