import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_GATEWAY_OUTCOMES, type PushOutcomeId } from '../../src/lib/core/push';
import type { SandboxPushView, SandboxView } from '../../src/lib/server/push/sandboxes';
import { createUser, serverWithAdmin, type TestUser } from '../helpers/fixtures';
import { Client, startServer, stopAllServers, type TestServer } from '../helpers/server';

/**
 * Push sandboxes against the real built server: every row of the contract's "Push gateway"
 * Errors table over HTTP, as a provider's server calls them (no session, no Origin), the
 * simulated upstream, the key, the limits, the API and its roles, and the live event stream.
 */

interface SandboxAnswer {
	sandbox?: SandboxView;
	sandboxes?: SandboxView[];
	pushes?: SandboxPushView[];
	error?: { code: string; message: string };
	entries?: { action: string; target: string | null }[];
}

let server: TestServer;
let admin: Client;
let editor: TestUser;
let viewer: TestUser;

const TEXT = {
	verb: 'NotifyTextMessage',
	AppId: 'com.provider.app',
	DeviceToken: 'token-a',
	Selector: '0123456789abcdef0123456789abcdef01234567:acct',
	Message: 'Hello',
	Badge: 1,
	Sound: 's2.caf',
	UserName: 'Alice',
	Id: 'm-1'
};
const GENERIC = {
	verb: 'NotifyGenericTextMessage',
	AppId: 'com.provider.app',
	DeviceToken: 'token-b',
	Message: 'Sale today'
};

beforeAll(async () => {
	const started = await serverWithAdmin();
	server = started.server;
	admin = started.admin;
	[editor, viewer] = await Promise.all([
		createUser(admin, 'editor', 'editor@example.test'),
		createUser(admin, 'viewer', 'viewer@example.test')
	]);
});

afterAll(stopAllServers);

async function createSandbox(settings: Record<string, unknown> = {}): Promise<SandboxView> {
	const answer = await editor.client.json<SandboxAnswer>('/api/sandboxes', {
		method: 'POST',
		json: { name: 'Gateway', ...settings }
	});
	expect(answer.status).toBe(201);
	return answer.body.sandbox!;
}

/** A call as a provider's server makes it: plain fetch, no cookie, no Origin. */
async function call(
	url: string,
	init: { method?: string; body?: string; contentType?: string | null; headers?: HeadersInit } = {}
): Promise<{ status: number; headers: Headers; body: unknown }> {
	const headers = new Headers(init.headers);
	const contentType = init.contentType === undefined ? 'application/json' : init.contentType;
	if (contentType !== null) headers.set('content-type', contentType);
	const response = await fetch(url, { method: init.method ?? 'POST', headers, body: init.body });
	const text = await response.text();
	let body: unknown = text;
	try {
		body = JSON.parse(text);
	} catch {
		// kept as text
	}
	return { status: response.status, headers: response.headers, body };
}

const send = (sandbox: SandboxView, value: unknown, init = {}) =>
	call(`${sandbox.pushUrl}/pnm2/send`, { body: JSON.stringify(value), ...init });
const multisend = (sandbox: SandboxView, value: unknown, init = {}) =>
	call(`${sandbox.pushUrl}/pnm2/multisend`, { body: JSON.stringify(value), ...init });

async function pushes(sandbox: SandboxView): Promise<SandboxPushView[]> {
	const answer = await viewer.client.json<SandboxAnswer>(`/api/sandboxes/${sandbox.id}/pushes`);
	expect(answer.status).toBe(200);
	return answer.body.pushes!;
}

