import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, createUser, serverWithAdmin, type TestUser } from '../helpers/fixtures';
import { Client, stopAllServers, type TestServer } from '../helpers/server';

/**
 * Response headers against the real server: every kind of answer (pages, refusals of the hooks,
 * endpoint errors, answers that never reach the app, files) carries the security headers, and
 * download names carry no control or format characters.
 */

let server: TestServer;
let admin: Client;
let viewer: TestUser;
let anonymous: Client;

beforeAll(async () => {
	({ server, admin } = await serverWithAdmin());
	viewer = await createUser(admin, 'viewer', 'headers.viewer@example.test');
	anonymous = new Client(server);
});

afterAll(stopAllServers);

interface Kind {
	name: string;
	status: number;
	send: () => Promise<Response>;
}

/** The path of one of the build's scripts (answered before the kit, decision 0128). */
function builtScript(): string {
	const name = readdirSync('build/client/_app/immutable/chunks').find((n) => n.endsWith('.js'));
	return `/_app/immutable/chunks/${name}`;
}

/** A raw request, for what a client helper would not send. */
function raw(path: string, init: RequestInit = {}): Promise<Response> {
	return fetch(server.url + path, { redirect: 'manual', ...init });
}

const KINDS: Kind[] = [
	{ name: 'a page', status: 200, send: () => viewer.client.fetch('/') },
	{
		name: 'the 403 page of the hooks',
		status: 403,
		send: () => viewer.client.fetch('/admin')
	},
	{ name: 'a redirect to sign in', status: 303, send: () => anonymous.fetch('/profiles') },
	{ name: 'a 401 of the API', status: 401, send: () => anonymous.fetch('/api/profiles') },
	{ name: 'a 403 of the API', status: 403, send: () => viewer.client.fetch('/api/users') },
	{
		name: 'a cross-site refusal',
		status: 403,
		send: () =>
			admin.fetch('/api/profiles', {
				method: 'POST',
				json: { name: 'x' },
				headers: { origin: 'https://evil.example' }
			})
	},
	{ name: 'a 404 page', status: 404, send: () => viewer.client.fetch('/no/such/page') },
	{ name: 'a 404 of the API', status: 404, send: () => viewer.client.fetch('/api/profiles/nope') },
	{ name: 'a 404 of a sink', status: 404, send: () => anonymous.fetch('/sink/no-such-key/x') },
	{
		name: 'a 405 of an endpoint',
		status: 405,
		send: () => admin.fetch('/api/health', { method: 'PUT', json: {} })
	},
	{
		name: 'a 400 of an endpoint',
		status: 400,
		send: () =>
			admin.fetch('/api/profiles', {
				method: 'POST',
				body: '{',
				headers: { 'content-type': 'application/json' }
			})
	},
	{
		name: 'a 429 of sign-in',
		status: 429,
		send: async () => {
			const client = new Client(server);
			for (let i = 0; i < 5; i++) await client.login('limited.headers@example.test', `x-${i}`);
			return client.fetch('/api/session', {
				method: 'POST',
				json: { email: 'limited.headers@example.test', password: 'x-6' }
			});
		}
	},
	{
		name: 'a 204 of an endpoint',
		status: 204,
		send: async () => {
			const client = new Client(server);
			await client.login(viewer.email, viewer.password);
			return client.fetch('/api/session', { method: 'DELETE' });
		}
	},
	{
		name: 'a malformed path, refused before the hooks',
		status: 400,
		send: () => viewer.client.fetch('/%E0%A4%A')
	},
	{ name: 'a static file', status: 200, send: () => raw('/robots.txt') },
	{ name: 'a file of the build', status: 200, send: () => raw('/_app/version.json') },
	{ name: 'a script of the build, from memory', status: 200, send: () => raw(builtScript()) },
	{ name: 'a health check', status: 200, send: () => raw('/api/health') }
];

describe('every response', () => {
	it.each(KINDS)('carries the security headers: $name', async ({ status, send }) => {
		const answer = await send();
		await answer.body?.cancel();
		expect(answer.status).toBe(status);
		const csp = answer.headers.get('content-security-policy') ?? '';
		expect(csp).toMatch(/frame-ancestors 'none'/);
		expect(csp).toMatch(/default-src '(none|self)'/);
		expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
		expect(csp).toMatch(/base-uri '(none|self)'/);
		expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
		expect(answer.headers.get('x-frame-options')).toBe('DENY');
		expect(answer.headers.get('referrer-policy')).toBe('same-origin');
		expect(answer.headers.get('cross-origin-opener-policy')).toBe('same-origin');
	});

	it('a page keeps the policy of the app, with scripts from its own origin', async () => {
		const page = await viewer.client.fetch('/');
		await page.body?.cancel();
		expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
	});

	it("the 403 page of the hooks is an app page with the kit's policy, its nonce included", async () => {
		const page = await viewer.client.fetch('/admin');
		const html = await page.text();
		expect(html).toMatch(/403/);
		const policy = page.headers.get('content-security-policy') ?? '';
		expect(policy).toMatch(/script-src 'self'/);
		const nonce = /<script nonce="([^"]+)"/.exec(html)?.[1];
		expect(nonce).toBeTruthy();
		expect(policy).toContain(`'nonce-${nonce}'`);
	});
});

describe('downloads', () => {
	const NAME = 'x\u202egnp\u200b\u2066.exe\u0007';

	it.each([
		['the XML export', (id: string) => `/api/profiles/${id}/export.xml`],
		['the backup', (id: string) => `/api/profiles/${id}/backup`],
		['the portal sheet', (id: string) => `/api/profiles/${id}/portal.md`]
	])('name %s without control or format characters', async (_, path) => {
		const id = await createProfile(admin, NAME);
		const answer = await admin.fetch(path(id));
		await answer.body?.cancel();
		expect(answer.status).toBe(200);
		const value = answer.headers.get('content-disposition')!;
		const filename = /filename="([^"]*)"/.exec(value)![1];
		const star = decodeURIComponent(/filename\*=UTF-8''(\S+)$/.exec(value)![1]);
		for (const name of [filename, star]) {
			expect(name).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
			expect(name.startsWith('xgnp.exe')).toBe(true);
		}
	});

	it('name the backup with secrets the same way', async () => {
		const id = await createProfile(admin, NAME);
		const answer = await admin.fetch(`/api/profiles/${id}/backup/secrets`, {
			method: 'POST',
			json: { confirm: true }
		});
		await answer.body?.cancel();
		if (answer.status !== 200) throw new Error(`backup with secrets: ${answer.status}`);
		const value = answer.headers.get('content-disposition')!;
		expect(decodeURIComponent(value)).not.toMatch(/[\p{Cc}\p{Cf}]/u);
	});
});
