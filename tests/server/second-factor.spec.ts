import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createUser, serverWithAdmin, type TestUser } from '../helpers/fixtures';
import { Client, stopAllServers, type ClientResponse, type TestServer } from '../helpers/server';
import { code, enrol, freshStep, turnOn, type TotpAnswer } from '../helpers/totp';

/**
 * The second factor (TOTP) against the real server: setting it up, signing in with a code or a
 * recovery code, codes that are wrong, replayed or walked, turning it off, an admin taking it
 * off, REQUIRE_2FA, and the audit entries. Codes come from the library and the secret the
 * server answered, as an authenticator app makes them.
 */

afterAll(stopAllServers);

/** A six-digit code that is none of those the server accepts now (one step either side). */
function wrongCode(secret: string): string {
	const right = new Set([-2, -1, 0, 1, 2].map((o) => code(secret, o)));
	for (let n = 0; ; n++) {
		const candidate = String(n).padStart(6, '0');
		if (!right.has(candidate)) return candidate;
	}
}

function signIn(user: TestUser, extra: Record<string, string> = {}, password = user.password) {
	const client = new Client(user.client.server);
	const answer = client.json('/api/session', {
		method: 'POST',
		json: { email: user.email, password, ...extra }
	});
	return answer.then((a) => ({ ...a, client }));
}

async function audit(admin: Client, action: string) {
	const log = await admin.json<TotpAnswer>(`/api/audit?action=${action}&limit=50`);
	expect(log.status).toBe(200);
	return log.body.entries!;
}