/** One case per row of the contract's Errors table, each over HTTP against its own sandbox. */
const CASES: Record<PushOutcomeId, () => Promise<void>> = {
	async accepted() {
		const sandbox = await createSandbox();
		const answer = await send(sandbox, TEXT);
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({ status: 200 });
		expect((answer.body as { response: string }).response).toMatch(/not mean/);
		const [recorded] = await pushes(sandbox);
		expect(recorded.trace.map((t) => t.outcome)).toEqual(['accepted']);
		expect(recorded.pushes[0].request).toEqual(TEXT);
		expect(JSON.parse(recorded.response)).toEqual(answer.body);
	},
	async missing_core_attribute() {
		const sandbox = await createSandbox();
		for (const name of ['verb', 'AppId', 'DeviceToken']) {
			const answer = await send(sandbox, { ...TEXT, [name]: undefined });
			expect(answer.status).toBe(200);
			expect(answer.body).toMatchObject({ status: 400 });
			expect((answer.body as { response: string }).response).toContain(name);
		}
		const recorded = await pushes(sandbox);
		expect(recorded.map((p) => p.pushes.length)).toEqual([0, 0, 0]);
		expect(recorded.map((p) => p.trace[0].outcome)).toEqual(
			Array(3).fill('missing_core_attribute')
		);
	},
	async missing_data() {
		// Selector per verb: required by NotifyTextMessage and NotifyReprovision, not by generic.
		const open = await createSandbox();
		expect((await send(open, { ...TEXT, Selector: undefined })).body).toMatchObject({
			status: 404
		});
		const reprovision = { ...TEXT, verb: 'NotifyReprovision' };
		expect((await send(open, { ...reprovision, Selector: undefined })).body).toMatchObject({
			status: 404
		});
		expect((await send(open, GENERIC)).body).toMatchObject({ status: 200 });
		// Badge: required on platform A 13+ only, by the platform of the device token.
		const badge = await createSandbox({ platforms: { 'token-a': 'platformA13' } });
		const noBadge = await multisend(badge, [
			{ ...TEXT, Badge: undefined },
			{ ...TEXT, Badge: undefined, DeviceToken: 'token-old' }
		]);
		expect(noBadge.body).toMatchObject([{ status: 404 }, { status: 200 }]);
		const badgeAsString = await send(badge, { ...TEXT, Badge: '3' });
		expect(badgeAsString.status).toBe(200);
		expect(badgeAsString.body).toMatchObject({ status: 404 });
		// An application id the push service does not know; an error answer from upstream.
		const apps = await createSandbox({ appIds: ['com.provider.other'] });
		const unknownApp = await send(apps, TEXT);
		expect(unknownApp.status).toBe(200);
		expect(unknownApp.body).toMatchObject({ status: 404 });
		expect((unknownApp.body as { response: string }).response).toContain('com.provider.app');
		const failing = await createSandbox({ upstreamError: true });
		const upstream = await send(failing, TEXT);
		expect(upstream.status).toBe(200);
		expect(upstream.body).toMatchObject({ status: 500 });
		expect((await pushes(failing))[0].trace[0].outcome).toBe('missing_data');
	},
	async token_unregistered() {
		const sandbox = await createSandbox({ unregisteredTokens: ['token-a'] });
		const answer = await multisend(sandbox, [TEXT, GENERIC]);
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject([{ status: 404 }, { status: 200 }]);
		expect((answer.body as { response: string }[])[0].response).toMatch(/no longer registered/);
		const [recorded] = await pushes(sandbox);
		expect(recorded.trace.map((t) => t.outcome)).toEqual(['token_unregistered', 'accepted']);
	},
	async bad_request() {
		const sandbox = await createSandbox();
		for (const endpoint of ['send', 'multisend']) {
			const url = `${sandbox.pushUrl}/pnm2/${endpoint}`;
			const refused = [
				await call(url, { body: '{"verb":' }),
				await call(url, { method: 'GET', contentType: null }),
				await call(url, { method: 'PUT', body: JSON.stringify(TEXT) }),
				await call(url, { body: JSON.stringify(TEXT), contentType: null }),
				await call(url, { body: JSON.stringify(TEXT), contentType: 'text/plain' }),
				// A form post from a server, with and without a foreign Origin: the gateway's 400,
				// never the app's cross-site form check.
				await call(url, {
					body: 'verb=NotifyReprovision',
					contentType: 'application/x-www-form-urlencoded'
				}),
				await call(url, {
					body: 'verb=NotifyReprovision',
					contentType: 'application/x-www-form-urlencoded',
					headers: { origin: 'https://provider.example' }
				}),
				await call(url, {
					body: 'verb=NotifyReprovision',
					contentType: 'multipart/form-data; boundary=x',
					headers: { origin: 'https://provider.example' }
				})
			];
			for (const answer of refused) {
				expect(answer.status).toBe(400);
				expect(answer.body).toMatchObject({ status: 400 });
			}
		}
		// Parameters of the JSON content type are fine.
		const charset = await send(sandbox, TEXT, { contentType: 'application/json; charset=utf-8' });
		expect(charset.body).toMatchObject({ status: 200 });
		// A list is not a single push.
		expect((await send(sandbox, [TEXT])).status).toBe(400);
		const recorded = await pushes(sandbox);
		expect(recorded.filter((p) => p.trace[0].outcome === 'bad_request')).toHaveLength(17);
	},
	async gateway_problem() {
		const sandbox = await createSandbox({ gatewayFault: true });
		for (const answer of [await send(sandbox, TEXT), await multisend(sandbox, [TEXT])]) {
			expect(answer.status).toBe(500);
			expect(answer.body).toMatchObject({ status: 500 });
		}
		expect((await pushes(sandbox)).map((p) => p.trace[0].outcome)).toEqual([
			'gateway_problem',
			'gateway_problem'
		]);
	},
	async multisend_non_object_element() {
		const sandbox = await createSandbox();
		const answer = await multisend(sandbox, [TEXT, null, 7, 'x', [], GENERIC]);
		expect(answer.status).toBe(200);
		expect((answer.body as { status: number }[]).map((o) => o.status)).toEqual([
			200, 400, 400, 400, 400, 200
		]);
		const [recorded] = await pushes(sandbox);
		expect(recorded.pushes.map((p) => p.index)).toEqual([0, 5]);
		// A single object is a list of one.
		const one = await multisend(sandbox, GENERIC);
		expect(one.body).toMatchObject([{ status: 200 }]);
	},
	async multisend_bare_null() {
		const sandbox = await createSandbox();
		const answer = await call(`${sandbox.pushUrl}/pnm2/multisend`, { body: 'null' });
		expect(answer.status).toBe(400);
		expect(answer.body).toMatchObject({ status: 400 });
		expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
	},
	async multisend_list_with_null() {
		const sandbox = await createSandbox();
		const answer = await call(`${sandbox.pushUrl}/pnm2/multisend`, { body: '[null]' });
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual([{ status: 400, response: expect.stringContaining('null') }]);
	}
};

