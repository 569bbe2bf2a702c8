import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePush } from '../../src/lib/core/push';
import type { PushSendAnswer } from '../../src/lib/server/push/send';
import type { SandboxPushView, SandboxView } from '../../src/lib/server/push/sandboxes';
import { createUser, serverWithAdmin, type TestUser } from '../helpers/fixtures';
import { Client, startServer, stopAllServers } from '../helpers/server';
import { startUpstream, type Upstream } from '../helpers/upstream';

/**
 * The push composer's endpoint against the real built server: a composed push delivered to a
 * sandbox inside the app (recorded like any push), and sent to a real local gateway through the
 * outbound module (its policy, its time limits), each element answered with its verdict.
 */

interface Answer extends Partial<PushSendAnswer> {
	sandbox?: SandboxView;
	pushes?: SandboxPushView[];
	error?: { code: string; message: string };
	issues?: { path: (string | number)[]; message: string }[];
	entries?: { action: string; target: string | null; details: Record<string, unknown> | null }[];
}

const TEST_ENV = {
	OUTBOUND_ALLOW: '127.0.0.1/32',
	OUTBOUND_PORTS: '1024-65535',
	OUTBOUND_HEADERS_TIMEOUT_MS: '1000',
	OUTBOUND_TOTAL_TIMEOUT_MS: '3000'
};

let admin: Client;
let editor: TestUser;
let viewer: TestUser;
let gateway: Upstream;

const TEXT = samplePush('NotifyTextMessage');

beforeAll(async () => {
	({ admin } = await serverWithAdmin(TEST_ENV));
	[editor, viewer] = await Promise.all([
		createUser(admin, 'editor', 'editor@example.test'),
		createUser(admin, 'viewer', 'viewer@example.test')
	]);
	gateway = await startUpstream();
});

afterAll(async () => {
	await gateway.stop();
	await stopAllServers();
});

async function createSandbox(settings: Record<string, unknown> = {}): Promise<SandboxView> {
	const answer = await editor.client.json<Answer>('/api/sandboxes', {
		method: 'POST',
		json: { name: 'Composer target', ...settings }
	});
	expect(answer.status).toBe(201);
	return answer.body.sandbox!;
}

function send(client: Client, json: unknown) {
	return client.json<Answer>('/api/push', { method: 'POST', json });
}

