import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SinkRequestView, SinkView } from '../../src/lib/server/sinks';
import { createUser, serverWithAdmin } from '../helpers/fixtures';
import { Client, stopAllServers, type TestServer } from '../helpers/server';
import { startUpstream, type Upstream } from '../helpers/upstream';

/**
 * The default address policy (no OUTBOUND_ALLOW; high ports opened so the address rule is what
 * decides): every proxy case of the security notes is refused with the rule and the address,
 * and the local upstream sees no connection. The app's own echo sink is still reachable.
 */

interface Answer {
	calls?: {
		request: { url: string };
		error?: { code: string; message: string; rule?: string; address?: string };
		response?: { status: number; via: string; body: string; address: unknown };
		interpretation?: { action: { kind: string }; shownToUser: string | null };
	}[];
	error?: { code: string; message: string };
	sink?: SinkView;
	sinks?: SinkView[];
	requests?: SinkRequestView[];
}

let server: TestServer;
let admin: Client;
let upstream: Upstream;

beforeAll(async () => {
	({ server, admin } = await serverWithAdmin({ OUTBOUND_PORTS: '1024-65535' }));
	upstream = await startUpstream();
});

afterAll(async () => {
	await upstream.stop();
	await stopAllServers();
});

function send(url: string, values: Record<string, string> = {}, client = admin) {
	return client.json<Answer>('/api/test-calls', {
		method: 'POST',
		json: { service: 'pushTokenReporter', settings: { pushTokenReporterUrl: url }, values }
	});
}

describe('outbound policy by default', () => {
	const port = () => upstream.port;
	const cases: [string, () => string, string, string][] = [
		['loopback', () => `http://127.0.0.1:${port()}/`, 'loopback', '127.0.0.1'],
		['IPv6 loopback', () => `http://[::1]:${port()}/`, 'loopback', '::1'],
		['a decimal address', () => `http://2130706433:${port()}/`, 'loopback', '127.0.0.1'],
		['a hex short form', () => `http://0x7f.1:${port()}/`, 'loopback', '127.0.0.1'],
		['IPv4-mapped IPv6', () => `http://[::ffff:7f00:1]:${port()}/`, 'loopback', '::ffff:7f00:1'],
		[
			'cloud metadata',
			() => 'http://169.254.169.254/latest/meta-data/',
			'metadata',
			'169.254.169.254'
		],
		['a private address', () => 'http://10.0.0.1/', 'private', '10.0.0.1'],
		['a name for loopback', () => `http://localhost:${port()}/`, 'loopback', '127.0.0.1']
	];

	it.each(cases)('refuses %s', async (_, url, rule, address) => {
		const answer = await send(url());
		expect(answer.status).toBe(200);
		const error = answer.body.calls![0].error!;
		expect(error).toMatchObject({ code: 'blocked_address', rule });
		expect(error.message).toContain(address);
		expect(upstream.connections()).toBe(0);
	});

	it.each([
		['file:', 'file:///etc/passwd', 'blocked_scheme'],
		['data:', 'data:text/plain,hello', 'blocked_scheme'],
		['userinfo', () => `http://user:pw@127.0.0.1:${port()}/`, 'blocked_userinfo'],
		['a port outside the list', 'http://example.com:22/', 'blocked_port']
	] as const)('refuses %s', async (_, url, code) => {
		const answer = await send(typeof url === 'string' ? url : url());
		expect(answer.body.calls![0].error!.code).toBe(code);
		expect(upstream.connections()).toBe(0);
	});

	it('keeps a value with @ after the host from changing the host', async () => {
		const answer = await send('http://sms.example.com%sms_to%/send', {
			sms_to: `@127.0.0.1:${upstream.port}`
		});
		expect(answer.body.calls![0].error!.code).toMatch(/^(invalid_url|dns_failed|blocked_)/);
		expect(upstream.connections()).toBe(0);
	});
});