describe('the push gateway of a sandbox, one case per row of the Errors table', () => {
	it.each(PUSH_GATEWAY_OUTCOMES.map((row) => [row.condition, row.id] as const))(
		'%s',
		async (_condition, id) => {
			await CASES[id]();
		}
	);
});

describe('the key in the address', () => {
	it('is at least 128 random bits, and a wrong key is 404 and records nothing', async () => {
		const sandbox = await createSandbox();
		const key = sandbox.pushUrl.split('/sandbox/')[1];
		expect(key.length * 6).toBeGreaterThanOrEqual(128);
		expect(sandbox.pushUrl).toBe(`${server.url}/sandbox/${key}`);
		const wrong = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
		const answer = await call(`${server.url}/sandbox/${wrong}/pnm2/send`, {
			body: JSON.stringify(TEXT)
		});
		expect(answer.status).toBe(404);
		expect((await call(`${server.url}/sandbox/short/pnm2/send`, { body: '{}' })).status).toBe(404);
		expect(await pushes(sandbox)).toEqual([]);
	});

	it('answers 404 for a path other than the two endpoints, and records nothing', async () => {
		const sandbox = await createSandbox();
		expect((await call(`${sandbox.pushUrl}/pnm2/other`, { body: '{}' })).status).toBe(404);
		expect((await call(`${sandbox.pushUrl}/send`, { body: '{}' })).status).toBe(404);
		expect(await pushes(sandbox)).toEqual([]);
	});

	it('is replaced by rotate: the old address is 404 from then on', async () => {
		const sandbox = await createSandbox();
		const rotated = await editor.client.json<SandboxAnswer>(`/api/sandboxes/${sandbox.id}/rotate`, {
			method: 'POST'
		});
		expect(rotated.status).toBe(200);
		expect(rotated.body.sandbox!.pushUrl).not.toBe(sandbox.pushUrl);
		expect((await send(sandbox, TEXT)).status).toBe(404);
		expect((await send(rotated.body.sandbox!, TEXT)).status).toBe(200);
		expect(await pushes(sandbox)).toHaveLength(1);
	});

	it('takes no session and ignores one, and the answer carries the security headers', async () => {
		const sandbox = await createSandbox();
		const answer = await fetch(`${sandbox.pushUrl}/pnm2/send`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie: 'ps_session=forged' },
			body: JSON.stringify(GENERIC)
		});
		expect(answer.status).toBe(200);
		expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
		expect(answer.headers.get('x-frame-options')).toBe('DENY');
		expect(answer.headers.get('cache-control')).toBe('no-store');
		expect(answer.headers.get('set-cookie')).toBeNull();
	});
});

