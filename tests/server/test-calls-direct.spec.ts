import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, serverWithAdmin } from '../helpers/fixtures';
import { Client, stopAllServers, type ClientRequest, type TestServer } from '../helpers/server';
import { startUpstream, type Upstream } from '../helpers/upstream';

/**
 * `POST /api/test-calls` is served by the start script before the kit when it is an ordinary
 * call, and by the kit's route otherwise. `/api/test-call%73` is the same route to the kit's
 * router, which decodes the path, but never the start script's, which takes the path as written:
 * so every answer of one can be held beside the other's, refusals included.
 */

let server: TestServer;
let admin: Client;
let viewer: Client;
let upstream: Upstream;
let token = '';

beforeAll(async () => {
	({ admin, server } = await serverWithAdmin({
		OUTBOUND_ALLOW: '127.0.0.1/32',
		OUTBOUND_PORTS: '1024-65535'
	}));
	viewer = (await createUser(admin, 'viewer', 'viewer@example.test')).client;
	const made = await admin.json('/api/tokens', { method: 'POST', json: { name: 'parity' } });
	token = made.body.token ?? '';
	upstream = await startUpstream({
		otherwise: {
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: '{"sms_id":"7"}'
		}
	});
});

afterAll(async () => {
	await upstream.stop();
	await stopAllServers();
});

/** Times, dates and ids differ from one call to the next; everything else must not. */
function comparable(text: string): unknown {
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return text;
	}
	return JSON.parse(JSON.stringify(body), (key, value) => {
		if (key === 'id' && typeof value === 'number') return 'id';
		if (key === 'timings') return 'timings';
		if (key === 'port' && typeof value === 'number') return 'port';
		if (key === 'value' && typeof value === 'string' && /GMT$/.test(value)) return 'date';
		return value;
	});
}

// A request id is made for each request: it differs between the two by design.
const VARYING = new Set(['date', 'content-length', 'connection', 'keep-alive', 'x-request-id']);

/** The same request to both paths: their statuses, headers and bodies. */
async function both(client: Client, init: ClientRequest) {
	const answers = [];
	for (const path of ['/api/test-calls', '/api/test-call%73']) {
		const response = await client.fetch(path, { method: 'POST', ...init });
		const headers = [...response.headers].filter(([name]) => !VARYING.has(name));
		answers.push({ status: response.status, headers, body: comparable(await response.text()) });
	}
	return answers;
}

const call = (url = `${upstream.url}/send?to=%sms_to%`) => ({
	service: 'sendMessage',
	settings: { genericSmsSendUrl: url },
	values: { sms_to: '+14155550123' }
});

describe('test calls before the kit and through it', () => {
	it.each<[string, () => Client, () => ClientRequest, number]>([
		['a call with an API token', () => admin.withToken(token), () => ({ json: call() }), 200],
		['a call with a session, from the app', () => admin, () => ({ json: call() }), 200],
		[
			'a call with a session, from another site',
			() => admin,
			() => ({ json: call(), headers: { origin: 'https://evil.example' } }),
			403
		],
		[
			'a call with a session, from nowhere said',
			() => admin,
			() => ({ json: call(), noOrigin: true }),
			403
		],
		['a call without credentials', () => new Client(server), () => ({ json: call() }), 401],
		['a call by a viewer', () => viewer, () => ({ json: call() }), 403],
		[
			'a form',
			() => admin,
			() => ({
				body: JSON.stringify(call()),
				headers: { 'content-type': 'text/plain', origin: 'https://evil.example' }
			}),
			403
		],
		[
			'a body that is not JSON',
			() => admin,
			() => ({ body: '{"service":', headers: { 'content-type': 'application/json' } }),
			400
		],
		['a body that is no call', () => admin, () => ({ json: { service: 'noSuchService' } }), 400],
		[
			'a header that would inject another',
			() => admin,
			() => ({
				json: {
					service: 'mediaRefSend',
					settings: {
						genericMediaRefSendUrl: `${upstream.url}/h`,
						genericMediaRefSendCustomHeaders: 'X-To: %sms_to%'
					},
					values: { sms_to: 'a\r\nInjected: 1' }
				}
			}),
			400
		],
		[
			'an unknown profile',
			() => admin,
			() => ({
				json: {
					service: 'sendMessage',
					profileId: '00000000-0000-4000-8000-000000000000',
					scenario: 'default'
				}
			}),
			404
		],
		[
			'a URL the outbound policy refuses',
			() => admin,
			() => ({ json: call('http://10.0.0.1/x') }),
			200
		]
	])('answers %s the same', async (_, client, init, status) => {
		const [direct, routed] = await both(client(), init());
		expect(direct.status).toBe(status);
		expect(direct).toEqual(routed);
	});

	it('sends the same request upstream either way', async () => {
		const before = upstream.requests.length;
		await both(admin, { json: call() });
		const [one, other] = upstream.requests.slice(before);
		expect(one).toEqual(other);
		expect(one.url).toBe('/send?to=%2B14155550123');
	});

	it('keeps either call in the history, with its audit entry', async () => {
		const history = await admin.json<{ calls: { id: number; url: string }[] }>(
			'/api/test-calls?service=sendMessage'
		);
		const before = history.body.calls.length;
		const audit = '/api/audit?action=test_call&limit=1000';
		const auditBefore = (await admin.json(audit)).body.entries?.length ?? 0;
		const [direct, routed] = await both(admin, { json: call() });
		expect([direct.status, routed.status]).toEqual([200, 200]);
		const after = await admin.json<{ calls: { id: number; url: string }[] }>(
			'/api/test-calls?service=sendMessage'
		);
		expect(after.body.calls.length).toBe(Math.min(before + 2, 50));
		const audited = (await admin.json(audit)).body.entries ?? [];
		expect(audited.length).toBe(auditBefore + 2);
	});
});
