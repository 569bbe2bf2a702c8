import http from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../scripts/postgres-cluster.js';
import {
	ADMIN_ENV,
	createProfile,
	profileDocument,
	serverWithAdmin,
	sleep
} from '../helpers/fixtures';
import { Client, startServer, stopAllServers, type TestServer } from '../helpers/server';
import { startUpstream, type Upstream } from '../helpers/upstream';

/**
 * How operators run the app: liveness and readiness probes, a request id on every answer, and a
 * graceful stop on SIGTERM or SIGINT (the built server, `scripts/serve.js`, as a child process),
 * with real slow upstreams, a save whose body is still arriving, and an event stream open.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const OUTBOUND = { OUTBOUND_ALLOW: '127.0.0.1/32', OUTBOUND_PORTS: '1024-65535' };

let upstream: Upstream;

beforeAll(async () => {
	upstream = await startUpstream();
});

afterAll(async () => {
	await upstream.stop();
	await stopAllServers();
});

/** Waits until `probe` is true, for 10 s at most. */
async function until(probe: () => boolean, what: string): Promise<void> {
	for (let i = 0; i < 200; i++) {
		if (probe()) return;
		await sleep(50);
	}
	throw new Error(`Not within 10 s: ${what}`);
}

/** An upstream answer that comes after `ms`. */
function slowAnswer(ms: number, body: string) {
	return (_req: http.IncomingMessage, res: http.ServerResponse) => {
		setTimeout(() => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(body);
		}, ms);
	};
}

/** A test call of Send Message to `url`, as the editor sends it. */
function testCallBody(url: string): string {
	return JSON.stringify({
		service: 'sendMessage',
		settings: {
			genericSmsSendUrl: url,
			genericSmsSendPostData: '{"to":"%sms_to%"}',
			genericSmsSendContentType: 'application/json'
		},
		values: { sms_to: '+14155550123' }
	});
}

describe('health probes and request ids', () => {
	let server: TestServer;

	beforeAll(async () => {
		server = await startServer({ env: ADMIN_ENV });
	});

	it('liveness answers without the database; readiness with it; neither needs a session', async () => {
		const live = await fetch(`${server.url}/api/health/live`);
		expect(live.status).toBe(200);
		const liveBody = await live.json();
		expect(liveBody).toMatchObject({ ok: true, eventLoop: { stuck: false } });
		expect(liveBody.eventLoop.maxMs).toBeGreaterThanOrEqual(0);
		const ready = await fetch(`${server.url}/api/health/ready`);
		expect(ready.status).toBe(200);
		expect(await ready.json()).toMatchObject({
			ok: true,
			database: { backend: 'sqlite', ok: true }
		});
		// The old health check is as it was.
		expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
	});

	it('every answer carries X-Request-Id; a sane id of the caller is kept, any other replaced', async () => {
		const paths = [
			'/api/health/live',
			'/api/profiles', // 401: no session
			'/no-such-page', // 404
			'/sandbox/not-a-key/pnm2/send' // the gateway, served before the kit
		];
		for (const path of paths) {
			const made = await fetch(server.url + path);
			expect(made.headers.get('x-request-id'), path).toMatch(UUID);
			const kept = await fetch(server.url + path, {
				headers: { 'x-request-id': 'lb-7f3a.9C_21-x' }
			});
			expect(kept.headers.get('x-request-id'), path).toBe('lb-7f3a.9C_21-x');
		}
		for (const insane of ['has space', 'a'.repeat(129), 'semi;colon', 'slash/x', '']) {
			const answer = await fetch(`${server.url}/api/health/live`, {
				headers: { 'x-request-id': insane }
			});
			expect(answer.headers.get('x-request-id'), insane).toMatch(UUID);
		}
		const direct = await fetch(`${server.url}/api/test-calls`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-request-id': 'ci-run-42' },
			body: testCallBody('https://sms.example.com/send')
		});
		expect(direct.status).toBe(401);
		expect(direct.headers.get('x-request-id')).toBe('ci-run-42');
	});
});