describe('limits', () => {
	it('answers 413 over the body limit, and records nothing', async () => {
		const sandbox = await createSandbox();
		const big = JSON.stringify({ ...GENERIC, Message: 'x'.repeat(1024 * 1024) });
		const answer = await call(`${sandbox.pushUrl}/pnm2/send`, { body: big });
		expect(answer.status).toBe(413);
		expect((answer.body as { response: string }).response).toContain('1048576 bytes');
		expect(await pushes(sandbox)).toEqual([]);
	});

	it('answers 429 with Retry-After over the sandbox rate limit', async () => {
		const sandbox = await createSandbox({ rateLimit: 3 });
		const answers = await Promise.all(Array.from({ length: 6 }, () => send(sandbox, GENERIC)));
		const limited = answers.filter((a) => a.status === 429);
		expect(limited.length).toBeGreaterThanOrEqual(3);
		expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect(limited[0].body).toMatchObject({ status: 429 });
	});

	it('has a default rate limit that lets a few thousand pushes a second through', async () => {
		const sandbox = await createSandbox();
		expect(sandbox.settings.rateLimit).toBeGreaterThanOrEqual(5000);
	});

	it('keeps the newest 500 pushes of a sandbox and drops the oldest', async () => {
		const sandbox = await createSandbox();
		for (let i = 0; i < 26; i++) {
			const list = Array.from({ length: 20 }, (_, j) => ({ ...GENERIC, Message: `${i}-${j}` }));
			// one request per push so the count is of requests
			await Promise.all(list.map((push) => send(sandbox, push)));
		}
		const kept = await pushes(sandbox);
		expect(kept).toHaveLength(500);
		expect(kept[0].id).toBeGreaterThan(kept[499].id);
		const messages = new Set(kept.map((p) => (p.pushes[0].request as { Message: string }).Message));
		expect(messages.has('25-19') || messages.has('25-0')).toBe(true);
		expect(messages.has('0-0')).toBe(false);
	});
});

describe('served before the kit', () => {
	// `/%73andbox/…` is the same address to the kit's router, which decodes it, but not to the
	// start script's direct path, which takes `/sandbox/…` only: so the two can be compared.
	const viaKit = (url: string) => url.replace('/sandbox/', '/%73andbox/');

	it('answers exactly as the kit route does, headers included', async () => {
		const sandbox = await createSandbox({ unregisteredTokens: ['gone'] });
		const requests: Parameters<typeof call>[1][] = [
			{ body: JSON.stringify(TEXT) },
			{ body: JSON.stringify({ ...GENERIC, DeviceToken: 'gone' }) },
			{ body: '{"verb":' },
			{ body: 'null' },
			{ method: 'PUT', body: JSON.stringify(GENERIC) },
			{ method: 'GET' },
			{ contentType: 'application/x-www-form-urlencoded', body: 'verb=x' },
			{ contentType: null, body: JSON.stringify(GENERIC) }
		];
		for (const [path, init] of [
			...requests.map((init) => ['/pnm2/send', init] as const),
			['/pnm2/multisend', { body: JSON.stringify([TEXT, null]) }] as const,
			['/pnm2/other', {}] as const
		]) {
			const direct = await call(`${sandbox.pushUrl}${path}`, init);
			const routed = await call(viaKit(`${sandbox.pushUrl}${path}`), init);
			expect(routed.status, `${path} ${JSON.stringify(init)}`).toBe(direct.status);
			expect(routed.body).toEqual(direct.body);
			for (const name of [
				'content-type',
				'cache-control',
				'content-security-policy',
				'x-content-type-options',
				'x-frame-options',
				'referrer-policy'
			]) {
				expect(direct.headers.get(name), name).toBe(routed.headers.get(name));
			}
		}
		const wrongKey = await call(`${server.url}/sandbox/${'A'.repeat(32)}/pnm2/send`, {
			body: JSON.stringify(TEXT)
		});
		expect(wrongKey.status).toBe(404);
		// Both ways recorded every request the gateway answered, and nothing else.
		expect(await pushes(sandbox)).toHaveLength(2 * requests.length + 2);
	});

	it('answers 413 to a chunked body over the limit, and the server goes on', async () => {
		const sandbox = await createSandbox();
		const { status, closed } = await new Promise<{ status: number; closed: boolean }>(
			(resolve, reject) => {
				const request = http.request(`${sandbox.pushUrl}/pnm2/send`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }
				});
				request.on('response', (response) => {
					response.resume();
					response.on('end', () =>
						resolve({
							status: response.statusCode ?? 0,
							closed: response.headers.connection === 'close'
						})
					);
				});
				request.on('error', reject);
				const chunk = Buffer.alloc(64 * 1024, 0x20);
				for (let i = 0; i < 20; i++) request.write(chunk);
				request.end();
			}
		);
		expect(status).toBe(413);
		expect(closed).toBe(true);
		expect(await pushes(sandbox)).toEqual([]);
		expect((await send(sandbox, GENERIC)).status).toBe(200);
	});

	it('goes on when a caller leaves in the middle of a body', async () => {
		const sandbox = await createSandbox();
		await new Promise<void>((resolve) => {
			const request = http.request(`${sandbox.pushUrl}/pnm2/send`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'content-length': '1000' }
			});
			request.on('error', () => resolve());
			request.write('{"verb":"NotifyGenericTextMessage"', () => {
				request.destroy();
				resolve();
			});
		});
		expect((await send(sandbox, GENERIC)).status).toBe(200);
		expect(await pushes(sandbox)).toHaveLength(1);
	});
});

