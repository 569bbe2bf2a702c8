import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditStreamStatus } from '../../src/lib/server/audit/stream';
import { ADMIN, ADMIN_ENV, sleep } from '../helpers/fixtures';
import { promtoolCheckMetrics } from '../helpers/promtool';
import {
	Client,
	makeDataDir,
	startServer,
	stopAllServers,
	type TestServer
} from '../helpers/server';

/**
 * The audit stream on the real server (SQLite), against a real receiver on 127.0.0.1: it
 * answers 500, then does not answer at all (the call times out), then takes the messages. Every
 * message verifies with the Standard Webhooks library's own `Webhook.verify`, carries the entry
 * and its request id and no secret, and comes in the order of the entries. Entries recorded while
 * the receiver fails are still delivered after the server stopped and started again, none lost,
 * in order. The stream's waits are shortened with its internal settings: nothing here sleeps for
 * seconds. PostgreSQL with two instances: audit-stream-postgres.spec.ts.
 */

const SECRET = `whsec_${Buffer.alloc(32, 11).toString('base64')}`;
const METRICS_TOKEN = 'a-metrics-token-of-some-length';

/** What the receiver answers: 500, nothing (the sender times out), 204, or 204 when told. */
type Answer = 'fail' | 'hang' | 'accept' | 'held';

interface Received {
	answer: Answer;
	path: string;
	headers: IncomingHttpHeaders;
	body: string;
}

let receiver: Server;
let answer: Answer = 'fail';
/** Answers of held requests, sent when the test says. */
const held: (() => void)[] = [];
const received: Received[] = [];
let dataDir: string;
let server: TestServer;
let admin: Client;
let env: Record<string, string>;

/** Waits until `check` holds (polling), failing with `what` after 30 s. */
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
	const deadline = Date.now() + 30_000;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`Still waiting for ${what}.`);
		await sleep(25);
	}
}

async function streamState(): Promise<AuditStreamStatus> {
	const answer = await admin.json<{ stream: AuditStreamStatus }>('/api/audit/stream');
	expect(answer.status).toBe(200);
	return answer.body.stream;
}

/** Every entry of the audit log, oldest first. */
async function auditIds(): Promise<number[]> {
	const answer = await admin.json('/api/audit?limit=1000');
	return answer.body.entries!.map((e) => e.id).reverse();
}

/** The ids of the entries the receiver took (answered 204), in the order it took them. */
function accepted(): number[] {
	return received
		.filter((r) => r.answer === 'accept')
		.map((r) => Number(String(r.headers['webhook-id']).replace(/^audit_/, '')));
}

async function signIn(): Promise<Client> {
	const client = new Client(server);
	expect((await client.login(ADMIN.email, ADMIN.password)).status).toBe(200);
	return client;
}

