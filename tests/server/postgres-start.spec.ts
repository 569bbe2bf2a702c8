import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../scripts/postgres-cluster.js';
import { ADMIN, ADMIN_ENV, sleep } from '../helpers/fixtures';
import { Client, startServer, stopAllServers, type TestServer } from '../helpers/server';

/**
 * How an instance on PostgreSQL starts: while its database does not answer it starts all the
 * same, answers 503 on the health check with a clear message, and finishes starting (migrations,
 * the first admin) by itself once the database is back, two instances at once included. Behind
 * a connection pooler that swallows notifications (a proxy here that drops PostgreSQL's
 * NotificationResponse messages, as a pooler in transaction mode does), an instance finds out
 * at start that LISTEN does not work, logs a warning, says so in its health check, and its live
 * pages poll: a push recorded by another instance still arrives.
 */

const SECRET_KEY = Buffer.alloc(32, 9).toString('base64');

let cluster: Cluster;

beforeAll(async () => {
	cluster = await startCluster();
}, 60_000);

afterAll(async () => {
	await stopAllServers();
	await cluster?.stop();
});

/** The health check's answer. */
async function health(server: TestServer) {
	const answer = await fetch(`${server.url}/api/health`);
	return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/** Asks `probe` every 100 ms until it is true, for 30 s at most. */
async function eventually(probe: () => Promise<boolean>): Promise<void> {
	for (let i = 0; i < 300; i++) {
		if (await probe()) return;
		await sleep(100);
	}
	throw new Error('It did not happen within 30 s.');
}

/**
 * A TCP proxy in front of the PostgreSQL server that passes everything but notifications
 * (message type `A`) on their way to the client: LISTEN is accepted, nothing is delivered.
 */
async function notificationDroppingProxy(port: number) {
	let dropped = 0;
	const sockets = new Set<Socket>();
	const server: Server = createServer((client) => {
		const upstream = connect(port, '127.0.0.1');
		sockets.add(client).add(upstream);
		client.pipe(upstream);
		let pending = Buffer.alloc(0);
		upstream.on('data', (chunk: Buffer) => {
			pending = Buffer.concat([pending, chunk]);
			const passed: Buffer[] = [];
			// Every message from the server: a type byte, then its length (which counts itself).
			while (pending.length >= 5) {
				const end = 1 + pending.readUInt32BE(1);
				if (pending.length < end) break;
				const message = pending.subarray(0, end);
				pending = pending.subarray(end);
				if (message[0] === 0x41) dropped++;
				else passed.push(message);
			}
			if (passed.length > 0) client.write(Buffer.concat(passed));
		});
		const close = () => {
			client.destroy();
			upstream.destroy();
			sockets.delete(client);
			sockets.delete(upstream);
		};
		for (const socket of [client, upstream]) {
			socket.on('error', close);
			socket.on('close', close);
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as AddressInfo).port,
		dropped: () => dropped,
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		}
	};
}

describe('an instance on PostgreSQL starting', () => {
	it('starts while the database is down, answers 503 with a clear message, and finishes once it is back', async () => {
		const url = await cluster.createDatabase('down_at_start');
		cluster.stopServer('fast');
		let a!: TestServer;
		let b!: TestServer;
		try {
			const env = { ...ADMIN_ENV, DATABASE_URL: url, SECRET_KEY };
			// Two instances on a database nobody migrated yet, both started during the outage.
			a = await startServer({ env, until: 'answering' });
			b = await startServer({ env, until: 'answering' });
			for (const server of [a, b]) {
				expect(await health(server)).toEqual({
					status: 503,
					body: {
						ok: false,
						database: { backend: 'postgres', ok: false, message: 'The database does not answer.' },
						liveUpdates: { mode: 'connecting' }
					}
				});
				const signIn = await new Client(server).login(ADMIN.email, ADMIN.password);
				expect(signIn.status).toBe(503);
				expect(signIn.body.error?.code).toBe('database_unavailable');
				await eventually(async () => /The database does not answer at start/.test(server.stderr()));
				expect(server.stderr()).toMatch(
					/The database does not answer at start \(.*ECONNREFUSED.*\): the app answers 503 meanwhile and tries again every 2 s\./
				);
			}
		} finally {
			cluster.startServer();
		}

		for (const server of [a, b]) {
			await eventually(async () => (await health(server)).status === 200);
			expect((await health(server)).body).toMatchObject({
				ok: true,
				database: { backend: 'postgres', ok: true }
			});
			// Once the instance has finished starting, the first admin exists: it signs in.
			await eventually(async () =>
				server.stderr().includes('The database answers: the app has started.')
			);
			expect((await new Client(server).login(ADMIN.email, ADMIN.password)).status).toBe(200);
		}
		// One admin, though both instances tried to create it; both processes still run.
		const admin = new Client(a);
		expect((await admin.login(ADMIN.email, ADMIN.password)).status).toBe(200);
		const users = await admin.json('/api/users');
		expect(users.body.users?.map((user) => user.email)).toEqual([ADMIN.email]);
		expect((await health(b)).status).toBe(200);
		expect(a.stderr() + b.stderr()).not.toMatch(/Starting failed/);
	});

	it('polls, with a warning and a health field, behind a pooler that swallows notifications', async () => {
		const url = new URL(await cluster.createDatabase('pooled'));
		const proxy = await notificationDroppingProxy(cluster.port);
		try {
			const env = { ...ADMIN_ENV, SECRET_KEY };
			// One instance reaches the server itself, the other only through the proxy.
			const direct = await startServer({ env: { ...env, DATABASE_URL: url.href } });
			url.port = String(proxy.port);
			const pooled = await startServer({ env: { ...env, DATABASE_URL: url.href } });

			await eventually(async () => (await health(pooled)).body.liveUpdates !== undefined);
			await eventually(
				async () =>
					((await health(pooled)).body.liveUpdates as { mode: string }).mode !== 'connecting'
			);
			expect((await health(pooled)).body).toMatchObject({
				ok: true,
				liveUpdates: {
					mode: 'poll',
					message: expect.stringMatching(/^LISTEN\/NOTIFY does not reach this instance/)
				}
			});
			expect(pooled.stderr()).toMatch(
				/"component":"cluster".*LISTEN\/NOTIFY does not reach this instance \(a connection pooler\?\)/
			);
			// Its own test notification was sent, and lost on the way.
			expect(proxy.dropped()).toBeGreaterThan(0);
			await eventually(
				async () => ((await health(direct)).body.liveUpdates as { mode: string }).mode === 'notify'
			);
			expect(direct.stderr()).not.toMatch(/does not reach this instance/);

			// A live page on C still shows a push D recorded: it asks the database.
			const admin = new Client(direct);
			expect((await admin.login(ADMIN.email, ADMIN.password)).status).toBe(200);
			const created = await admin.json<{ sandbox: { id: string; pushUrl: string } }>(
				'/api/sandboxes',
				{ method: 'POST', json: { name: 'Behind a pooler' } }
			);
			expect(created.status).toBe(201);
			const { id, pushUrl } = created.body.sandbox;
			const watcher = new Client(pooled);
			watcher.session = admin.session;
			const stream = await watcher.fetch(`/api/sandboxes/${id}/events`);
			expect(stream.status).toBe(200);
			const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
			let seen = '';
			const more = async () => {
				const { value, done } = await reader.read();
				if (done) throw new Error(`The stream ended after:\n${seen}`);
				seen += value;
			};
			while (!seen.includes(': connected')) await more();
			const pushed = await fetch(`${direct.url}${new URL(pushUrl).pathname}/pnm2/send`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					verb: 'NotifyGenericTextMessage',
					AppId: 'com.provider.app',
					DeviceToken: 'token-c',
					Message: 'Heard by polling'
				})
			});
			expect(pushed.status).toBe(200);
			while (!/event: push\n(.*\n)*data: .*Heard by polling/.test(seen)) await more();
			await reader.cancel();
			expect(seen).toContain('Heard by polling');
		} finally {
			await proxy.close();
		}
	});
});
