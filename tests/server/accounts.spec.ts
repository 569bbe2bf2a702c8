import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, createUser, serverWithAdmin, type TestUser } from '../helpers/fixtures';
import { Client, startServer, stopAllServers, type TestServer } from '../helpers/server';

/**
 * Sign-in and accounts against the real server: parallel guessing meets the rate limit and a
 * bound on password checks, a deactivated account answers like a wrong password, resets and
 * role changes end sessions and tokens, weak passwords are refused, and `next` never leaves
 * the site.
 */

afterAll(stopAllServers);

/** A token of `user`, and a client that uses it. */
async function tokenOf(user: TestUser, server: TestServer): Promise<Client> {
	const created = await user.client.json('/api/tokens', { method: 'POST', json: { name: 'ci' } });
	expect(created.status).toBe(201);
	return new Client(server, created.body.token);
}

async function status(client: Client, path = '/api/session'): Promise<number> {
	return (await client.json(path)).status;
}

describe('parallel guessing', () => {
	it('checks at most the limit of 25 wrong passwords sent at once; the right one is refused after', async () => {
		const { server, admin } = await serverWithAdmin();
		const user = await createUser(admin, 'viewer', 'guessed@example.test', 'the-right-one-1');
		const guesses = await Promise.all(
			Array.from({ length: 25 }, (_, i) => new Client(server).login(user.email, `guess-${i}-x`))
		);
		const statuses = guesses.map((g) => g.status);
		expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
		expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);
		expect(statuses.every((s) => s === 401 || s === 429 || s === 503)).toBe(true);
		for (const limited of guesses.filter((g) => g.status === 429)) {
			expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
		}
		const right = await new Client(server).login(user.email, user.password);
		expect(right.status).toBe(429);
		expect(right.headers.getSetCookie()).toEqual([]);
		// The audit log shows how many passwords were really checked.
		const log = await admin.json('/api/audit?action=login.failure&limit=100');
		const checked = log.body.entries!.filter((e) => JSON.stringify(e).includes('wrong_password'));
		expect(checked.length).toBeLessThanOrEqual(5);
	}, 180_000);

	it('bounds the password checks waiting at once: beyond, 503 with Retry-After, never a queue forever', async () => {
		// At the full cost, so that the checks really queue up.
		const server = await startServer({ env: { ...ADMIN_ENV, PASSWORD_HASH_COST: '17' } });
		const admin = new Client(server);
		expect((await admin.login(ADMIN.email, ADMIN.password)).status).toBe(200);
		const user = await createUser(admin, 'viewer', 'busy@example.test');
		const bearer = await tokenOf(user, server);
		const change = (current: string) =>
			bearer.json('/api/me/password', {
				method: 'PUT',
				json: { current, password: 'my-own-new-secret-11' }
			});
		// 4 addresses × 5 attempts: within every rate limit, all at once, for 2 + 8 places; and
		// a token's 10 password changes, within its limit, behind them.
		const [attempts, changes] = await Promise.all([
			Promise.all(
				Array.from({ length: 20 }, (_, i) =>
					new Client(server).login(`nobody-${i % 4}@example.test`, `guess-${i}-x`)
				)
			),
			Promise.all(Array.from({ length: 10 }, (_, i) => change(`guess-${i}-of-mine`)))
		]);
		const statuses = attempts.map((a) => a.status);
		expect(
			statuses.every((s) => s === 401 || s === 503),
			statuses.join()
		).toBe(true);
		const busy = attempts.filter((a) => a.status === 503);
		expect(busy.length).toBeGreaterThan(0);
		for (const answer of busy) {
			expect(answer.body.error?.code).toBe('busy');
			expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
		}
		// Once the checks are done, the server signs in at once (busy attempts were not counted).
		expect((await new Client(server).login(ADMIN.email, ADMIN.password)).status).toBe(200);
		// Nor were the busy password changes: the token has exactly that many guesses left.
		expect(changes.map((c) => c.status).every((s) => s === 400 || s === 503)).toBe(true);
		const busyChanges = changes.filter((c) => c.status === 503).length;
		expect(busyChanges).toBeGreaterThan(0);
		for (let i = 0; i < busyChanges; i++) {
			expect((await change(`later-guess-${i}-of-mine`)).status).toBe(400);
		}
		expect((await change('one-guess-too-many')).status).toBe(429);
	}, 180_000);
});