describe('echo sinks', () => {
	let sink: SinkView;

	beforeAll(async () => {
		const made = await admin.json<Answer>('/api/sinks', {
			method: 'POST',
			json: {
				name: 'Credit check',
				answer: {
					status: 402,
					contentType: 'application/json',
					body: '{"message":"Not enough credit"}'
				}
			}
		});
		expect(made.status).toBe(201);
		sink = made.body.sink!;
	});

	it('takes a test call inside the app and records it', async () => {
		const answer = await admin.json<Answer>('/api/test-calls', {
			method: 'POST',
			json: {
				service: 'sendMessage',
				settings: {
					genericSmsSendUrl: `${server.url}${sink.path}send?to=%sms_to%`,
					genericSmsSendPostData: 'body=%sms_body%'
				},
				values: { sms_to: '+14155550123', sms_body: 'Hi & bye' }
			}
		});
		const result = answer.body.calls![0];
		expect(result.response).toMatchObject({ status: 402, via: 'sink', address: null });
		expect(result.interpretation).toMatchObject({
			action: { kind: 'showUser' },
			shownToUser: 'Not enough credit'
		});
		const seen = await admin.json<Answer>(`/api/sinks/${sink.key}`);
		expect(seen.body.requests![0]).toMatchObject({
			method: 'POST',
			path: '/send?to=%2B14155550123',
			body: 'body=Hi+%26+bye',
			via: 'test_call'
		});
	});

	it('records a form post from another server and answers it as configured', async () => {
		const response = await fetch(`${server.url}${sink.path}hook?x=1`, {
			method: 'POST',
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				origin: 'https://caller.example',
				cookie: 'ps_session=should-not-be-kept'
			},
			body: 'a=1&b=%3Cscript%3E'
		});
		expect(response.status).toBe(402);
		expect(response.headers.get('content-security-policy')).toContain('sandbox');
		expect(await response.json()).toEqual({ message: 'Not enough credit' });
		const seen = await admin.json<Answer>(`/api/sinks/${sink.key}`);
		const record = seen.body.requests![0];
		expect(record).toMatchObject({
			method: 'POST',
			path: '/hook?x=1',
			body: 'a=1&b=%3Cscript%3E',
			via: 'network'
		});
		const header = (name: string) => record.headers.find((h) => h.name === name)?.value;
		expect(header('origin')).toBe('https://caller.example');
		expect(header('cookie')).toBe('(not recorded)');
	});

	it('resumes its live stream after Last-Event-ID with the requests missed, then goes on live', async () => {
		for (const n of [1, 2, 3]) await fetch(`${server.url}${sink.path}resume-${n}`);
		const seen = await admin.json<Answer>(`/api/sinks/${sink.key}`);
		const [third, second, first] = seen.body.requests!.map((r) => r.id);
		const stream = await admin.fetch(`/api/sinks/${sink.key}/events`, {
			headers: { 'last-event-id': String(first) }
		});
		expect(stream.headers.get('content-type')).toBe('text/event-stream');
		const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
		const events: { id: number; path: string }[] = [];
		let text = '';
		let sentLive = false;
		while (events.length < 3) {
			const { value, done } = await reader.read();
			if (done) break;
			text += value;
			const blocks = text.split('\n\n');
			text = blocks.pop()!;
			for (const block of blocks) {
				const id = /^id: (\d+)$/m.exec(block);
				const data = /^data: (.*)$/m.exec(block);
				if (id && data && /^event: request$/m.test(block)) {
					events.push({ id: Number(id[1]), path: JSON.parse(data[1]).path });
				}
			}
			if (events.length === 2 && !sentLive) {
				sentLive = true;
				await fetch(`${server.url}${sink.path}live`);
			}
		}
		await reader.cancel();
		expect(events.map((e) => e.id).slice(0, 2)).toEqual([second, third]);
		expect(events.map((e) => e.path)).toEqual(['/resume-2', '/resume-3', '/live']);
		expect(events[2].id).toBeGreaterThan(third);
	});

	it('changes its answer, and answers 404 once deleted', async () => {
		const changed = await admin.json<Answer>(`/api/sinks/${sink.key}`, {
			method: 'PUT',
			json: { answer: { status: 200, contentType: 'text/plain', body: 'ok' } }
		});
		expect(changed.body.sink!.answer.status).toBe(200);
		expect(await (await fetch(`${server.url}${sink.path}`)).text()).toBe('ok');
		expect((await admin.fetch(`/api/sinks/${sink.key}`, { method: 'DELETE' })).status).toBe(204);
		expect((await fetch(`${server.url}${sink.path}`)).status).toBe(404);
	});

	it('is for editors and admins: viewers are refused', async () => {
		const viewer = await createUser(admin, 'viewer', 'sink-viewer@example.test');
		expect((await viewer.client.json('/api/sinks')).status).toBe(403);
		const bad = await admin.json<Answer>('/api/sinks', {
			method: 'POST',
			json: { name: 'x', answer: { status: 99, contentType: 'a\r\nb', body: '' } }
		});
		expect(bad.status).toBe(400);
		expect(bad.body.error!.message).toMatch(/answer\.(status|contentType)/);
	});
});

describe('outbound policy with an operator allow-list of host names', () => {
	let allowing: Client;

	beforeAll(async () => {
		({ admin: allowing } = await serverWithAdmin({
			OUTBOUND_ALLOW: 'localhost',
			OUTBOUND_PORTS: '1024-65535'
		}));
	});

	it('reaches a loopback upstream by the allowed name, and not by its address', async () => {
		const before = upstream.connections();
		const byName = await send(`http://localhost:${upstream.port}/`, {}, allowing);
		expect(byName.body.calls![0].error).toBeUndefined();
		expect(byName.body.calls![0].response!.status).toBe(200);
		expect(upstream.connections()).toBe(before + 1);

		const byAddress = await send(`http://127.0.0.1:${upstream.port}/`, {}, allowing);
		expect(byAddress.body.calls![0].error).toMatchObject({
			code: 'blocked_address',
			rule: 'loopback'
		});
		expect(upstream.connections()).toBe(before + 1);
	});

	it('shows a redirect to loopback without following it', async () => {
		const before = upstream.connections();
		upstream.answerNext({ status: 302, headers: { location: 'http://127.0.0.1:1/admin' } });
		const answer = await send(`http://localhost:${upstream.port}/go`, {}, allowing);
		const result = answer.body.calls![0] as { response?: { status: number; redirect?: unknown } };
		expect(result.response?.status).toBe(302);
		expect(result.response?.redirect).toEqual({ location: 'http://127.0.0.1:1/admin' });
		expect(upstream.connections()).toBe(before + 1);
	});
});
