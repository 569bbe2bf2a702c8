import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, createUser, serverWithAdmin, type TestUser } from '../helpers/fixtures';
import { Client, startServer, stopAllServers, type TestServer } from '../helpers/server';
import { ADMIN, ADMIN_ENV } from '../helpers/fixtures';

/**
 * The audit log exported as JSON Lines and CSV by the real built server, the CSV read back by
 * Python's `csv` module (the reader spreadsheets' importers and pipelines behave like), over
 * more entries than one page of the export.
 */

let server: TestServer;
let admin: Client;
let editor: TestUser;
/** Entries written straight into the database, besides what the app recorded. */
const BULK = 2345;
const NASTY_NAME = '=HYPERLINK("http://evil.example","click"), "quoted"\nsecond line';

beforeAll(async () => {
	({ server, admin } = await serverWithAdmin());
	editor = await createUser(admin, 'editor', 'export-editor@example.test');
	const id = await createProfile(admin, 'Acme');
	const renamed = await admin.json(`/api/profiles/${id}`, {
		method: 'PATCH',
		json: { name: NASTY_NAME }
	});
	expect(renamed.status).toBe(200);
	// More entries than a page of the export, written while the app is stopped.
	await server.stop();
	const db = new Database(path.join(server.dataDir, 'provisioning.db'));
	const insert = db.prepare(
		'INSERT INTO audit_log (at, actor_id, actor, action, target, ip, details) VALUES (?, ?, ?, ?, ?, ?, ?)'
	);
	db.transaction(() => {
		for (let i = 0; i < BULK; i++) {
			insert.run(
				Date.UTC(2026, 0, 1) + i * 1000,
				null,
				'@bulk',
				'bulk.entry',
				`t-${i}`,
				'-1',
				null
			);
		}
	})();
	db.close();
	server = await startServer({ env: ADMIN_ENV, dataDir: server.dataDir });
	admin = new Client(server);
	expect((await admin.login(ADMIN.email, ADMIN.password)).status).toBe(200);
	editor.client = new Client(server);
	expect((await editor.client.login(editor.email, editor.password)).status).toBe(200);
});

afterAll(stopAllServers);

/** Every entry through the JSON API, newest first, page by page. */
async function allEntries(query = '') {
	const entries: { id: number; action: string; actor: string | null; target: string | null }[] = [];
	let before = '';
	for (;;) {
		const page = await admin.json(`/api/audit?limit=1000${query}${before}`);
		entries.push(...page.body.entries!);
		if (page.body.entries!.length < 1000) return entries;
		before = `&before=${page.body.entries!.at(-1)!.id}`;
	}
}

describe('GET /api/audit/export', () => {
	it('JSON Lines: every entry once, oldest first, each line an entry as the API shows it', async () => {
		const expected = (await allEntries()).reverse();
		const answer = await admin.fetch('/api/audit/export?format=jsonl');
		expect(answer.status).toBe(200);
		expect(answer.headers.get('content-type')).toBe('application/jsonl; charset=utf-8');
		expect(answer.headers.get('content-disposition')).toMatch(
			/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.jsonl"$/
		);
		const lines = (await answer.text()).split('\n');
		expect(lines.pop()).toBe('');
		const exported = lines.map((line) => JSON.parse(line));
		expect(exported.length).toBeGreaterThan(BULK);
		// The export itself is recorded as it starts: its own entry is the last line.
		expect(exported.slice(0, -1).map((e) => e.id)).toEqual(expected.map((e) => e.id));
		expect(exported.at(-1)).toMatchObject({
			action: 'audit.exported',
			details: { format: 'jsonl' }
		});
		expect(exported[0]).toMatchObject({ ...expected[0], time: expect.any(String) });
		expect(new Date(exported[0].time).getTime()).toBe(exported[0].at);
	});

	it("CSV: RFC 4180 as Python's csv module reads it, formulas made safe", async () => {
		const answer = await admin.fetch('/api/audit/export?format=csv');
		expect(answer.status).toBe(200);
		expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
		const file = path.join(server.dataDir, 'export.csv');
		writeFileSync(file, Buffer.from(await answer.arrayBuffer()));
		const rows = JSON.parse(
			execFileSync('python3', [
				'-c',
				'import csv, json, sys\n' +
					'with open(sys.argv[1], newline="", encoding="utf-8") as f:\n' +
					'    print(json.dumps(list(csv.reader(f, strict=True))))',
				file
			]).toString()
		) as string[][];
		expect(rows[0]).toEqual([
			'id',
			'time',
			'actor_id',
			'actor',
			'action',
			'target',
			'ip',
			'details'
		]);
		const entries = (await allEntries()).reverse();
		// Every entry, the export's own last (the list was read after the export began).
		expect(rows.slice(1).map((row) => Number(row[0]))).toEqual(entries.map((e) => e.id));
		expect(rows.at(-1)![4]).toBe('audit.exported');
		expect(rows.slice(1).every((row) => row.length === 8)).toBe(true);
		const renamed = rows.find((row) => row[4] === 'profile.renamed')!;
		// The name in details is JSON, whole, line break and quotes included.
		expect(JSON.parse(renamed[7])).toEqual({ name: NASTY_NAME, requestId: expect.any(String) });
		const bulk = rows.find((row) => row[4] === 'bulk.entry')!;
		// Cells a spreadsheet would run as formulas start with a quote.
		expect(bulk[3]).toBe("'@bulk");
		expect(bulk[6]).toBe("'-1");
		expect(bulk[1]).toBe('2026-01-01T00:00:00.000Z');
		expect(rows.filter((row) => row[4] === 'bulk.entry')).toHaveLength(BULK);
	});

	it("takes the audit page's filters", async () => {
		const answer = await admin.fetch(
			'/api/audit/export?format=jsonl&action=bulk.&since=2026-01-01T00:10:00Z&until=2026-01-01T00:20:00Z'
		);
		const exported = (await answer.text())
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
		expect(exported).toHaveLength(600);
		expect(exported.every((e) => e.action === 'bulk.entry')).toBe(true);
		const byActor = await admin.fetch('/api/audit/export?format=csv&actor=export-editor');
		const lines = (await byActor.text()).trimEnd().split('\r\n');
		expect(lines.length).toBeGreaterThan(1);
		expect(lines.slice(1).every((line) => line.includes('export-editor@example.test'))).toBe(true);
		const audited = await admin.json('/api/audit?action=audit.exported&limit=1');
		expect(audited.body.entries![0].details).toMatchObject({
			format: 'csv',
			actor: 'export-editor'
		});
	});

	it('is for admins; a wrong format or time is a 400 naming it', async () => {
		expect((await editor.client.fetch('/api/audit/export?format=csv')).status).toBe(403);
		expect((await new Client(server).fetch('/api/audit/export')).status).toBe(401);
		const format = await admin.json('/api/audit/export?format=xlsx');
		expect(format.status).toBe(400);
		expect(format.body.error?.code).toBe('invalid_input');
		expect(format.body.issues![0].path).toEqual(['format']);
		const since = await admin.json('/api/audit/export?since=yesterday');
		expect(since.status).toBe(400);
		expect(since.body.issues![0]).toMatchObject({ path: ['since'] });
	});
});