describe('accounts', () => {
	let server: TestServer;
	let admin: Client;

	beforeAll(async () => {
		({ server, admin } = await serverWithAdmin());
	});

	it('a deactivated account answers the right password exactly like a wrong one', async () => {
		const user = await createUser(admin, 'editor', 'gone@example.test');
		const off = await admin.json(`/api/users/${user.id}`, {
			method: 'PATCH',
			json: { active: false }
		});
		expect(off.status).toBe(200);
		const right = await new Client(server).login(user.email, user.password);
		const wrong = await new Client(server).login(user.email, 'not-the-password-at-all');
		expect(right.status).toBe(401);
		expect(right.status).toBe(wrong.status);
		expect(right.text).toBe(wrong.text);
		expect(right.headers.getSetCookie()).toEqual([]);
		expect(right.text).not.toMatch(/deactivated/i);
	});

	it.each([
		['a password reset', { password: 'a-fresh-secret-29' }],
		['a role change', { role: 'viewer' }],
		['a deactivation', { active: false }]
	])('%s by an admin ends the sessions and the API tokens of the user', async (_, change) => {
		const email = `changed-${Object.keys(change)[0]}@example.test`;
		const user = await createUser(admin, 'editor', email);
		const bearer = await tokenOf(user, server);
		expect(await status(user.client)).toBe(200);
		expect(await status(bearer)).toBe(200);

		const patch = await admin.json(`/api/users/${user.id}`, { method: 'PATCH', json: change });
		expect(patch.status).toBe(200);
		expect(await status(user.client)).toBe(401);
		expect(await status(bearer)).toBe(401);

		// Reactivated, the account signs in again, but what the old state made stays ended.
		if ('active' in change) {
			await admin.json(`/api/users/${user.id}`, { method: 'PATCH', json: { active: true } });
		}
		const password = 'password' in change ? change.password : user.password;
		const again = new Client(server);
		expect((await again.login(email, password!)).status).toBe(200);
		expect(await status(bearer)).toBe(401);
		expect(await status(user.client)).toBe(401);
		const tokens = await again.json('/api/tokens');
		expect(tokens.body.tokens?.every((t) => t.revokedAt !== null)).toBe(true);
	});

	it("a user's own password change revokes their API tokens too", async () => {
		const user = await createUser(admin, 'viewer', 'own-change@example.test');
		const bearer = await tokenOf(user, server);
		const changed = await user.client.json('/api/me/password', {
			method: 'PUT',
			json: { current: user.password, password: 'my-own-new-secret-7' }
		});
		expect(changed.status).toBe(200);
		expect(await status(bearer)).toBe(401);
	});

	it('a password change through the API with a session cookie gives this browser a new session, and only it', async () => {
		const user = await createUser(admin, 'viewer', 'own-change-session@example.test');
		const elsewhere = new Client(server);
		expect((await elsewhere.login(user.email, user.password)).status).toBe(200);
		const bearer = await tokenOf(user, server);
		const before = user.client.session;
		const changed = await user.client.json<{ user?: { email: string }; newSession?: boolean }>(
			'/api/me/password',
			{ method: 'PUT', json: { current: user.password, password: 'my-own-new-secret-9' } }
		);
		expect(changed.status).toBe(200);
		expect(changed.body).toMatchObject({ user: { email: user.email }, newSession: true });
		const cookie = changed.headers.getSetCookie().find((c) => c.startsWith('ps_session='));
		expect(cookie).toMatch(/HttpOnly/i);
		expect(user.client.session).toBeDefined();
		expect(user.client.session).not.toBe(before);
		const me = await user.client.json('/api/session');
		expect(me.status).toBe(200);
		expect(me.body.user).toMatchObject({ email: user.email, via: 'session', method: 'password' });
		const old = new Client(server);
		old.session = before;
		expect(await status(old)).toBe(401);
		expect(await status(elsewhere)).toBe(401);
		expect(await status(bearer)).toBe(401);
	});

	it('a password change with an API token revokes it with the others and starts no session', async () => {
		const user = await createUser(admin, 'viewer', 'own-change-token@example.test');
		const bearer = await tokenOf(user, server);
		const changed = await bearer.json<{ newSession?: boolean }>('/api/me/password', {
			method: 'PUT',
			json: { current: user.password, password: 'my-own-new-secret-10' }
		});
		expect(changed.status).toBe(200);
		expect(changed.body.newSession).toBe(false);
		expect(changed.headers.getSetCookie()).toEqual([]);
		expect(await status(bearer)).toBe(401);
		expect(await status(user.client)).toBe(401);
	});

	it('counts wrong current passwords against the credential: its eleventh try waits, even the right one', async () => {
		const user = await createUser(admin, 'viewer', 'own-guessed@example.test');
		const bearer = await tokenOf(user, server);
		const change = (client: Client, current: string) =>
			client.json('/api/me/password', {
				method: 'PUT',
				json: { current, password: 'my-own-new-secret-8' }
			});
		for (let i = 0; i < 10; i++) {
			const wrong = await change(bearer, `guess-${i}-of-mine`);
			expect(wrong.status).toBe(400);
			expect(wrong.body.error?.code).toBe('wrong_password');
		}
		const right = await change(bearer, user.password);
		expect(right.status).toBe(429);
		expect(right.body.error?.code).toBe('rate_limited');
		expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
		// The limit is the token's: the session's own guess is still checked.
		const bySession = await change(user.client, 'not-mine-either-1');
		expect(bySession.status).toBe(400);
		expect(bySession.body.error?.code).toBe('wrong_password');
		// Nothing changed: the session and the token go on.
		expect(await status(user.client)).toBe(200);
		expect(await status(bearer)).toBe(200);
		const log = await admin.json('/api/audit?action=user.password_change_failure&limit=50');
		const mine = log.body.entries!.filter((e) => e.target === user.email);
		expect(mine.map((e) => e.details?.reason)).toEqual([
			'wrong_password',
			'rate_limited',
			...Array<string>(10).fill('wrong_password')
		]);
		expect(mine.map((e) => e.details?.via)).toEqual([
			'session',
			...Array<string>(11).fill('token')
		]);
		expect(mine.every((e) => e.actor === user.email && e.actorId === user.id)).toBe(true);
	});

	it('renaming a user ends nothing', async () => {
		const user = await createUser(admin, 'viewer', 'renamed@example.test');
		const bearer = await tokenOf(user, server);
		const patch = await admin.json(`/api/users/${user.id}`, {
			method: 'PATCH',
			json: { name: 'Someone Else' }
		});
		expect(patch.status).toBe(200);
		expect(await status(user.client)).toBe(200);
		expect(await status(bearer)).toBe(200);
	});
});

