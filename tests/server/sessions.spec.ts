import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, createUser, serverWithAdmin, sleep } from '../helpers/fixtures';
import { Client, startServer, stopAllServers, type TestServer } from '../helpers/server';

/**
 * Sessions against the real server: they survive restarts, end when idle, when too old and at
 * logout, rotate at login; sign-in is rate-limited; a fresh installation prints a setup link.
 */

afterAll(stopAllServers);

/** `GET /api/session` with the client's cookie. */
async function whoAmI(client: Client): Promise<number> {
	return (await client.json('/api/session')).status;
}

describe('a session', () => {
	let server: TestServer;
	let admin: Client;

	beforeAll(async () => {
		({ server, admin } = await serverWithAdmin());
	});

	it('sets an HttpOnly, SameSite=Lax session cookie at sign-in', async () => {
		const client = new Client(server);
		const answer = await client.fetch('/api/session', {
			method: 'POST',
			json: { email: ADMIN.email, password: ADMIN.password }
		});
		expect(answer.status).toBe(200);
		const [cookie] = answer.headers.getSetCookie();
		expect(cookie).toMatch(/^ps_session=[\w-]{40,};/);
		expect(cookie).toMatch(/; HttpOnly/i);
		expect(cookie).toMatch(/; SameSite=Lax/i);
		expect(cookie).toMatch(/; Path=\//i);
	});

	it('ends at logout: the old cookie no longer works', async () => {
		const client = new Client(server);
		await client.login(ADMIN.email, ADMIN.password);
		const cookie = client.session;
		expect(await whoAmI(client)).toBe(200);
		const out = await client.fetch('/api/session', { method: 'DELETE' });
		expect(out.status).toBe(204);
		expect(client.session).toBeUndefined();
		client.session = cookie;
		expect(await whoAmI(client)).toBe(401);
	});

	it('rotates at sign-in: the previous cookie of the same browser stops working', async () => {
		const client = new Client(server);
		await client.login(ADMIN.email, ADMIN.password);
		const first = client.session;
		const again = await client.login(ADMIN.email, ADMIN.password);
		expect(again.status).toBe(200);
		const second = client.session;
		expect(second).toBeDefined();
		expect(second).not.toBe(first);
		expect(await whoAmI(client)).toBe(200);
		client.session = first;
		expect(await whoAmI(client)).toBe(401);
	});

	it('refuses a wrong password or an unknown e-mail alike (401 invalid_credentials)', async () => {
		const client = new Client(server);
		const wrong = await client.login(ADMIN.email, 'not-the-password');
		const unknown = await client.login('nobody@example.test', 'not-the-password');
		for (const answer of [wrong, unknown]) {
			expect(answer.status).toBe(401);
			expect(answer.body.error?.code).toBe('invalid_credentials');
			expect(answer.headers.getSetCookie()).toEqual([]);
		}
		expect(wrong.body.error?.message).toBe(unknown.body.error?.message);
	});

	it('survives a restart on the same data directory', async () => {
		const before = new Client(server);
		await before.login(ADMIN.email, ADMIN.password);
		expect(await whoAmI(before)).toBe(200);
		await server.stop();

		server = await startServer({ dataDir: server.dataDir, env: ADMIN_ENV });
		const after = new Client(server);
		after.session = before.session;
		expect(await whoAmI(after)).toBe(200);
		expect(server.stdout()).not.toMatch(/setup\?token=|Created the first admin/);
		admin = new Client(server);
		admin.session = before.session;
	});

	it('rate-limits failed sign-ins per e-mail: 429 with Retry-After, even for the password', async () => {
		const user = await createUser(admin, 'viewer', 'limited@example.test');
		const client = new Client(server);
		const statuses: number[] = [];
		for (let i = 0; i < 5; i++) {
			statuses.push((await client.login(user.email, `wrong-password-${i}`)).status);
		}
		expect(statuses).toEqual([401, 401, 401, 401, 401]);
		const limited = await client.login(user.email, 'wrong-password-6');
		expect(limited.status).toBe(429);
		expect(limited.body.error?.code).toBe('rate_limited');
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
		const right = await client.login(user.email, user.password);
		expect(right.status).toBe(429);
		expect(right.headers.getSetCookie()).toEqual([]);
		// Another account from the same address is not locked out by these.
		expect((await new Client(server).login(ADMIN.email, ADMIN.password)).status).toBe(200);
		// The signed-in session of the limited user still works.
		expect(await whoAmI(user.client)).toBe(200);
	});
});

describe('session expiry', () => {
	const IDLE_MINUTES = 0.03; // 1.8 s
	const MAX_HOURS = 0.0008; // 2.88 s

	let idle: TestServer;
	let absolute: TestServer;

	beforeAll(async () => {
		[idle, absolute] = await Promise.all([
			startServer({ env: { ...ADMIN_ENV, SESSION_IDLE_MINUTES: String(IDLE_MINUTES) } }),
			startServer({ env: { ...ADMIN_ENV, SESSION_MAX_HOURS: String(MAX_HOURS) } })
		]);
	});

	it('ends a session left idle longer than SESSION_IDLE_MINUTES (401)', async () => {
		const client = new Client(idle);
		expect((await client.login(ADMIN.email, ADMIN.password)).status).toBe(200);
		expect(await whoAmI(client)).toBe(200);
		await sleep(IDLE_MINUTES * 60_000 + 700);
		const answer = await client.json('/api/session');
		expect(answer.status).toBe(401);
		expect(answer.body.error?.code).toBe('unauthenticated');
	});

	it('keeps a session in use alive past the idle time', async () => {
		const client = new Client(idle);
		expect((await client.login(ADMIN.email, ADMIN.password)).status).toBe(200);
		const statuses: number[] = [];
		const until = Date.now() + IDLE_MINUTES * 60_000 * 2;
		while (Date.now() < until) {
			statuses.push(await whoAmI(client));
			await sleep(200);
		}
		expect(statuses.length).toBeGreaterThan(5);
		expect(new Set(statuses)).toEqual(new Set([200]));
	});

	it('ends a session older than SESSION_MAX_HOURS, however active (401)', async () => {
		const client = new Client(absolute);
		expect((await client.login(ADMIN.email, ADMIN.password)).status).toBe(200);
		const statuses: number[] = [];
		const until = Date.now() + MAX_HOURS * 3_600_000 + 1500;
		while (Date.now() < until) {
			statuses.push(await whoAmI(client));
			await sleep(200);
		}
		expect(statuses[0]).toBe(200);
		expect(statuses.at(-1)).toBe(401);
		// Once ended, it stays ended.
		expect(statuses.slice(statuses.indexOf(401)).every((s) => s === 401)).toBe(true);
	});
});

describe('first start', () => {
	it('prints a one-time setup link when there is no user and no ADMIN_* variables', async () => {
		const server = await startServer();
		expect(server.stdout()).toMatch(/\/setup\?token=[\w-]{40,}/);
		const token = /setup\?token=([\w-]+)/.exec(server.stdout())![1];
		expect(await whoAmI(new Client(server))).toBe(401);
		await server.stop();
		// A second start of a still-empty installation prints a new link.
		const again = await startServer({ dataDir: server.dataDir });
		const second = /setup\?token=([\w-]+)/.exec(again.stdout())?.[1];
		expect(second).toBeDefined();
		expect(second).not.toBe(token);
	});

	it('creates the admin from ADMIN_EMAIL and ADMIN_PASSWORD, with no setup link', async () => {
		const server = await startServer({ env: ADMIN_ENV });
		expect(server.stdout()).not.toMatch(/setup\?token=/);
		expect(server.stdout()).not.toContain(ADMIN.password);
		const client = new Client(server);
		const login = await client.login(ADMIN.email, ADMIN.password);
		expect(login.status).toBe(200);
		expect(login.body.user).toMatchObject({ email: ADMIN.email, role: 'admin', via: 'session' });
	});

	it('refuses to start with an ADMIN_PASSWORD that is too short', async () => {
		await expect(
			startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: 'short' } })
		).rejects.toThrow(/ADMIN_PASSWORD/);
	});
});