describe('POST /api/push to a sandbox', () => {
	it('delivers a push inside the app, records it, and answers accepted upstream, not delivered', async () => {
		const sandbox = await createSandbox();
		const answer = await send(editor.client, {
			endpoint: 'send',
			body: TEXT,
			target: { kind: 'sandbox', sandboxId: sandbox.id }
		});
		expect(answer.status).toBe(200);
		const body = answer.body;
		expect(body.request).toEqual({
			method: 'POST',
			url: `${sandbox.pushUrl}/pnm2/send`,
			headers: [{ name: 'Content-Type', value: 'application/json' }],
			body: JSON.stringify(TEXT)
		});
		expect(body.response).toMatchObject({ status: 200, via: 'sandbox' });
		expect(JSON.parse(body.response!.body)).toMatchObject({ status: 200 });
		expect(body.verdicts!.elements).toHaveLength(1);
		expect(body.verdicts!.elements[0]).toMatchObject({
			verdict: 'accepted',
			title: 'Accepted upstream, not delivered'
		});
		const pushes = await editor.client.json<Answer>(`/api/sandboxes/${sandbox.id}/pushes`);
		expect(pushes.body.pushes).toHaveLength(1);
		expect(pushes.body.pushes![0]).toMatchObject({ endpoint: 'send', httpStatus: 200 });
		expect(pushes.body.pushes![0].pushes[0].request).toEqual(TEXT);
	});

	it('gives each multisend element its verdict: accepted, stop sending, fix the request naming Badge', async () => {
		const sandbox = await createSandbox({ unregisteredTokens: ['gone-token'] });
		const list = [
			TEXT,
			{ ...TEXT, DeviceToken: 'gone-token' },
			{ ...TEXT, Badge: '3' },
			{ ...TEXT, AppId: undefined }
		];
		const answer = await send(editor.client, {
			endpoint: 'multisend',
			body: list,
			target: { kind: 'sandbox', sandboxId: sandbox.id }
		});
		expect(answer.status).toBe(200);
		const elements = answer.body.verdicts!.elements;
		expect(elements.map((e) => [e.verdict, e.status])).toEqual([
			['accepted', 200],
			['stop_sending', 404],
			['fix_request', 404],
			['fix_request', 400]
		]);
		expect(elements[2].fix.map((f) => f.attribute)).toEqual(['Badge']);
		expect(elements[3].fix.map((f) => f.attribute)).toEqual(['AppId']);
	});

	it('follows the Badge rule of the platform the sandbox gives the token', async () => {
		const sandbox = await createSandbox({ platforms: { 'new-phone': 'platformA13' } });
		const answer = await send(editor.client, {
			endpoint: 'send',
			body: { ...TEXT, DeviceToken: 'new-phone', Badge: undefined },
			target: { kind: 'sandbox', sandboxId: sandbox.id }
		});
		expect(answer.body.verdicts!.elements[0]).toMatchObject({ verdict: 'fix_request' });
		expect(answer.body.verdicts!.elements[0].fix[0].attribute).toBe('Badge');
	});

	it('answers try again later for an upstream error and for a gateway fault', async () => {
		const upstream = await createSandbox({ upstreamError: true });
		const fault = await createSandbox({ gatewayFault: true });
		const [a, b] = await Promise.all(
			[upstream, fault].map((s) =>
				send(editor.client, {
					endpoint: 'send',
					body: TEXT,
					target: { kind: 'sandbox', sandboxId: s.id }
				})
			)
		);
		expect(a.body.response!.status).toBe(200);
		expect(a.body.verdicts!.elements[0]).toMatchObject({ verdict: 'retry_later', status: 500 });
		expect(b.body.response!.status).toBe(500);
		expect(b.body.verdicts!.elements[0]).toMatchObject({ verdict: 'retry_later' });
	});

	it('sends a bare null to multisend as it is: HTTP 400 and fix the request', async () => {
		const sandbox = await createSandbox();
		const answer = await send(editor.client, {
			endpoint: 'multisend',
			body: null,
			target: { kind: 'sandbox', sandboxId: sandbox.id }
		});
		expect(answer.body.request!.body).toBe('null');
		expect(answer.body.response!.status).toBe(400);
		expect(answer.body.verdicts!.elements[0].verdict).toBe('fix_request');
	});

	it('answers 404 for a sandbox that does not exist', async () => {
		const answer = await send(editor.client, {
			endpoint: 'send',
			body: TEXT,
			target: { kind: 'sandbox', sandboxId: 'no-such-sandbox' }
		});
		expect(answer.status).toBe(404);
		expect(answer.body.error!.code).toBe('not_found');
	});

	it("delivers a URL of this app's own sandbox inside the app", async () => {
		const sandbox = await createSandbox();
		const answer = await send(editor.client, {
			endpoint: 'send',
			body: TEXT,
			target: { kind: 'url', url: sandbox.pushUrl }
		});
		expect(answer.body.response).toMatchObject({ status: 200, via: 'sandbox' });
		const pushes = await editor.client.json<Answer>(`/api/sandboxes/${sandbox.id}/pushes`);
		expect(pushes.body.pushes).toHaveLength(1);
	});
});