describe('weak passwords', () => {
	let admin: Client;
	let user: TestUser;

	beforeAll(async () => {
		({ admin } = await serverWithAdmin());
		user = await createUser(admin, 'viewer', 'weak.checker@example.test');
	});

	const WEAK = [
		['passwordpassword', /commonly used/],
		['123456789012', /commonly used/],
		['qwertyuiopas', /neighbouring keys/],
		['aaaaaaaaaaaa', /repeats “a”/],
		['abcabcabcabc', /repeats “abc”/],
		['Password1234', /commonly used/],
		['mnbvcxzlkjhg', /neighbouring keys/],
		['098765432109', /neighbouring keys/],
		['aabbaabbabab', /fewer than 5 different/]
	] as const;

	it.each(WEAK)('are refused when an admin creates a user: %j', async (password, why) => {
		const answer = await admin.json('/api/users', {
			method: 'POST',
			json: { email: 'new.weak@example.test', name: 'Weak', role: 'viewer', password }
		});
		expect(answer.status).toBe(400);
		expect(answer.body.issues?.[0]?.path).toEqual(['password']);
		expect(answer.body.issues?.[0]?.message).toMatch(why);
	});

	it.each(WEAK)('are refused at a reset and a change of one’s own: %j', async (password, why) => {
		const reset = await admin.json(`/api/users/${user.id}`, {
			method: 'PATCH',
			json: { password }
		});
		expect(reset.status).toBe(400);
		expect(reset.body.error?.message).toMatch(why);
		const own = await user.client.json('/api/me/password', {
			method: 'PUT',
			json: { current: user.password, password }
		});
		expect(own.status).toBe(400);
		expect(own.body.error?.message).toMatch(why);
		expect(await status(user.client)).toBe(200);
	});

	it('refuse the user’s own e-mail address, at creation, a reset and a change', async () => {
		const created = await admin.json('/api/users', {
			method: 'POST',
			json: {
				email: 'self.named@example.test',
				name: 'Self',
				role: 'viewer',
				password: 'self.named@example.test'
			}
		});
		expect(created.status).toBe(400);
		expect(created.body.issues?.[0]?.message).toMatch(/your e-mail address/);
		const reset = await admin.json(`/api/users/${user.id}`, {
			method: 'PATCH',
			json: { password: 'weak.checker@example.test' }
		});
		expect(reset.status).toBe(400);
		expect(reset.body.error?.code).toBe('weak_password');
		const own = await user.client.json('/api/me/password', {
			method: 'PUT',
			json: { current: user.password, password: 'Weak.Checker2024!' }
		});
		expect(own.status).toBe(400);
		expect(own.body.error?.message).toMatch(/your e-mail address/);
	});

	it('accept a long password that is none of these', async () => {
		const answer = await admin.json('/api/users', {
			method: 'POST',
			json: {
				email: 'strong@example.test',
				name: 'Strong',
				role: 'viewer',
				password: 'velvet lantern orbit 42'
			}
		});
		expect(answer.status).toBe(201);
	});

	it('are refused at setup, at the password field', async () => {
		const fresh = await startServer();
		const token = /setup\?token=([\w-]+)/.exec(fresh.stdout())![1];
		const form = new URLSearchParams({
			token,
			email: 'first@example.test',
			name: 'First',
			password: 'qwertyuiopas',
			confirm: 'qwertyuiopas'
		});
		const answer = await fetch(`${fresh.url}/setup`, {
			method: 'POST',
			headers: {
				origin: fresh.url,
				'content-type': 'application/x-www-form-urlencoded',
				accept: 'application/json',
				'x-sveltekit-action': 'true'
			},
			body: form.toString()
		});
		const result = (await answer.json()) as { type: string; status: number; data: string };
		expect(result.type).toBe('failure');
		expect(result.status).toBe(400);
		expect(result.data).toMatch(/neighbouring keys/);
		expect((await new Client(fresh).login('first@example.test', 'qwertyuiopas')).status).toBe(401);
	});

	it('are refused as ADMIN_PASSWORD: the server does not start', async () => {
		await expect(
			startServer({ env: { ADMIN_EMAIL: 'root@example.test', ADMIN_PASSWORD: 'passwordpassword' } })
		).rejects.toThrow(/ADMIN_PASSWORD: .*commonly used/);
	});
});

