import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '$lib/server/auth/api-tokens';
import { sessionCookie } from '$lib/server/auth/request';
import type { AuthUser } from '$lib/server/auth/auth-user';
import { startSession } from '$lib/server/auth/session';
import { serverContext } from '$lib/server/platform/context';
import { bodySizeLimit, directApi, requestOrigin } from '$lib/server/http/direct-api';

/**
 * The handler of the test-call endpoint served before the kit, in this process, on a real
 * server on port 0 whose `next` stands for the kit: it reads the body and answers 599 with its length, so a test sees both that a
 * request was handed on and that it was handed on unread. The store is SQLite in a temporary
 * directory; the calls go to a real local upstream.
 */

const dataDir = mkdtempSync(path.join(tmpdir(), 'direct-api-'));
const ENV = {
	DATA_DIR: dataDir,
	DATABASE_URL: '',
	OUTBOUND_ALLOW: '127.0.0.1/32',
	OUTBOUND_PORTS: '1024-65535',
	PROTOCOL_HEADER: 'x-forwarded-proto',
	BODY_SIZE_LIMIT: '4K',
	ORIGIN: undefined
};
/** The environment as it was, given back when the file ends. */
const saved = Object.fromEntries(Object.keys(ENV).map((name) => [name, process.env[name]]));
function setEnv(values: Record<string, string | undefined>) {
	for (const [name, value] of Object.entries(values)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
}
setEnv(ENV);

let app: http.Server;
let base: string;
let upstream: http.Server;
let upstreamUrl: string;
const tokens: Record<'editor' | 'viewer', string> = { editor: '', viewer: '' };
let session = '';

function listen(server: http.Server): Promise<string> {
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () => {
			resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
		})
	);
}

beforeAll(async () => {
	upstream = http.createServer((_req, res) => {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{"sms_id":"s-1"}');
	});
	upstreamUrl = await listen(upstream);
	app = http.createServer((req, res) => {
		req.headers['x-forwarded-proto'] = 'http';
		directApi(req, res, () => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				res.writeHead(599, { 'content-type': 'text/plain' });
				res.end(`kit ${Buffer.concat(chunks).length}`);
			});
		});
	});
	base = await listen(app);
	const ctx = serverContext();
	for (const role of ['editor', 'viewer'] as const) {
		const user = await ctx.store.users.create({
			email: `${role}@example.test`,
			name: role,
			role,
			passwordHash: 'x',
			at: Date.now()
		});
		const auth: AuthUser = { ...user, via: 'session', method: 'password' };
		tokens[role] = (await createToken(ctx, auth, null, 'test')).token;
		if (role === 'editor') session = await startSession(ctx, user, { ip: null, userAgent: null });
	}
});

afterAll(async () => {
	await new Promise((resolve) => app.close(resolve));
	await new Promise((resolve) => upstream.close(resolve));
	await serverContext().store.close();
	rmSync(dataDir, { recursive: true, force: true });
	setEnv(saved);
});

const callBody = () =>
	JSON.stringify({
		service: 'sendMessage',
		settings: { genericSmsSendUrl: `${upstreamUrl}/send?to=%sms_to%` },
		values: { sms_to: '+14155550123' }
	});

async function post(headers: Record<string, string>, body: BodyInit = callBody()) {
	const response = await fetch(`${base}/api/test-calls`, {
		method: 'POST',
		headers,
		body,
		// A stream has no length: it goes out chunked.
		...(body instanceof ReadableStream ? { duplex: 'half' } : {})
	} as RequestInit);
	return { status: response.status, headers: response.headers, text: await response.text() };
}

const asJson = { 'content-type': 'application/json' };

