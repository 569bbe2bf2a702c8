import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../scripts/postgres-cluster.js';
import { ADMIN, ADMIN_ENV, sleep } from '../helpers/fixtures';
import { Client, startServer, stopAllServers, type TestServer } from '../helpers/server';

/**
 * The audit stream with two instances of the real server on one PostgreSQL (a throw-away
 * cluster this file starts): entries recorded on either instance, while both read the outbox,
 * reach the receiver each exactly once (the instances claim rows with `FOR UPDATE SKIP LOCKED`),
 * every message signed, and the outbox ends empty.
 */

const SECRET = `whsec_${Buffer.alloc(32, 13).toString('base64')}`;

let cluster: Cluster;
let url: string;
let receiver: Server;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let a: TestServer;
let b: TestServer;
let adminA: Client;
let adminB: Client;
let sql: pg.Client | undefined;

async function query(text: string) {
	if (!sql) {
		sql = new pg.Client({ connectionString: url });
		await sql.connect();
	}
	return (await sql.query(text)).rows;
}

beforeAll(async () => {
	receiver = createServer((req, res) => {
		let body = '';
		req.setEncoding('utf8');
		req.on('data', (chunk: string) => (body += chunk));
		req.on('end', () => {
			received.push({ headers: req.headers, body });
			res.writeHead(200).end('ok');
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	const { port } = receiver.address() as AddressInfo;
	cluster = await startCluster();
	url = await cluster.createDatabase('audit_stream');
	const env = {
		...ADMIN_ENV,
		DATABASE_URL: url,
		SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
		AUDIT_WEBHOOK_URL: `http://127.0.0.1:${port}/hook`,
		AUDIT_WEBHOOK_SECRET: SECRET,
		AUDIT_STREAM_RETRY_MS: '20',
		AUDIT_STREAM_RETRY_MAX_MS: '100',
		// Both instances read the outbox often, so they claim at the same moments.
		AUDIT_STREAM_POLL_MS: '10'
	};
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
	receiver?.closeAllConnections();
	await new Promise((resolve) => receiver?.close(resolve));
});

describe('the audit stream on PostgreSQL with two instances', () => {
	it('delivers each entry exactly once, whichever instance recorded it', async () => {
		// Entries recorded on both instances at once, in bursts.
		await Promise.all(
			Array.from({ length: 24 }, (_, i) =>
				(i % 2 ? adminA : adminB).json('/api/tokens', {
					method: 'POST',
					json: { name: `token ${i}` }
				})
			)
		).then((answers) => expect(answers.map((r) => r.status)).toEqual(Array(24).fill(201)));

		const ids = (await query('SELECT id FROM audit_log ORDER BY id')).map((r) => Number(r.id));
		expect(ids.length).toBeGreaterThanOrEqual(26);
		const deadline = Date.now() + 30_000;
		while ((await query('SELECT audit_id FROM audit_outbox')).length > 0) {
			if (Date.now() > deadline) throw new Error('The outbox did not empty.');
			await sleep(25);
		}

		const webhook = new Webhook(SECRET);
		const delivered = received.map((message) => {
			const payload = webhook.verify(message.body, {
				'webhook-id': String(message.headers['webhook-id']),
				'webhook-timestamp': String(message.headers['webhook-timestamp']),
				'webhook-signature': String(message.headers['webhook-signature'])
			}) as { data: { id: number } };
			expect(message.headers['webhook-id']).toBe(`audit_${payload.data.id}`);
			return payload.data.id;
		});
		// Each once: no entry twice, none missing.
		expect([...delivered].sort((x, y) => x - y)).toEqual(ids);

		// Both instances see the same state of the stream.
		for (const admin of [adminA, adminB]) {
			const state = await admin.json<{ stream: Record<string, unknown> }>('/api/audit/stream');
			expect(state.body.stream).toMatchObject({ configured: true, backlog: 0, lastError: null });
			expect(ids).toContain(state.body.stream.lastDeliveredId);
		}
	});
});