describe('a graceful stop', () => {
	it('answers the test call in flight, is not ready from the first moment, ends event streams with a last event, and exits 0', async () => {
		const { server, admin } = await serverWithAdmin(OUTBOUND);
		const sandbox = await admin.json<{ sandbox?: { id: string } }>('/api/sandboxes', {
			method: 'POST',
			json: { name: 'Stream' }
		});
		const stream = await admin.fetch(`/api/sandboxes/${sandbox.body.sandbox!.id}/events`);
		expect(stream.headers.get('content-type')).toBe('text/event-stream');
		const streamed = stream.text();

		upstream.answerNext(slowAnswer(1500, '{"sms_id": "late-1"}'));
		const seen = upstream.requests.length;
		const body = testCallBody(`${upstream.url}/slow`);
		const socket = connect(server.port, '127.0.0.1');
		let received = '';
		socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
		const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
		socket.write(
			`POST /api/test-calls HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n` +
				`Origin: ${server.url}\r\nCookie: ps_session=${admin.session}\r\n` +
				`Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
		);
		await until(() => upstream.requests.length > seen, 'the test call reached the upstream');

		const exit = server.terminate('SIGTERM');
		await until(() => /SIGTERM: stopping/.test(server.stdout()), 'the stop began');
		// The same connection asks for readiness while the call is still running: the call's
		// answer keeps the connection for it, the last one closes it.
		socket.write(`GET /api/health/ready HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
		await closed;

		const [first, second] = received.split(/(?=HTTP\/1\.1 )/);
		expect(first).toMatch(/^HTTP\/1\.1 200 /);
		expect(first).toContain('late-1');
		expect(second).toMatch(/^HTTP\/1\.1 503 /);
		expect(second.toLowerCase()).toContain('connection: close');
		expect(second).toContain('"reason":"stopping"');
		// A new connection is refused: the server no longer listens.
		await expect(fetch(`${server.url}/api/health/live`)).rejects.toThrow();

		expect(await streamed).toMatch(/event: reconnect\ndata: \{\}\n\n$/);
		expect(await exit).toBe(0);
		expect(server.stdout()).toContain('Told 1 event stream(s) to reconnect elsewhere.');
		expect(server.stdout()).toMatch(/Stopped in \d+ ms\./);
	});

	it('closes a kept-alive connection after an answer sent during the stop, whenever its request came', async () => {
		const { server, admin } = await serverWithAdmin();
		const made = await admin.json<{ sink: { key: string; path: string } }>('/api/sinks', {
			method: 'POST',
			json: { name: 'Late', answer: { status: 200, contentType: '', body: 'late', delayMs: 1500 } }
		});
		expect(made.status).toBe(201);
		const socket = connect(server.port, '127.0.0.1');
		let received = '';
		let reset = false;
		socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
		socket.on('error', () => (reset = true));
		const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
		socket.write(
			`POST ${made.body.sink.path}a HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n` +
				`Content-Length: 1\r\n\r\nx`
		);
		const requests = async () =>
			(await admin.json<{ requests: unknown[] }>(`/api/sinks/${made.body.sink.key}`)).body
				.requests ?? [];
		for (let i = 0; i < 200 && (await requests()).length === 0; i++) await sleep(50);
		expect(await requests()).toHaveLength(1);

		// The request came before the stop; its answer goes out after it began.
		const exit = server.terminate('SIGTERM');
		await until(() => /SIGTERM: stopping/.test(server.stdout()), 'the stop began');
		await closed;
		expect(received).toMatch(/^HTTP\/1\.1 200 /);
		expect(received.toLowerCase()).toContain('\r\nconnection: close\r\n');
		expect(received).toMatch(/\r\n\r\n4\r\nlate\r\n0\r\n\r\n$/);
		expect(reset).toBe(false);
		expect(await exit).toBe(0);
	});

	it('commits and answers a save whose body is still arriving when the stop begins', async () => {
		const { server, admin } = await serverWithAdmin();
		const id = await createProfile(admin, 'Saved while stopping');
		const document = profileDocument({ sms_body: 'x'.repeat(200_000) });
		const body = Buffer.from(JSON.stringify({ baseRevision: 1, document, message: 'in flight' }));
		let request!: http.ClientRequest;
		const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
			request = http.request(
				`${server.url}/api/profiles/${id}`,
				{
					method: 'PUT',
					headers: {
						'content-type': 'application/json',
						'content-length': body.length,
						origin: server.url,
						cookie: `ps_session=${admin.session}`
					}
				},
				(res) => {
					let text = '';
					res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
					res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
				}
			);
			request.on('error', reject);
		});
		// The headers and the start of the body are in; the rest comes after the stop began.
		request.write(body.subarray(0, 1000));
		await sleep(200);
		const exit = server.terminate('SIGTERM');
		await until(() => /SIGTERM: stopping; answering the 1 request/.test(server.stdout()), 'stop');
		await sleep(200);
		request.end(body.subarray(1000));
		const saved = await answer;
		expect(saved.status, saved.text).toBe(200);
		expect(JSON.parse(saved.text).profile.revision).toBe(2);
		expect(await exit).toBe(0);

		// After a restart on the same data, the revision is there, whole.
		const again = await startServer({ env: ADMIN_ENV, dataDir: server.dataDir });
		const reader = new Client(again);
		await reader.login(ADMIN_ENV.ADMIN_EMAIL, ADMIN_ENV.ADMIN_PASSWORD);
		const profile = await reader.json(`/api/profiles/${id}`);
		expect(profile.body.profile!.revision).toBe(2);
		expect(profile.body.profile!.document.scenarios[0].values.sms_body).toHaveLength(200_000);
	});

	it('finishes the test call of a caller that went away, and keeps it in the history, before it closes the database', async () => {
		const { server, admin } = await serverWithAdmin(OUTBOUND);
		upstream.answerNext(slowAnswer(1500, '{"sms_id": "after-the-caller"}'));
		const seen = upstream.requests.length;
		const body = testCallBody(`${upstream.url}/gone`);
		const socket = connect(server.port, '127.0.0.1');
		socket.write(
			`POST /api/test-calls HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n` +
				`Origin: ${server.url}\r\nCookie: ps_session=${admin.session}\r\n` +
				`Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
		);
		await until(() => upstream.requests.length > seen, 'the test call reached the upstream');
		// The caller goes away: its request ends for the HTTP server (logged without a status)
		// while the app still waits for the upstream.
		socket.destroy();
		await until(
			() => /"route":"\/api\/test-calls","status":0/.test(server.stdout()),
			'the request ended for the HTTP server'
		);

		expect(await server.terminate('SIGTERM')).toBe(0);
		expect(server.stdout()).toContain('answering the 0 request(s) in flight');
		expect(server.stderr()).not.toMatch(/destroyed|failed unexpectedly|answered 500/);

		// After a restart on the same data, the call is in the history with the upstream's answer.
		const again = await startServer({ env: ADMIN_ENV, dataDir: server.dataDir });
		const reader = new Client(again);
		await reader.login(ADMIN_ENV.ADMIN_EMAIL, ADMIN_ENV.ADMIN_PASSWORD);
		const list = await reader.json<{ calls: { id: number; url: string }[] }>(
			'/api/test-calls?service=sendMessage'
		);
		expect(list.body.calls.map((c) => c.url)).toEqual([`${upstream.url}/gone`]);
		const entry = await reader.json(`/api/test-calls/${list.body.calls[0].id}`);
		expect(entry.status).toBe(200);
		expect(entry.text).toContain('after-the-caller');
	});

	it('does not wait out a sink’s delay once its caller has gone: the request is recorded, nothing is left to finish', async () => {
		const { server, admin } = await serverWithAdmin({ SHUTDOWN_TIMEOUT_SECONDS: '2' });
		const made = await admin.json<{ sink: { key: string; path: string } }>('/api/sinks', {
			method: 'POST',
			json: { name: 'Slow', answer: { status: 204, contentType: '', body: '', delayMs: 10_000 } }
		});
		expect(made.status).toBe(201);
		const socket = connect(server.port, '127.0.0.1');
		socket.write(
			`GET ${made.body.sink.path}gone HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`
		);
		const requests = async () =>
			(await admin.json<{ requests: { path: string }[] }>(`/api/sinks/${made.body.sink.key}`)).body
				.requests ?? [];
		for (let i = 0; i < 200 && (await requests()).length === 0; i++) await sleep(50);
		expect((await requests()).map((r) => r.path)).toEqual(['/gone']);
		socket.destroy();
		await until(
			() => /"route":"\/sink\/\[key\]\/\[\.\.\.path\]","status":0/.test(server.stdout()),
			'the request ended for the HTTP server'
		);

		expect(await server.terminate('SIGTERM')).toBe(0);
		expect(server.stderr()).not.toContain('still under way');
		expect(server.stderr()).not.toContain('still in flight');
	});

	it('closes what is still in flight after SHUTDOWN_TIMEOUT_SECONDS, and still exits 0', async () => {
		const { server, admin } = await serverWithAdmin({ ...OUTBOUND, SHUTDOWN_TIMEOUT_SECONDS: '1' });
		upstream.answerNext(slowAnswer(6000, '{"sms_id": "too-late"}'));
		const seen = upstream.requests.length;
		const call = admin
			.json('/api/test-calls', {
				method: 'POST',
				json: JSON.parse(testCallBody(`${upstream.url}/slower`))
			})
			.then(
				(answer) => answer.status,
				() => 'closed'
			);
		await until(() => upstream.requests.length > seen, 'the test call reached the upstream');
		expect(await server.terminate('SIGINT')).toBe(0);
		expect(await call).toBe('closed');
		expect(server.stderr()).toContain(
			'1 request(s) still in flight after 1 s: their connections are closed.'
		);
	});
});

describe('readiness on PostgreSQL', () => {
	let cluster: Cluster;

	beforeAll(async () => {
		cluster = await startCluster();
	}, 60_000);

	afterAll(async () => {
		await stopAllServers();
		await cluster?.stop();
	});

	it('is 503 while the database is stopped and 200 once it is back; liveness stays 200', async () => {
		const url = await cluster.createDatabase('readiness');
		const server = await startServer({
			env: { ...ADMIN_ENV, DATABASE_URL: url, SECRET_KEY: Buffer.alloc(32, 5).toString('base64') }
		});
		const probe = async (path: string) => {
			const answer = await fetch(server.url + path);
			return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
		};
		expect((await probe('/api/health/ready')).status).toBe(200);
		cluster.stopServer('fast');
		try {
			const down = await probe('/api/health/ready');
			expect(down.status).toBe(503);
			expect(down.body).toMatchObject({ ok: false, reason: 'database' });
			expect((await probe('/api/health/live')).status).toBe(200);
		} finally {
			cluster.startServer();
		}
		let back = 0;
		for (let i = 0; i < 100 && back !== 200; i++) {
			back = (await probe('/api/health/ready')).status;
			if (back !== 200) await sleep(100);
		}
		expect(back).toBe(200);
	});
});