describe('the test-call endpoint before the kit', () => {
	it('answers an ordinary call itself: the request sent, its answer and interpretation', async () => {
		const answer = await post({ ...asJson, authorization: `Bearer ${tokens.editor}` });
		expect(answer.status).toBe(200);
		expect(answer.headers.get('content-type')).toBe('application/json');
		expect(answer.headers.get('cache-control')).toBe('no-store');
		const body = JSON.parse(answer.text);
		expect(body.id).toBeGreaterThan(0);
		expect(body.calls[0].request.url).toBe(`${upstreamUrl}/send?to=%2B14155550123`);
		expect(body.calls[0].response.status).toBe(200);
		expect(body.calls[0].interpretation.action).toEqual({ kind: 'storeSmsId', smsId: 's-1' });
	});

	it('answers a session from its own pages, by Origin or by Sec-Fetch-Site', async () => {
		const cookie = `other=1; ps_session=${session}`;
		const byOrigin = await post({ ...asJson, cookie, origin: base });
		expect(byOrigin.status).toBe(200);
		const bySite = await post({ ...asJson, cookie, 'sec-fetch-site': 'same-origin' });
		expect(bySite.status).toBe(200);
	});

	it('answers a body that is not JSON or not a call itself, as the route does', async () => {
		const auth = { ...asJson, authorization: `Bearer ${tokens.editor}` };
		const broken = JSON.parse((await post(auth, '{"service":')).text);
		expect(broken.error.code).toBe('invalid_input');
		expect(broken.issues[0]).toMatchObject({ code: 'invalid_json' });
		const notUtf8 = await post(auth, new Uint8Array([0x7b, 0xff, 0x7d]));
		expect(notUtf8.status).toBe(400);
		expect(notUtf8.text).toContain('not valid UTF-8');
		const unknown = await post(auth, JSON.stringify({ service: 'noSuchService' }));
		expect(unknown.status).toBe(400);
	});

	it.each([
		['no credentials', {}],
		['an Authorization that is not Bearer', { authorization: `Basic ${tokens.editor}` }],
		['an unknown token', { authorization: 'Bearer pst_unknown' }],
		['a role that may not send test calls', { authorization: `Bearer ${tokens.viewer}` }],
		['an unknown session', { cookie: 'ps_session=unknown', origin: 'x' }]
	])('hands a request with %s to the kit, unread', async (_, headers) => {
		const body = callBody();
		const answer = await post({ ...asJson, ...headers }, body);
		expect(answer).toMatchObject({ status: 599, text: `kit ${body.length}` });
	});

	it('hands a session cookie from elsewhere, or from nowhere said, to the kit, unread', async () => {
		const cookie = `ps_session=${session}`;
		const body = callBody();
		for (const origin of ['https://evil.example', null]) {
			const answer = await post({ ...asJson, cookie, ...(origin ? { origin } : {}) }, body);
			expect(answer, String(origin)).toMatchObject({ status: 599, text: `kit ${body.length}` });
		}
	});

	it('hands other bodies to the kit, unread: a form, no length, over the size limit', async () => {
		const auth = { authorization: `Bearer ${tokens.editor}` };
		const body = callBody();
		const form = await post({ ...auth, 'content-type': 'text/plain' }, body);
		expect(form).toMatchObject({ status: 599, text: `kit ${body.length}` });
		const chunked = await post(
			{ ...auth, ...asJson },
			new ReadableStream({
				start(controller) {
					controller.enqueue(new TextEncoder().encode(body));
					controller.close();
				}
			})
		);
		expect(chunked).toMatchObject({ status: 599, text: `kit ${body.length}` });
		const big = JSON.stringify({ ...JSON.parse(body), scenario: 'x'.repeat(5000) });
		const over = await post({ ...auth, ...asJson }, big);
		expect(over).toMatchObject({ status: 599, text: `kit ${big.length}` });
	});
});

describe('reading a request as the kit would', () => {
	it('reads the body size limit as the Node adapter does', () => {
		expect(bodySizeLimit('16M')).toBe(16 * 1024 * 1024);
		expect(bodySizeLimit('512K')).toBe(512 * 1024);
		expect(bodySizeLimit('2g')).toBe(2 * 1024 ** 3);
		expect(bodySizeLimit('1000')).toBe(1000);
		expect(bodySizeLimit('Infinity')).toBe(Infinity);
	});

	it('works out the origin from ORIGIN, or the scheme header and Host; else leaves it to the kit', () => {
		const request = (headers: Record<string, string>) => ({ headers }) as http.IncomingMessage;
		const proto = { 'x-forwarded-proto': 'http' };
		expect(requestOrigin(request({ ...proto, host: 'Studio.Example:80' }))).toBe(
			'http://studio.example'
		);
		expect(requestOrigin(request({ ...proto, host: '[::1]:5173' }))).toBe('http://[::1]:5173');
		expect(requestOrigin(request({ 'x-forwarded-proto': 'ftp', host: 'a.example' }))).toBeNull();
		expect(requestOrigin(request({ ...proto, host: 'a.example/x' }))).toBeNull();
		expect(requestOrigin(request({ ...proto }))).toBeNull();
		process.env.ORIGIN = 'https://studio.example';
		try {
			expect(requestOrigin(request({ ...proto, host: 'a.example' }))).toBe(
				'https://studio.example'
			);
		} finally {
			delete process.env.ORIGIN;
		}
		process.env.HOST_HEADER = 'x-forwarded-host';
		try {
			expect(requestOrigin(request({ ...proto, host: 'a.example' }))).toBeNull();
		} finally {
			delete process.env.HOST_HEADER;
		}
	});

	it('reads the session cookie as the kit does: the first of its name, unquoted, decoded', () => {
		expect(sessionCookie(null)).toBeUndefined();
		expect(sessionCookie('a=1; b=2')).toBeUndefined();
		expect(sessionCookie('a=1; ps_session=abc; ps_session=def')).toBe('abc');
		expect(sessionCookie(' ps_session = "abc" ')).toBe('abc');
		expect(sessionCookie('ps_session=a%2Fb')).toBe('a/b');
		expect(sessionCookie('ps_session=a%zzb')).toBe('a%zzb');
		expect(sessionCookie('xps_session=1; ps_sessionx=2')).toBeUndefined();
	});
});