describe('a second factor for password accounts', () => {
	let admin: Client;
	let alice: TestUser;
	let bob: TestUser;
	let carol: TestUser;
	let dave: TestUser;
	let erin: TestUser;
	let frank: TestUser;

	beforeAll(async () => {
		({ admin } = await serverWithAdmin());
		alice = await createUser(admin, 'editor', 'alice@example.test');
		bob = await createUser(admin, 'viewer', 'bob@example.test');
		carol = await createUser(admin, 'viewer', 'carol@example.test');
		dave = await createUser(admin, 'viewer', 'dave@example.test');
		erin = await createUser(admin, 'viewer', 'erin@example.test');
		frank = await createUser(admin, 'viewer', 'frank@example.test');
	}, 60_000);

	it('is set up with a code of the app, answers ten recovery codes once, then asks for a code at sign-in', async () => {
		await freshStep();
		const { secret, uri } = await enrol(alice.client);
		expect(uri).toMatch(/^otpauth:\/\/totp\//);
		const parsed = new URL(uri);
		expect(parsed.searchParams.get('issuer')).toBe('Provisioning Studio');
		expect(parsed.searchParams.get('secret')).toBe(secret);
		expect(decodeURIComponent(parsed.pathname)).toContain(alice.email);
		// Not on yet: the password alone still signs in.
		expect((await signIn(alice)).status).toBe(200);

		const wrong = await alice.client.json<TotpAnswer>('/api/me/totp', {
			method: 'PUT',
			json: { code: wrongCode(secret) }
		});
		expect(wrong.status).toBe(400);
		expect(wrong.body.error?.code).toBe('invalid_code');
		expect((await alice.client.json<TotpAnswer>('/api/me/totp')).body.enabled).toBe(false);

		const first = code(secret, -1);
		const on = await alice.client.json<TotpAnswer>('/api/me/totp', {
			method: 'PUT',
			json: { code: first }
		});
		expect(on.status).toBe(200);
		const codes = on.body.recoveryCodes!;
		expect(codes).toHaveLength(10);
		expect(new Set(codes).size).toBe(10);
		expect(await alice.client.json<TotpAnswer>('/api/me/totp')).toMatchObject({
			body: { enabled: true, recoveryCodesLeft: 10 }
		});
		// A second set-up is refused while one is on.
		const again = await alice.client.json<TotpAnswer>('/api/me/totp', { method: 'POST' });
		expect(again.status).toBe(409);

		// The right password alone: asked for the code, no session. A wrong one: as ever.
		const asked = await signIn(alice);
		expect(asked.status).toBe(401);
		expect(asked.body.error?.code).toBe('totp_required');
		expect(asked.headers.getSetCookie()).toEqual([]);
		const wrongPassword = await signIn(alice, {}, 'not-the-password-1');
		expect(wrongPassword.body.error?.code).toBe('invalid_credentials');

		// The code of the step the set-up used is spent; the next step's is good, once.
		const spent = await signIn(alice, { totp: first });
		expect(spent.status).toBe(401);
		expect(spent.body.error?.code).toBe('invalid_code');
		const now = code(secret);
		const good = await signIn(alice, { totp: now });
		expect(good.status).toBe(200);
		expect(good.client.session).toBeDefined();
		expect((await good.client.json('/api/session')).status).toBe(200);
		const replayed = await signIn(alice, { totp: now });
		expect(replayed.status).toBe(401);
		expect(replayed.body.error?.code).toBe('invalid_code');
		expect(replayed.headers.getSetCookie()).toEqual([]);

		// A recovery code signs in once (typed in capitals and without dashes, as people do).
		const typed = codes[0].replace(/-/g, '').toUpperCase();
		expect((await signIn(alice, { recoveryCode: typed })).status).toBe(200);
		const reused = await signIn(alice, { recoveryCode: codes[0] });
		expect(reused.status).toBe(401);
		expect(reused.body.error?.code).toBe('invalid_code');
		expect((await alice.client.json<TotpAnswer>('/api/me/totp')).body.recoveryCodesLeft).toBe(9);

		// Turned off with a code of the next step, and the password alone signs in again.
		const wrongOff = await alice.client.json<TotpAnswer>('/api/me/totp', {
			method: 'DELETE',
			json: { code: wrongCode(secret) }
		});
		expect(wrongOff.status).toBe(400);
		expect(wrongOff.body.error?.code).toBe('invalid_code');
		const off = await alice.client.fetch('/api/me/totp', {
			method: 'DELETE',
			json: { code: code(secret, 1) }
		});
		expect(off.status).toBe(204);
		expect((await signIn(alice)).status).toBe(200);

		const successes = await audit(admin, 'login.success');
		const mine = successes.filter((e) => e.details?.secondFactor);
		expect(mine.map((e) => e.details!.secondFactor).sort()).toEqual(['recovery_code', 'totp']);
		const failures = (await audit(admin, 'login.failure')).map((e) => e.details?.reason);
		expect(failures).toEqual(expect.arrayContaining(['wrong_code', 'wrong_recovery_code']));
		expect(await audit(admin, 'totp.enabled')).toEqual([
			expect.objectContaining({ target: alice.email })
		]);
		expect(await audit(admin, 'totp.disabled')).toEqual([
			expect.objectContaining({
				target: alice.email,
				details: expect.objectContaining({ by: 'code' })
			})
		]);
	}, 120_000);

	it('is turned off with a recovery code, and never with a wrong one', async () => {
		await freshStep();
		const { recoveryCodes } = await turnOn(carol.client);
		const wrong = await carol.client.json<TotpAnswer>('/api/me/totp', {
			method: 'DELETE',
			json: { recoveryCode: 'aaaa-bbbb-cccc-dddd' }
		});
		expect(wrong.status).toBe(400);
		expect(wrong.body.error?.code).toBe('invalid_code');
		expect((await carol.client.json<TotpAnswer>('/api/me/totp')).body.enabled).toBe(true);
		const off = await carol.client.fetch('/api/me/totp', {
			method: 'DELETE',
			json: { recoveryCode: recoveryCodes[0] }
		});
		expect(off.status).toBe(204);
		expect((await carol.client.json<TotpAnswer>('/api/me/totp')).body.enabled).toBe(false);
		expect(
			(await audit(admin, 'totp.disabled')).find((e) => e.target === carol.email)?.details
		).toMatchObject({ by: 'recovery_code' });
	}, 60_000);

	it('is never turned off with the password alone, which would let a password change skip its code', async () => {
		await freshStep();
		await turnOn(frank.client);
		const byPassword = await frank.client.json<TotpAnswer>('/api/me/totp', {
			method: 'DELETE',
			json: { password: frank.password }
		});
		expect(byPassword.status).toBe(400);
		expect(byPassword.body.error?.code).toBe('invalid_input');
		expect(byPassword.body.error?.message).toMatch(/a code of your app or a recovery code/);
		expect((await frank.client.json<TotpAnswer>('/api/me/totp')).body.enabled).toBe(true);
		// So a password change still asks for a code.
		const change = await frank.client.json<TotpAnswer>('/api/me/password', {
			method: 'PUT',
			json: { current: frank.password, password: 'a-new-secret-of-franks-5' }
		});
		expect(change.status).toBe(400);
		expect(change.body.error?.code).toBe('totp_required');
		expect((await audit(admin, 'totp.disabled')).filter((e) => e.target === frank.email)).toEqual(
			[]
		);
	}, 60_000);

	it('is asked for to change the password: missing, wrong or with a wrong password, nothing changes', async () => {
		await freshStep();
		const { secret, recoveryCodes } = await turnOn(dave.client);
		const NEW = 'a-new-secret-of-daves-3';
		const change = (extra: Record<string, string>, current = dave.password) =>
			dave.client.json<TotpAnswer>('/api/me/password', {
				method: 'PUT',
				json: { current, password: NEW, ...extra }
			});
		const missing = await change({});
		expect(missing.status).toBe(400);
		expect(missing.body.error?.code).toBe('totp_required');
		const wrong = await change({ totp: wrongCode(secret) });
		expect(wrong.status).toBe(400);
		expect(wrong.body.error?.code).toBe('invalid_code');
		const wrongRecovery = await change({ recoveryCode: 'aaaa-bbbb-cccc-dddd' });
		expect(wrongRecovery.status).toBe(400);
		expect(wrongRecovery.body.error?.code).toBe('invalid_code');
		// A right code with a wrong password is refused, and the code is not used up by it.
		const now = code(secret);
		const wrongPassword = await change({ totp: now }, 'not-the-password-1');
		expect(wrongPassword.status).toBe(400);
		expect(wrongPassword.body.error?.code).toBe('wrong_password');
		expect((await dave.client.json('/api/session')).status).toBe(200);

		const changed = await change({ recoveryCode: recoveryCodes[0] });
		expect(changed.status).toBe(200);
		const again = await signIn(dave, { totp: now }, NEW);
		expect(again.status).toBe(200);
		expect((await again.client.json<TotpAnswer>('/api/me/totp')).body.recoveryCodesLeft).toBe(9);

		const failures = (await audit(admin, 'user.password_change_failure')).filter(
			(e) => e.target === dave.email
		);
		expect(failures.map((e) => e.details?.reason)).toEqual([
			'wrong_password',
			'wrong_recovery_code',
			'wrong_code'
		]);
		expect(await audit(admin, 'user.password_changed')).toEqual([
			expect.objectContaining({ target: dave.email })
		]);
	}, 60_000);

	it('counts wrong codes sent with the right password to change it: the eleventh try waits', async () => {
		await freshStep();
		const { secret } = await turnOn(erin.client);
		const change = (totp: string) =>
			erin.client.json<TotpAnswer>('/api/me/password', {
				method: 'PUT',
				json: { current: erin.password, password: 'a-new-secret-of-erins-4', totp }
			});
		for (let i = 0; i < 10; i++) {
			const wrong = await change(wrongCode(secret));
			expect(wrong.status).toBe(400);
			expect(wrong.body.error?.code).toBe('invalid_code');
		}
		const right = await change(code(secret));
		expect(right.status).toBe(429);
		expect(right.body.error?.code).toBe('rate_limited');
		expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
		expect((await erin.client.json('/api/session')).status).toBe(200);
	}, 60_000);

	it('is taken off a user by an admin (only), and the password alone signs in again', async () => {
		await freshStep();
		await turnOn(carol.client);
		// The list of users says who has it on.
		const listed = async () =>
			(
				await admin.json<{ users: { id: number; secondFactor: boolean; signIn: object }[] }>(
					'/api/users'
				)
			).body.users.find((u) => u.id === carol.id);
		expect(await listed()).toMatchObject({
			secondFactor: true,
			signIn: { sso: false, password: true }
		});
		const byViewer = await bob.client.json(`/api/users/${carol.id}/totp`, { method: 'DELETE' });
		expect(byViewer.status).toBe(403);
		const reset = await admin.fetch(`/api/users/${carol.id}/totp`, { method: 'DELETE' });
		expect(reset.status).toBe(204);
		const again = await admin.json(`/api/users/${carol.id}/totp`, { method: 'DELETE' });
		expect(again.status).toBe(409);
		expect(again.body.error?.code).toBe('not_enabled');
		expect((await admin.json('/api/users/99999/totp', { method: 'DELETE' })).status).toBe(404);
		expect((await signIn(carol)).status).toBe(200);
		expect((await listed())?.secondFactor).toBe(false);
		expect(await audit(admin, 'totp.reset')).toEqual([
			expect.objectContaining({ target: carol.email, actor: ADMIN.email })
		]);
	}, 60_000);

	it('counts wrong codes against the sign-in limits: after five, even the right code waits', async () => {
		await freshStep();
		const { secret } = await turnOn(bob.client);
		for (let i = 0; i < 5; i++) {
			const wrong = await signIn(bob, { totp: wrongCode(secret) });
			expect(wrong.status).toBe(401);
			expect(wrong.body.error?.code).toBe('invalid_code');
		}
		const locked = await signIn(bob, { totp: code(secret) });
		expect(locked.status).toBe(429);
		expect(locked.body.error?.code).toBe('rate_limited');
		expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
		expect(locked.headers.getSetCookie()).toEqual([]);
	}, 60_000);
});

describe("a signed-in caller's guesses at the password or the code", () => {
	let server: TestServer;
	let admin: Client;
	const NEW = 'a-new-secret-of-the-owners-6';

	beforeAll(async () => {
		// The client's address as a proxy reports it: sign-ins come from several addresses.
		({ server, admin } = await serverWithAdmin({ ADDRESS_HEADER: 'x-real-ip' }));
	}, 60_000);

	async function tokenOf(user: TestUser): Promise<Client> {
		const made = await user.client.json('/api/tokens', { method: 'POST', json: { name: 'ci' } });
		expect(made.status).toBe(201);
		return new Client(server, made.body.token);
	}

	/** A new user with a second factor on, its secret, and `tokens` API tokens of theirs. */
	async function owner(email: string, tokens = 0) {
		await freshStep();
		const user = await createUser(admin, 'viewer', email);
		const { secret } = await turnOn(user.client);
		const bearers: Client[] = [];
		for (let i = 0; i < tokens; i++) bearers.push(await tokenOf(user));
		return { user, secret, bearer: bearers[0], bearers };
	}

	function signInFrom(user: TestUser, ip: string, extra: Record<string, string>) {
		const client = new Client(server);
		const answer = client.json('/api/session', {
			method: 'POST',
			headers: { 'x-real-ip': ip },
			json: { email: user.email, password: user.password, ...extra }
		});
		return answer.then((a) => ({ ...a, client }));
	}

	function change(client: Client, current: string, extra: Record<string, string>) {
		return client.json<TotpAnswer>('/api/me/password', {
			method: 'PUT',
			json: { current, password: NEW, ...extra }
		});
	}

	function turnOff(client: Client, extra: Record<string, string>) {
		return client.json<TotpAnswer>('/api/me/totp', { method: 'DELETE', json: extra });
	}

	/** Makes `count` wrong guesses, each refused with `refusal`; the next is held back (answered). */
	async function guess(
		count: number,
		refusal: string,
		wrong: (i: number) => Promise<ClientResponse<TotpAnswer>>,
		next: () => Promise<ClientResponse<TotpAnswer>>
	) {
		for (let i = 0; i < count; i++) {
			const answer = await wrong(i);
			expect([answer.status, answer.body.error?.code]).toEqual([400, refusal]);
		}
		const held = await next();
		expect([held.status, held.body.error?.code]).toEqual([429, 'rate_limited']);
		return held;
	}

	it("hold back a token that guesses the password, never its owner's sign-in or session", async () => {
		const { user: me, secret, bearer } = await owner('leaked@example.test', 1);
		await guess(
			10,
			'wrong_password',
			(i) => change(bearer, `guess-${i}-of-theirs`, { totp: wrongCode(secret) }),
			() => change(bearer, me.password, { totp: code(secret) })
		);

		const again = await signInFrom(me, '198.51.100.1', { totp: code(secret) });
		expect(again.status).toBe(200);
		const changed = await change(again.client, me.password, { totp: code(secret, 1) });
		expect(changed.status).toBe(200);
		// The change revoked the token that guessed.
		expect((await bearer.json('/api/session')).status).toBe(401);
	}, 60_000);

	it("hold back a token that guesses the code to turn it off, never its owner's session", async () => {
		const { user: me, secret, bearer } = await owner('leaked-off@example.test', 1);
		const held = await guess(
			10,
			'invalid_code',
			() => turnOff(bearer, { code: wrongCode(secret) }),
			() => turnOff(bearer, { code: code(secret) })
		);
		expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);

		expect((await turnOff(me.client, { code: code(secret) })).status).toBe(204);
		const log = await admin.json<TotpAnswer>('/api/audit?action=totp.disable_failure&limit=50');
		const mine = log.body.entries!.filter((e) => e.target === me.email);
		expect(mine.map((e) => e.details?.reason)).toEqual([
			'rate_limited',
			...Array<string>(10).fill('wrong_code')
		]);
		expect(mine.every((e) => e.details?.via === 'token')).toBe(true);
	}, 60_000);

	it("stop nobody's password change when someone who knows the password walks the sign-in codes", async () => {
		const { user: me, secret } = await owner('walked@example.test');
		for (const ip of ['198.51.100.2', '198.51.100.3']) {
			for (let i = 0; i < 5; i++) {
				const wrong = await signInFrom(me, ip, { totp: wrongCode(secret) });
				expect(wrong.status).toBe(401);
				expect(wrong.body.error?.code).toBe('invalid_code');
			}
		}
		// Sign-in's own limit holds, from a fresh address too.
		const locked = await signInFrom(me, '198.51.100.4', { totp: code(secret) });
		expect(locked.status).toBe(429);
		const changed = await change(me.client, me.password, { totp: code(secret) });
		expect(changed.status).toBe(200);
	}, 60_000);

	it('are bounded across all the tokens of an account, never holding back its sign-in or sessions', async () => {
		const { user: me, secret, bearers: tokens } = await owner('many-tokens@example.test', 4);
		await guess(
			30,
			'wrong_password',
			(i) =>
				change(tokens[Math.floor(i / 10)], `guess-${i}-of-theirs`, { totp: wrongCode(secret) }),
			() => change(tokens[3], 'guess-30-of-theirs', { totp: wrongCode(secret) })
		);

		// Sessions are made only by signing in: neither it nor a session is held back.
		const again = await signInFrom(me, '198.51.100.5', { totp: code(secret) });
		expect(again.status).toBe(200);
		const changed = await change(me.client, me.password, { totp: code(secret, 1) });
		expect(changed.status).toBe(200);
	}, 60_000);
});