describe('POST /api/push to a real push_url', () => {
	it('sends the exact request through the outbound module and judges the answer', async () => {
		gateway.answerNext({
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify([
				{ code: 200, response: 'OK' },
				{ code: 404, response: 'BadDeviceToken' }
			])
		});
		const before = gateway.requests.length;
		const answer = await send(editor.client, {
			endpoint: 'multisend',
			body: [TEXT, TEXT],
			target: { kind: 'url', url: `${gateway.url}/gw/` }
		});
		expect(answer.status).toBe(200);
		const got = gateway.requests[before];
		expect(got.method).toBe('POST');
		expect(got.url).toBe('/gw/pnm2/multisend');
		expect(got.headers['content-type']).toBe('application/json');
		expect(got.body).toBe(JSON.stringify([TEXT, TEXT]));
		expect(answer.body.request!.url).toBe(`${gateway.url}/gw/pnm2/multisend`);
		expect(answer.body.response).toMatchObject({ status: 200, via: 'network' });
		expect(answer.body.verdicts!.elements.map((e) => e.verdict)).toEqual([
			'accepted',
			'stop_sending'
		]);
	});

	it('answers a 503 of the gateway as try again later', async () => {
		gateway.answerNext({ status: 503, body: 'busy' });
		const answer = await send(editor.client, {
			endpoint: 'send',
			body: TEXT,
			target: { kind: 'url', url: gateway.url }
		});
		expect(answer.body.response!.status).toBe(503);
		expect(answer.body.verdicts!.elements[0].verdict).toBe('retry_later');
	});

	it('refuses an address the outbound policy does not allow, sending nothing', async () => {
		const answer = await send(editor.client, {
			endpoint: 'send',
			body: TEXT,
			target: { kind: 'url', url: 'http://169.254.169.254/latest' }
		});
		expect(answer.status).toBe(200);
		expect(answer.body.response).toBeNull();
		expect(answer.body.verdicts).toBeNull();
		expect(answer.body.error!.code).toMatch(/^blocked_/);
	});

	it('ends a gateway that never answers at the time limit', async () => {
		gateway.answerNext(() => {
			// never answers
		});
		const answer = await send(editor.client, {
			endpoint: 'send',
			body: TEXT,
			target: { kind: 'url', url: gateway.url }
		});
		expect(answer.body.response).toBeNull();
		expect(answer.body.error!.code).toMatch(/timeout/);
	});
});

describe('POST /api/push: input, roles and audit', () => {
	it('refuses a viewer', async () => {
		const sandbox = await createSandbox();
		const answer = await send(viewer.client, {
			endpoint: 'send',
			body: TEXT,
			target: { kind: 'sandbox', sandboxId: sandbox.id }
		});
		expect(answer.status).toBe(403);
		const pushes = await editor.client.json<Answer>(`/api/sandboxes/${sandbox.id}/pushes`);
		expect(pushes.body.pushes).toHaveLength(0);
	});

	it('names what is wrong in the input', async () => {
		const answer = await send(editor.client, {
			endpoint: 'broadcast',
			body: TEXT,
			target: { kind: 'url' }
		});
		expect(answer.status).toBe(400);
		const paths = answer.body.issues!.map((i) => i.path.join('.'));
		expect(paths).toEqual(expect.arrayContaining(['endpoint', 'target.url']));
		const missing = await send(editor.client, {
			endpoint: 'send',
			target: { kind: 'url', url: 'x' }
		});
		expect(missing.status).toBe(400);
	});

	it('audits each push with its target, never its body or a sandbox key', async () => {
		const sandbox = await createSandbox();
		await send(editor.client, {
			endpoint: 'send',
			body: TEXT,
			target: { kind: 'sandbox', sandboxId: sandbox.id }
		});
		const audit = await admin.json<Answer>('/api/audit?action=push.sent');
		const entry = audit.body.entries!.find((e) => e.target === `sandbox:${sandbox.id}`);
		expect(entry).toBeDefined();
		expect(entry!.details).toMatchObject({ endpoint: 'send', elements: 1, status: 200 });
		const text = JSON.stringify(audit.body.entries);
		expect(text).not.toContain(sandbox.pushUrl.split('/').at(-1));
		expect(text).not.toContain(TEXT.DeviceToken as string);
	});
});

describe('a server with the default outbound policy', () => {
	it('refuses a loopback push_url', async () => {
		const strict = await startServer({
			env: { ADMIN_EMAIL: 'a@example.test', ADMIN_PASSWORD: 'admin-password-1' }
		});
		const client = new Client(strict);
		await client.login('a@example.test', 'admin-password-1');
		const before = gateway.requests.length;
		const answer = await send(client, {
			endpoint: 'send',
			body: TEXT,
			target: { kind: 'url', url: gateway.url }
		});
		expect(answer.body.error!.code).toMatch(/^blocked_/);
		expect(gateway.requests.length).toBe(before);
	});
});