describe('after sign-in', () => {
	let server: TestServer;
	let admin: Client;

	beforeAll(async () => {
		({ server, admin } = await serverWithAdmin());
	});

	const PAYLOADS = [
		'//evil.example',
		'/.//evil.example',
		'/%2e//evil.example',
		'/%2E%2e//evil.example/x/..',
		'/x/..//evil.example',
		'/x/%2e%2e//evil.example',
		'/\\evil.example',
		'/\\/evil.example',
		'/.\\\\evil.example',
		'/\t/evil.example',
		'/\n/evil.example',
		'/.\r\n//evil.example',
		'https://evil.example/',
		'/%5C%5Cevil.example/../..//evil.example'
	];

	it.each(PAYLOADS)('never redirects off the site, signed in: next=%j', async (next) => {
		const answer = await admin.fetch(`/login?next=${encodeURIComponent(next)}`);
		expect(answer.status).toBe(303);
		const location = answer.headers.get('location')!;
		expect(location.startsWith('/')).toBe(true);
		expect(location.startsWith('//')).toBe(false);
		expect(new URL(location, `${server.url}/login`).origin).toBe(server.url);
	});

	it.each(PAYLOADS.slice(0, 6))(
		'never redirects off the site, signing in: next=%j',
		async (next) => {
			const client = new Client(server);
			const form = new URLSearchParams({ email: ADMIN.email, password: ADMIN.password, next });
			const answer = await client.fetch('/login', {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
				body: form.toString()
			});
			expect(answer.status).toBe(303);
			const location = answer.headers.get('location')!;
			expect(location.startsWith('//')).toBe(false);
			expect(new URL(location, `${server.url}/login`).origin).toBe(server.url);
		}
	);

	it('keeps a path of the site', async () => {
		const answer = await admin.fetch(`/login?next=${encodeURIComponent('/profiles?x=1#y')}`);
		expect(answer.headers.get('location')).toBe('/profiles?x=1#y');
	});
});