describe('bad input', () => {
	it('never takes the server down nor loses the pushes of another sandbox', async () => {
		const other = await createSandbox();
		await send(other, GENERIC);
		const sandbox = await createSandbox();
		const depth = 200_000;
		const deep = `{"verb":"NotifyReprovision","AppId":"a","DeviceToken":"d","Selector":"s","Extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
		const accepted = await call(`${sandbox.pushUrl}/pnm2/send`, { body: deep });
		expect(accepted.status).toBe(200);
		expect(accepted.body).toMatchObject({ status: 200 });
		const deepList = await call(`${sandbox.pushUrl}/pnm2/multisend`, {
			body: `[${'['.repeat(depth)}${']'.repeat(depth)}]`
		});
		expect(deepList.body).toMatchObject([{ status: 400 }]);
		const notUtf8 = await fetch(`${sandbox.pushUrl}/pnm2/send`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])
		});
		expect(notUtf8.status).toBe(400);
		const recorded = await pushes(sandbox);
		expect(recorded).toHaveLength(3);
		expect(recorded[2].pushes[0].request).toEqual({
			verb: 'NotifyReprovision',
			AppId: 'a',
			DeviceToken: 'd',
			Selector: 's'
		});
		expect(recorded[0].bodyEncoding).toBe('base64');
		expect(await pushes(other)).toHaveLength(1);
		expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
	});
});

describe('the API', () => {
	it('creates with an absolute pushUrl; viewers read, and may not create, change or rotate', async () => {
		const sandbox = await createSandbox();
		expect(sandbox.pushUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/[A-Za-z0-9_-]{32}$/);
		expect(sandbox.settings).toMatchObject({ appIds: [], upstreamError: false });
		const list = await viewer.client.json<SandboxAnswer>('/api/sandboxes');
		expect(list.body.sandboxes!.map((s) => s.id)).toContain(sandbox.id);
		const one = await viewer.client.json<SandboxAnswer>(`/api/sandboxes/${sandbox.id}`);
		expect(one.body.sandbox).toEqual(sandbox);
		for (const [method, path] of [
			['POST', '/api/sandboxes'],
			['PATCH', `/api/sandboxes/${sandbox.id}`],
			['POST', `/api/sandboxes/${sandbox.id}/rotate`],
			['DELETE', `/api/sandboxes/${sandbox.id}`]
		]) {
			const answer = await viewer.client.json(path, { method, json: { name: 'Mine' } });
			expect(answer.status, `${method} ${path}`).toBe(403);
		}
		expect((await new Client(server).json('/api/sandboxes')).status).toBe(401);
	});

	it('changes the simulated upstream with PATCH and refuses what it does not know', async () => {
		const sandbox = await createSandbox();
		const patched = await editor.client.json<SandboxAnswer>(`/api/sandboxes/${sandbox.id}`, {
			method: 'PATCH',
			json: { unregisteredTokens: ['token-b'], platforms: { 'token-a': 'platformB' } }
		});
		expect(patched.status).toBe(200);
		expect(patched.body.sandbox!.settings).toMatchObject({
			unregisteredTokens: ['token-b'],
			platforms: { 'token-a': 'platformB' },
			upstreamError: false
		});
		expect((await send(sandbox, GENERIC)).body).toMatchObject({ status: 404 });
		for (const json of [
			{ upstreamError: 'yes' },
			{ platforms: { x: 'platformZ' } },
			{ colour: 'red' },
			{},
			{ rateLimit: 0 }
		]) {
			const refused = await editor.client.json(`/api/sandboxes/${sandbox.id}`, {
				method: 'PATCH',
				json
			});
			expect(refused.status, JSON.stringify(json)).toBe(400);
			expect(refused.body.error?.message).toBeTruthy();
		}
	});

	it('deletes a sandbox: its address and its API are 404 from then on; all audited', async () => {
		const sandbox = await createSandbox();
		await send(sandbox, GENERIC);
		await editor.client.json(`/api/sandboxes/${sandbox.id}/rotate`, { method: 'POST' });
		const deleted = await editor.client.fetch(`/api/sandboxes/${sandbox.id}`, {
			method: 'DELETE'
		});
		expect(deleted.status).toBe(204);
		expect((await viewer.client.json(`/api/sandboxes/${sandbox.id}`)).status).toBe(404);
		expect((await viewer.client.json(`/api/sandboxes/${sandbox.id}/pushes`)).status).toBe(404);
		const audit = await admin.json<SandboxAnswer>('/api/audit?limit=500');
		const actions = audit.body.entries!.filter((e) => e.target === sandbox.id).map((e) => e.action);
		expect(actions.sort()).toEqual(['sandbox.created', 'sandbox.deleted', 'sandbox.rotated']);
	});
});

describe('the live stream of pushes', () => {
	/** Reads server-sent events until `count` push events arrived. */
	async function readEvents(response: Response, count: number): Promise<number[]> {
		const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
		let text = '';
		const ids: number[] = [];
		while (ids.length < count) {
			const { value, done } = await reader.read();
			if (done) break;
			text += value;
			const blocks = text.split('\n\n');
			text = blocks.pop()!;
			for (const block of blocks) {
				const id = /^id: (\d+)$/m.exec(block);
				if (id && /^event: push$/m.test(block)) ids.push(Number(id[1]));
			}
		}
		await reader.cancel();
		return ids;
	}

	it('resumes after Last-Event-ID with the pushes missed in between, then goes on live', async () => {
		const sandbox = await createSandbox();
		await send(sandbox, GENERIC);
		await send(sandbox, TEXT);
		await send(sandbox, { ...GENERIC, Message: 'third' });
		const [third, second, first] = (await pushes(sandbox)).map((p) => p.id);
		const stream = await viewer.client.fetch(`/api/sandboxes/${sandbox.id}/events`, {
			headers: { 'last-event-id': String(first) }
		});
		expect(stream.headers.get('content-type')).toBe('text/event-stream');
		const reading = readEvents(stream, 3);
		await new Promise((resolve) => setTimeout(resolve, 200));
		await send(sandbox, { ...GENERIC, Message: 'live' });
		const ids = await reading;
		expect(ids.slice(0, 2)).toEqual([second, third]);
		expect(ids[2]).toBeGreaterThan(third);
	});
});

describe('across a restart', () => {
	it('keeps sandboxes and their pushes in the database', async () => {
		const own = await serverWithAdmin();
		const created = await own.admin.json<SandboxAnswer>('/api/sandboxes', {
			method: 'POST',
			json: { name: 'Kept' }
		});
		const sandbox = created.body.sandbox!;
		await send(sandbox, GENERIC);
		await own.server.stop();
		const again = await startServer({ dataDir: own.server.dataDir });
		const client = new Client(again);
		expect((await client.login('admin@example.test', 'admin-password-1')).status).toBe(200);
		const list = await client.json<SandboxAnswer>(`/api/sandboxes/${sandbox.id}/pushes`);
		expect(list.body.pushes).toHaveLength(1);
		const key = sandbox.pushUrl.split('/sandbox/')[1];
		const answer = await call(`${again.url}/sandbox/${key}/pnm2/send`, {
			body: JSON.stringify(GENERIC)
		});
		expect(answer.body).toMatchObject({ status: 200 });
	});
});