describe('REQUIRE_2FA=admins', () => {
	it('holds an admin signed in with a password to the set-up until it is done; others and tokens go on', async () => {
		const { server, admin } = await serverWithAdmin({ REQUIRE_2FA: 'admins' });
		const refused = await admin.json('/api/profiles');
		expect(refused.status).toBe(403);
		expect(refused.body.error?.code).toBe('second_factor_required');
		expect((await admin.json('/api/users', { method: 'POST', json: {} })).status).toBe(403);
		expect((await admin.json('/api/session')).status).toBe(200);
		// Pages lead to the account page, which is open (to set the second factor up there).
		const page = await admin.fetch('/profiles');
		expect(page.status).toBe(303);
		expect(page.headers.get('location')).toBe('/account');
		expect((await admin.fetch('/account')).status).toBe(200);

		await freshStep();
		await turnOn(admin);
		expect((await admin.json('/api/profiles')).status).toBe(200);

		// An editor is not in the scope; an admin's token is not asked either.
		const editor = await createUser(admin, 'editor', 'ed@example.test');
		expect((await editor.client.json('/api/profiles')).status).toBe(200);
		const token = await admin.json('/api/tokens', { method: 'POST', json: { name: 'ci' } });
		expect(token.status).toBe(201);
		expect((await new Client(server, token.body.token).json('/api/profiles')).status).toBe(200);
	}, 90_000);
});
