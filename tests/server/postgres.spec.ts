import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../scripts/postgres-cluster.js';
import { MIGRATIONS } from '../../src/lib/server/store/migrations';
import { ADMIN, ADMIN_ENV, createProfile, profileDocument, sleep } from '../helpers/fixtures';
import { Client, startServer, stopAllServers, type TestServer } from '../helpers/server';

/**
 * The app on PostgreSQL (DATABASE_URL), against a throw-away cluster this file starts: the
 * health check names the database; two app processes on one database let exactly one of two
 * saves on the same base land; secrets reach the database sealed; the audit log refuses changes;
 * and an outage of the database (the server stopped and started while the app serves) answers
 * 503 on the health check and clean errors elsewhere, loses nothing saved before, and heals by
 * itself. The rest of the server tests run on SQLite; the store's own tests cover both.
 */

const SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
const PASSWORD = 'a-secret-cloud-password-4711';

let cluster: Cluster;
let url: string;
let a: TestServer;
let b: TestServer;
let adminA: Client;
let adminB: Client;
let sql: pg.Client | undefined;

async function query(text: string, values: unknown[] = []) {
	if (!sql) {
		sql = new pg.Client({ connectionString: url });
		await sql.connect();
	}
	return (await sql.query(text, values)).rows;
}

beforeAll(async () => {
	cluster = await startCluster();
	url = await cluster.createDatabase('studio');
	const env = { ...ADMIN_ENV, DATABASE_URL: url, SECRET_KEY };
	// One after the other: the first creates the admin.
	a = await startServer({ env });
	b = await startServer({ env });
	adminA = new Client(a);
	adminB = new Client(b);
	expect((await adminA.login(ADMIN.email, ADMIN.password)).status).toBe(200);
	expect((await adminB.login(ADMIN.email, ADMIN.password)).status).toBe(200);
}, 120_000);

afterAll(async () => {
	await sql?.end().catch(() => undefined);
	await stopAllServers();
	await cluster?.stop();
});

describe('the app on PostgreSQL', () => {
	it('reports the database in its health check', async () => {
		const health = await fetch(`${a.url}/api/health`);
		expect(health.status).toBe(200);
		expect(await health.json()).toMatchObject({
			ok: true,
			database: { backend: 'postgres', ok: true }
		});
	});

	it('keeps its data in PostgreSQL, with the migrations recorded once', async () => {
		expect(await query('SELECT email FROM users')).toEqual([{ email: ADMIN.email }]);
		expect((await query('SELECT version FROM schema_migrations ORDER BY version')).length).toBe(
			MIGRATIONS.length
		);
	});

	it('lands exactly one of two saves on the same base made through two app processes', async () => {
		const id = await createProfile(adminA, 'Contended');
		for (let base = 1; base <= 5; base++) {
			const answers = await Promise.all(
				[adminA, adminB].map((client, i) =>
					client.json(`/api/profiles/${id}`, {
						method: 'PUT',
						json: {
							baseRevision: base,
							document: profileDocument({ sms_body: `base ${base} from ${i}` })
						}
					})
				)
			);
			expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
			const lost = answers.find((x) => x.status === 409)!;
			expect(lost.body.error?.code).toBe('conflict');
			expect(lost.body.current).toMatchObject({ revision: base + 1 });
		}
		const revisions = await query('SELECT revision FROM revisions WHERE profile_id = $1', [id]);
		expect(revisions).toHaveLength(6);
	});

	it('seals secrets before they reach the database', async () => {
		const document = profileDocument({ 'account[cloud_password]': PASSWORD });
		const id = await createProfile(adminB, 'With a password', document);
		const rows = await query('SELECT document, secrets FROM revisions WHERE profile_id = $1', [id]);
		expect(rows).toHaveLength(1);
		expect(rows[0].document).not.toContain(PASSWORD);
		expect(rows[0].secrets).toMatch(/^v1\./);
		expect(rows[0].secrets).not.toContain(PASSWORD);
		// Both processes open it with the shared key, and answer it masked.
		const seen = await adminA.json(`/api/profiles/${id}`);
		expect(seen.status).toBe(200);
		expect(seen.text).not.toContain(PASSWORD);
	});

	it('keeps the audit log append-only in the database', async () => {
		const [{ n }] = await query('SELECT COUNT(*)::int AS n FROM audit_log');
		expect(n).toBeGreaterThan(0);
		await expect(query("UPDATE audit_log SET action = 'x'")).rejects.toThrow(/append-only/);
		await expect(query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
		await expect(query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
	});

	it('answers 503 while the database is gone, fails other requests cleanly, and heals', async () => {
		const id = await createProfile(adminA, 'Before the outage');
		const saved = await adminA.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: { baseRevision: 1, document: profileDocument({ sms_body: 'kept' }) }
		});
		expect(saved.status).toBe(200);
		await sql?.end();
		sql = undefined;

		cluster.stopServer('fast');
		try {
			const health = await fetch(`${a.url}/api/health`);
			expect(health.status).toBe(503);
			expect(await health.json()).toEqual({
				ok: false,
				database: { backend: 'postgres', ok: false, message: 'The database does not answer.' }
			});
			for (const client of [adminA, adminB]) {
				const read = await client.json(`/api/profiles/${id}`);
				expect(read.status).toBe(503);
				expect(read.headers.get('retry-after')).toBe('5');
				expect(read.body.error).toEqual({
					code: 'database_unavailable',
					message: expect.stringMatching(/^The database does not answer/)
				});
			}
			const write = await adminB.json(`/api/profiles/${id}`, {
				method: 'PUT',
				json: { baseRevision: 2, document: profileDocument({ sms_body: 'during the outage' }) }
			});
			expect(write.status).toBe(503);
			const page = await adminA.fetch('/profiles');
			expect(page.status).toBe(503);
			expect(await page.text()).toContain('The database does not answer');
		} finally {
			cluster.startServer();
		}

		// Both processes heal by themselves: no restart.
		for (const server of [a, b]) {
			let status = 0;
			for (let i = 0; i < 100 && status !== 200; i++) {
				status = (await fetch(`${server.url}/api/health`)).status;
				if (status !== 200) await sleep(100);
			}
			expect(status).toBe(200);
		}
		const after = await adminB.json(`/api/profiles/${id}`);
		expect(after.status).toBe(200);
		expect(after.body.profile).toMatchObject({
			revision: 2,
			document: profileDocument({ sms_body: 'kept' })
		});
		const next = await adminA.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: { baseRevision: 2, document: profileDocument({ sms_body: 'after' }) }
		});
		expect(next.status).toBe(200);
		expect(a.stderr() + b.stderr()).toMatch(/database does not answer/);
	});
});