beforeAll(async () => {
	receiver = createServer((req, res) => {
		let body = '';
		req.setEncoding('utf8');
		req.on('data', (chunk: string) => (body += chunk));
		req.on('end', () => {
			const now = answer;
			received.push({ answer: now, path: req.url ?? '', headers: req.headers, body });
			if (now === 'hang') return;
			if (now === 'held') held.push(() => res.writeHead(204).end());
			else res.writeHead(now === 'accept' ? 204 : 500).end();
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	const { port } = receiver.address() as AddressInfo;
	dataDir = await makeDataDir();
	env = {
		...ADMIN_ENV,
		METRICS_TOKEN,
		// The operator's own receiver: loopback, any port, without OUTBOUND_ALLOW.
		AUDIT_WEBHOOK_URL: `http://127.0.0.1:${port}/audit/in?key=receiver-key`,
		AUDIT_WEBHOOK_SECRET: SECRET,
		AUDIT_STREAM_RETRY_MS: '20',
		AUDIT_STREAM_RETRY_MAX_MS: '100',
		AUDIT_STREAM_POLL_MS: '50',
		// A receiver that does not answer costs half a second, not fifteen.
		OUTBOUND_TOTAL_TIMEOUT_MS: '500'
	};
	server = await startServer({ env, dataDir });
	admin = await signIn();
}, 60_000);

afterAll(async () => {
	await stopAllServers();
	receiver?.closeAllConnections();
	await new Promise((resolve) => receiver?.close(resolve));
});

describe('the audit stream', () => {
	it('retries through errors and a timeout, then delivers every entry signed and in order', async () => {
		// The receiver fails: the first entry is tried again and again, nothing newer overtakes it.
		await until('two failed attempts', () => received.length >= 2);
		expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
		const failing = await streamState();
		expect(failing).toMatchObject({ configured: true, lastDeliveredAt: null });
		expect(failing.target).toBe(new URL(env.AUDIT_WEBHOOK_URL).host);
		expect(failing.backlog).toBeGreaterThanOrEqual(2);

		// Then it does not answer: the call times out and counts as a failure too.
		answer = 'hang';
		await until('a timed-out attempt', async () =>
			/no complete answer/.test((await streamState()).lastError ?? '')
		);
		const timedOut = await streamState();
		// The error names the receiver's origin, never its path or key.
		expect(timedOut.lastError).toContain(new URL(env.AUDIT_WEBHOOK_URL).origin);
		expect(timedOut.lastError).not.toContain('receiver-key');

		// An entry with a request id of the caller's, recorded while the receiver is down.
		const created = await admin.json('/api/tokens', {
			method: 'POST',
			json: { name: 'ci' },
			headers: { 'x-request-id': 'stream-test-1' }
		});
		expect(created.status).toBe(201);

		answer = 'accept';
		const ids = await auditIds();
		await until('every entry delivered', async () => (await streamState()).backlog === 0);
		expect(accepted()).toEqual(ids);

		const webhook = new Webhook(SECRET);
		for (const message of received.filter((r) => r.answer === 'accept')) {
			expect(message.path).toBe('/audit/in?key=receiver-key');
			expect(message.headers['content-type']).toBe('application/json');
			const payload = webhook.verify(message.body, {
				'webhook-id': String(message.headers['webhook-id']),
				'webhook-timestamp': String(message.headers['webhook-timestamp']),
				'webhook-signature': String(message.headers['webhook-signature'])
			}) as { type: string; timestamp: string; data: { id: number; at: number } };
			expect(payload.type).toBe('audit.entry');
			expect(message.headers['webhook-id']).toBe(`audit_${payload.data.id}`);
			expect(payload.timestamp).toBe(new Date(payload.data.at).toISOString());
			// No secret of the app travels: not the token made, not the admin's password.
			expect(message.body).not.toContain(created.body.token!);
			expect(message.body).not.toContain(ADMIN.password);
			expect(message.body).not.toContain(SECRET);
		}
		const token = received.find((r) => r.answer === 'accept' && r.body.includes('token.created'));
		expect(JSON.parse(token!.body).data).toMatchObject({
			action: 'token.created',
			actor: ADMIN.email,
			details: { name: 'ci', requestId: 'stream-test-1' }
		});

		const state = await streamState();
		expect(state.lastDeliveredId).toBe(ids.at(-1));
		expect(state.lastDeliveredAt).not.toBeNull();
		expect(state.lastError).toMatch(/no complete answer/);

		const metrics = await fetch(`${server.url}/metrics`, {
			headers: { authorization: `Bearer ${METRICS_TOKEN}` }
		}).then((r) => r.text());
		expect(metrics).toMatch(
			/^provisioning_audit_stream_deliveries_total\{result="success"\} [1-9]/m
		);
		expect(metrics).toMatch(
			/^provisioning_audit_stream_deliveries_total\{result="failure"\} [1-9]/m
		);
		expect(metrics).toMatch(/^provisioning_audit_stream_backlog 0$/m);
		expect(metrics).toMatch(
			/^provisioning_audit_stream_delivery_duration_seconds_count\{result="failure"\} [1-9]/m
		);
		// Prometheus' own linter has nothing to say of the stream's families with their samples.
		expect(await promtoolCheckMetrics(metrics)).toBe('');
	});

	it('loses nothing across a restart: entries recorded before it are delivered after it, in order', async () => {
		answer = 'fail';
		const before = received.length;
		for (const name of ['first', 'second', 'third']) {
			expect((await admin.json('/api/tokens', { method: 'POST', json: { name } })).status).toBe(
				201
			);
		}
		const ids = await auditIds();
		const delivered = new Set(accepted());
		const waiting = ids.filter((id) => !delivered.has(id));
		expect(waiting.length).toBeGreaterThanOrEqual(3);
		// It is being tried (and refused) when the server is told to stop.
		await until('a refused attempt', () => received.length > before);
		expect(await server.terminate('SIGTERM')).toBe(0);
		expect(server.stdout() + server.stderr()).toMatch(/did not take entry/);

		answer = 'accept';
		const from = received.length;
		server = await startServer({ env, dataDir });
		admin = await signIn();
		// Everything recorded so far, the new sign-in too, reaches the receiver.
		const all = await auditIds();
		await until('the entries of before the restart', async () => {
			const got = new Set(accepted());
			return all.every((id) => got.has(id));
		});
		const after = received
			.slice(from)
			.filter((r) => r.answer === 'accept')
			.map((r) => Number(String(r.headers['webhook-id']).slice('audit_'.length)));
		// In order, each once, starting with the first one the receiver refused.
		expect(after.slice(0, waiting.length)).toEqual(waiting);
		expect(new Set(accepted()).size).toBe(accepted().length);
		expect(accepted()).toEqual([...accepted()].sort((a, b) => a - b));
	});

	it('lets a delivery under way finish when the server stops, and sends it once', async () => {
		await until('nothing waiting', async () => (await streamState()).backlog === 0);
		answer = 'held';
		expect(
			(await admin.json('/api/tokens', { method: 'POST', json: { name: 'last' } })).status
		).toBe(201);
		const id = (await auditIds()).at(-1)!;
		await until('the delivery under way', () => held.length === 1);
		const stopped = server.terminate('SIGTERM');
		// The receiver answers once the server is stopping: the delivery counts.
		await until('the stop under way', () => /SIGTERM: stopping/.test(server.stdout()));
		held.shift()!();
		expect(await stopped).toBe(0);

		answer = 'accept';
		server = await startServer({ env, dataDir });
		admin = await signIn();
		const state = await streamState();
		expect(state.lastDeliveredId).toBeGreaterThanOrEqual(id);
		// The held message was its only one: nothing sent it again after the restart.
		await until('the new sign-in delivered', async () => (await streamState()).backlog === 0);
		expect(received.filter((r) => r.headers['webhook-id'] === `audit_${id}`)).toHaveLength(1);
	});

	it('carries no text typed as the e-mail of a failed sign-in unless it is an account’s address', async () => {
		const typed = 'Summer@2024!Secret';
		answer = 'accept';
		const from = received.length;
		// Through the sign-in page, then the API until the limit refuses it.
		const page = await new Client(server).fetch('/login', {
			method: 'POST',
			body: new URLSearchParams({ email: typed, password: 'whatever-it-was' }).toString(),
			headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }
		});
		expect(page.status).toBe(401);
		const statuses: number[] = [];
		for (let i = 0; i < 5; i++) {
			statuses.push((await new Client(server).login(typed, 'whatever-it-was')).status);
		}
		expect(statuses).toEqual([401, 401, 401, 401, 429]);
		expect((await new Client(server).login(`x${typed}`, 'whatever-it-was')).status).toBe(401);
		expect((await new Client(server).login(ADMIN.email, 'not-the-password')).status).toBe(401);

		const log = await admin.json('/api/audit?action=login.failure&limit=8');
		const [known, other, ...mine] = log.body.entries!;
		expect(JSON.stringify(log.body)).not.toContain(typed);
		expect(known).toMatchObject({ actor: ADMIN.email, details: { reason: 'wrong_password' } });
		expect(known.details).not.toHaveProperty('typed');
		expect(mine.map((e) => [e.actor, e.details?.reason])).toEqual([
			['(unknown address)', 'rate_limited'],
			...Array<[string, string]>(5).fill(['(unknown address)', 'unknown_user'])
		]);
		// The same text has the same keyed hash, another text another: attempts can be told apart.
		const hashes = new Set(mine.map((e) => e.details?.typed));
		expect(hashes.size).toBe(1);
		expect([...hashes][0]).toMatch(/^hmac-sha256:[0-9a-f]{16}$/);
		expect(other.details?.typed).toMatch(/^hmac-sha256:[0-9a-f]{16}$/);
		expect(other.details?.typed).not.toBe(mine[0].details?.typed);

		for (const format of ['jsonl', 'csv']) {
			const file = await admin.fetch(`/api/audit/export?format=${format}`);
			expect(file.status).toBe(200);
			const text = await file.text();
			expect(text).toContain('(unknown address)');
			expect(text).not.toContain(typed);
		}
		await until('the failures delivered', async () => (await streamState()).backlog === 0);
		const sent = received.slice(from).filter((r) => r.answer === 'accept');
		expect(sent.some((r) => r.body.includes('(unknown address)'))).toBe(true);
		for (const message of sent) expect(message.body).not.toContain(typed);
	});
});
