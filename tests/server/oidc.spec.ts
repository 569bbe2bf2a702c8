import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
	createServer as createHttpServer,
	type Server as HttpServer,
	type ServerResponse
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, serverWithAdmin } from '../helpers/fixtures';
import { Browser, CLIENT, startProvider, type TestProvider } from '../helpers/oidc';
import { Client, freePort, startServer, stopAllServers, type TestServer } from '../helpers/server';

/**
 * Single sign-on against a real OpenID Provider, through the real server: the browser's way
 * through the provider's sign-in and consent pages is driven over HTTP, with cookies.
 */

const METRICS = 'oidc-test-metrics-token-0123456789';

/** The app's settings for the test provider. */
function oidcEnv(provider: TestProvider, extra: Record<string, string> = {}) {
	return {
		OIDC_ISSUER: provider.issuer,
		OIDC_CLIENT_ID: CLIENT.id,
		OIDC_CLIENT_SECRET: CLIENT.secret,
		OIDC_ALLOW_INSECURE_HTTP: '1',
		OIDC_NAME: 'Corp SSO',
		OIDC_SCOPES: 'openid email profile groups',
		OIDC_ADMIN_GROUPS: 'studio-admins',
		OIDC_EDITOR_GROUPS: '/corp/studio-editors, studio-editors',
		OIDC_VIEWER_GROUPS: 'studio-viewers',
		...extra
	};
}

let provider: TestProvider;
/** The main app; `limited` allows one domain and passwords for admins only. */
let app: TestServer;
let admin: Client;
let limited: TestServer;
let limitedAdmin: Client;

beforeAll(async () => {
	provider = await startProvider();
	({ server: app, admin } = await serverWithAdmin({
		...oidcEnv(provider),
		METRICS_TOKEN: METRICS
	}));
	({ server: limited, admin: limitedAdmin } = await serverWithAdmin(
		oidcEnv(provider, {
			OIDC_ALLOWED_DOMAINS: 'example.test',
			PASSWORD_SIGN_IN: 'admins',
			OIDC_LOGOUT: '1'
		})
	));
	provider.serve([app.url, limited.url]);
});

afterAll(async () => {
	await stopAllServers();
	await provider?.close();
});

/** An account at the provider. */
function account(login: string, claims: Record<string, unknown>) {
	provider.accounts.set(login, {
		email: `${login}@example.test`,
		email_verified: true,
		name: login,
		...claims
	});
}

/** Signs in through the provider as `login`, starting with `next`; the browser and last answer. */
async function ssoSignIn(
	server: TestServer,
	login: string,
	next = '/profiles',
	browser = new Browser()
) {
	const start = `${server.url}/auth/oidc/start?next=${encodeURIComponent(next)}`;
	const { response, url } = await browser.follow(start, login);
	return { browser, response, url, session: browser.cookie(server.url, 'ps_session') };
}

/** A client of the API with a browser's session. */
function clientOf(server: TestServer, session: string | undefined): Client {
	const client = new Client(server);
	client.session = session;
	return client;
}

async function me(server: TestServer, session: string | undefined) {
	return clientOf(server, session).json<{ user?: { email: string; role: string } }>('/api/session');
}

async function auditOf(action: string) {
	const answer = await admin.json<{
		entries: {
			action: string;
			details: Record<string, unknown>;
			target: string | null;
			actor: string | null;
		}[];
	}>(`/api/audit?action=${encodeURIComponent(action)}`);
	return answer.body.entries;
}

async function userByEmail(email: string) {
	const answer = await admin.json<{
		users: { id: number; email: string; role: string; active: boolean }[];
	}>('/api/users');
	return answer.body.users.find((u) => u.email === email);
}

describe('single sign-on', () => {
	it('offers the button above the password form, keeping where the user was going', async () => {
		const page = await fetch(`${app.url}/login?next=${encodeURIComponent('/profiles?x=1')}`);
		const html = await page.text();
		expect(html).toContain('Sign in with Corp SSO');
		expect(html).toContain('/auth/oidc/start?next=%2Fprofiles%3Fx%3D1');
		expect(html.indexOf('Sign in with Corp SSO')).toBeLessThan(html.indexOf('name="password"'));
	});

	it('makes the account at the first sign-in, with the highest role its groups give, and goes to next', async () => {
		account('alice', { groups: ['studio-viewers', 'studio-admins', 'other'], name: 'Alice A.' });
		const { response, url, session } = await ssoSignIn(app, 'alice', '/profiles');
		expect(response.status).toBe(200);
		expect(new URL(url).pathname).toBe('/profiles');
		const who = await me(app, session);
		expect(who.body.user).toMatchObject({ email: 'alice@example.test', role: 'admin' });
		expect(await auditOf('user.created')).toContainEqual(
			expect.objectContaining({ target: 'alice@example.test' })
		);
		const success = await auditOf('login.success');
		expect(success[0]).toMatchObject({
			actor: 'alice@example.test',
			details: expect.objectContaining({
				method: 'oidc',
				issuer: provider.issuer,
				subject: 'alice'
			})
		});
	});

	it('never sends the browser off the site after signing in', async () => {
		for (const next of ['//evil.example', '/%2e//evil.example', 'https://evil.example/']) {
			const { url, session } = await ssoSignIn(app, 'alice', next);
			expect(session).toBeDefined();
			expect(url).toBe(`${app.url}/`);
		}
	});

	it('keeps the sign-in cookie HttpOnly, SameSite=Lax, short-lived and on its own path', async () => {
		const browser = new Browser();
		const answer = await browser.request(`${app.url}/auth/oidc/start?next=/`);
		expect(answer.status).toBe(303);
		const location = new URL(answer.headers.get('location')!);
		expect(location.origin).toBe(provider.issuer);
		expect(location.searchParams.get('code_challenge_method')).toBe('S256');
		expect(location.searchParams.get('state')).toBeTruthy();
		expect(location.searchParams.get('nonce')).toBeTruthy();
		expect(location.searchParams.get('redirect_uri')).toBe(`${app.url}/auth/oidc/callback`);
		const [cookie] = answer.headers.getSetCookie();
		expect(cookie).toMatch(/^ps_oidc=[\w.-]+;/);
		expect(cookie).toMatch(/; HttpOnly/i);
		expect(cookie).toMatch(/; SameSite=Lax/i);
		expect(cookie).toMatch(/; Path=\/auth\/oidc/i);
		expect(cookie).toMatch(/; Max-Age=600/i);
		// Nothing of the flow is readable in it.
		expect(cookie).not.toContain(location.searchParams.get('state')!);
	});

	it('applies a group change at the next sign-in: a demotion ends the other sessions', async () => {
		account('bob', { groups: ['/corp/studio-editors'] });
		const first = await ssoSignIn(app, 'bob');
		const second = await ssoSignIn(app, 'bob');
		expect((await me(app, first.session)).body.user?.role).toBe('editor');
		expect((await me(app, second.session)).body.user?.role).toBe('editor');

		account('bob', { groups: 'studio-viewers' });
		const third = await ssoSignIn(app, 'bob');
		expect((await me(app, third.session)).body.user?.role).toBe('viewer');
		expect((await me(app, first.session)).status).toBe(401);
		expect((await me(app, second.session)).status).toBe(401);
		const updates = await auditOf('user.updated');
		expect(updates[0]).toMatchObject({
			target: 'bob@example.test',
			details: expect.objectContaining({ role: 'viewer', previous: 'editor', demoted: true })
		});
	});

	it('reads a role claim sent as a single string', async () => {
		account('single', { groups: 'studio-editors' });
		const { session } = await ssoSignIn(app, 'single');
		expect((await me(app, session)).body.user?.role).toBe('editor');
	});

	it('refuses a user no group maps: a page says what was expected and what came, escaped', async () => {
		account('mallory', { groups: ['marketing', '<script>alert(1)</script>'] });
		const { response, session } = await ssoSignIn(app, 'mallory');
		expect(response.status).toBe(403);
		const html = await response.text();
		expect(html).toContain('No role for your account');
		expect(html).toContain('groups');
		expect(html).toContain('studio-admins');
		expect(html).toContain('/corp/studio-editors');
		expect(html).toContain('marketing');
		expect(html).toContain('&lt;script>alert(1)&lt;/script>');
		expect(html).not.toContain('<script>alert(1)</script>');
		expect(session).toBeUndefined();
		expect(await userByEmail('mallory@example.test')).toBeUndefined();
		const failures = await auditOf('login.failure');
		expect(failures[0]).toMatchObject({
			details: expect.objectContaining({
				method: 'oidc',
				issuer: new URL(provider.issuer).href,
				subject: 'mallory',
				reason: 'no_role',
				claim: 'groups',
				groups: 2
			})
		});
		// The password form is still there to use.
		expect((await new Client(app).login(ADMIN.email, ADMIN.password)).status).toBe(200);
	});

	it('refuses 10,000 groups and a 100 KB name sanely, and a claim that is no list', async () => {
		const groups = Array.from({ length: 10_000 }, (_, i) => `group-${i}`);
		groups[3] = 'x'.repeat(100_000);
		account('many', { groups, name: 'n'.repeat(100_000) });
		const many = await ssoSignIn(app, 'many');
		expect(many.response.status).toBe(403);
		const html = await many.response.text();
		expect(html).toMatch(/10,000\s+values, the first 50 shown/);
		expect(html).not.toContain('group-50<');
		expect(html.length).toBeLessThan(100_000);
		expect(many.session).toBeUndefined();

		account('odd', { groups: { admin: true } });
		const odd = await ssoSignIn(app, 'odd');
		expect(odd.response.status).toBe(403);
		expect(await odd.response.text()).toContain('claim is an object, not a list of groups');
		expect(odd.session).toBeUndefined();
	});

	it('links an existing password account only by a verified e-mail, once, and audits it', async () => {
		const created = await admin.json('/api/users', {
			method: 'POST',
			json: {
				email: 'carol@example.test',
				name: 'Carol',
				role: 'viewer',
				password: 'carol-password-1'
			}
		});
		expect(created.status).toBe(201);
		account('carol-sso', {
			email: 'carol@example.test',
			email_verified: false,
			groups: ['studio-editors']
		});
		const unverified = await ssoSignIn(app, 'carol-sso');
		expect(unverified.response.status).toBe(403);
		expect(await unverified.response.text()).toContain('not linked');
		expect(unverified.session).toBeUndefined();
		expect(await auditOf('user.identity_linked')).toHaveLength(0);

		account('carol-sso', {
			email: 'carol@example.test',
			email_verified: true,
			groups: ['studio-editors']
		});
		const verified = await ssoSignIn(app, 'carol-sso');
		expect((await me(app, verified.session)).body.user).toMatchObject({
			email: 'carol@example.test',
			role: 'editor'
		});
		await ssoSignIn(app, 'carol-sso');
		const linked = await auditOf('user.identity_linked');
		expect(linked).toHaveLength(1);
		expect(linked[0]).toMatchObject({ target: 'carol@example.test' });

		// The users page says she signs in both ways.
		const page = await admin.fetch('/admin/users');
		expect(await page.text()).toMatch(/carol@example\.test[\s\S]*?SSO and password/);
	});

	it('never gives an account to another identity by its e-mail once one is linked to it', async () => {
		// An address the provider does not vouch for makes an account that keeps it unverified.
		account('squatter', {
			email: 'victim@example.test',
			email_verified: false,
			groups: ['studio-viewers']
		});
		const squatter = await ssoSignIn(app, 'squatter');
		expect((await me(app, squatter.session)).body.user?.email).toBe('victim@example.test');

		// The address's real owner, verified, is not merged into it.
		account('victim', { groups: ['studio-editors'] });
		const victim = await ssoSignIn(app, 'victim');
		expect(victim.response.status).toBe(403);
		const html = await victim.response.text();
		expect(html).toContain('Your account cannot be linked');
		expect(html).toContain('another sign-in');
		expect(html).toContain('An admin can');
		expect(victim.session).toBeUndefined();
		expect((await me(app, squatter.session)).body.user).toMatchObject({
			email: 'victim@example.test',
			role: 'viewer'
		});
		expect((await auditOf('login.failure'))[0]).toMatchObject({
			details: expect.objectContaining({ reason: 'email_in_use', subject: 'victim' })
		});

		// Nor a password account linked already, to a second identity with its verified address.
		const created = await admin.json('/api/users', {
			method: 'POST',
			json: { email: 'paula@example.test', name: 'Paula', role: 'viewer', password: 'paula-pass-1' }
		});
		expect(created.status).toBe(201);
		account('paula', { groups: ['studio-viewers'] });
		expect((await ssoSignIn(app, 'paula')).session).toBeDefined();
		account('paula-too', { email: 'paula@example.test', groups: ['studio-viewers'] });
		const second = await ssoSignIn(app, 'paula-too');
		expect(second.response.status).toBe(403);
		expect(second.session).toBeUndefined();
		const linked = (await auditOf('user.identity_linked')).filter(
			(e) => e.target === 'paula@example.test'
		);
		expect(linked).toHaveLength(1);
	});

	it('keeps a deactivated account refused', async () => {
		account('dave', { groups: ['studio-viewers'] });
		const first = await ssoSignIn(app, 'dave');
		expect(first.session).toBeDefined();
		const dave = await userByEmail('dave@example.test');
		const off = await admin.json(`/api/users/${dave!.id}`, {
			method: 'PATCH',
			json: { active: false }
		});
		expect(off.status).toBe(200);
		const again = await ssoSignIn(app, 'dave');
		expect(again.response.status).toBe(403);
		expect(await again.response.text()).toContain('deactivated');
		expect(again.session).toBeUndefined();
	});

	it("refuses a replayed callback, another browser's state, a missing or altered cookie", async () => {
		account('erin', { groups: ['studio-viewers'] });
		const browser = new Browser();
		const start = `${app.url}/auth/oidc/start?next=/`;
		const { callback } = await browser.follow(start, 'erin', { stopAtCallback: true });
		const cookie = browser.cookie(app.url, 'ps_oidc');
		expect(callback).toBeDefined();
		expect(cookie).toBeDefined();
		const done = await browser.request(callback!);
		expect(done.status).toBe(303);
		expect(browser.cookie(app.url, 'ps_session')).toBeDefined();

		// The same answer again, with the same cookie: the sign-in was finished.
		const replay = new Browser();
		replay.setCookie(app.url, 'ps_oidc', cookie);
		const replayed = await replay.request(callback!);
		expect(replayed.status).toBe(400);
		expect(await replayed.text()).toContain('finished already');
		expect(replay.cookie(app.url, 'ps_session')).toBeUndefined();

		// Another browser's sign-in cookie with this answer: the state does not match.
		const other = new Browser();
		await other.request(start);
		const mismatch = await other.request(callback!);
		expect(mismatch.status).toBe(400);
		expect(await mismatch.text()).toContain('belongs to another sign-in');

		// No cookie at all, and an altered one.
		const bare = await new Browser().request(callback!);
		expect(bare.status).toBe(400);
		expect(await bare.text()).toContain('was not started here');
		const forged = new Browser();
		forged.setCookie(app.url, 'ps_oidc', `${cookie!.slice(0, -4)}AAAA`);
		const altered = await forged.request(callback!);
		expect(altered.status).toBe(400);
		expect(await altered.text()).toContain('expired or was altered');

		const reasons = (await auditOf('login.failure')).slice(0, 4).map((e) => e.details.reason);
		expect(reasons).toEqual(['bad_flow_cookie', 'no_flow_cookie', 'state_mismatch', 'flow_used']);
	});

	it('finishes a sign-in once: its cookie and state do not finish another with a second code', async () => {
		account('olga', { groups: ['studio-viewers'] });
		const browser = new Browser();
		const started = await browser.request(`${app.url}/auth/oidc/start?next=/`);
		const authorize = started.headers.get('location')!;
		const cookie = browser.cookie(app.url, 'ps_oidc');
		const first = await browser.follow(authorize, 'olga', { stopAtCallback: true });
		// The same authorization request again at the provider: a second code for the same state.
		const second = await browser.follow(authorize, 'olga', { stopAtCallback: true });
		expect(new URL(second.callback!).searchParams.get('code')).not.toBe(
			new URL(first.callback!).searchParams.get('code')
		);
		expect((await browser.request(first.callback!)).status).toBe(303);

		const again = new Browser();
		again.setCookie(app.url, 'ps_oidc', cookie);
		const answer = await again.request(second.callback!);
		expect(answer.status).toBe(400);
		expect(await answer.text()).toContain('finished already');
		expect(again.cookie(app.url, 'ps_session')).toBeUndefined();
		// The replay above was the window's first refusal of this kind from this address: audited.
		const used = (await auditOf('login.failure')).filter((e) => e.details.reason === 'flow_used');
		expect(used.map((e) => e.details.count)).toEqual([1]);
	});

	it('refuses an error the provider sends back', async () => {
		const browser = new Browser();
		const started = await browser.request(`${app.url}/auth/oidc/start?next=/`);
		const state = new URL(started.headers.get('location')!).searchParams.get('state');
		const answer = await browser.request(
			`${app.url}/auth/oidc/callback?error=access_denied&error_description=${encodeURIComponent('<b>no</b>')}&state=${state}&iss=${encodeURIComponent(provider.issuer)}`
		);
		expect(answer.status).toBe(400);
		const html = await answer.text();
		expect(html).toContain('access_denied');
		expect(html).toContain('&lt;b>no&lt;/b>');
	});

	it('makes one account when a person signs in for the first time in two tabs at once', async () => {
		account('kim', { groups: ['studio-viewers'] });
		const tabs = await Promise.all([ssoSignIn(app, 'kim'), ssoSignIn(app, 'kim')]);
		for (const tab of tabs) {
			expect((await me(app, tab.session)).body.user?.email).toBe('kim@example.test');
		}
		const created = (await auditOf('user.created')).filter((e) => e.target === 'kim@example.test');
		expect(created).toHaveLength(1);
	});

	it('counts sign-ins by method', async () => {
		const answer = await fetch(`${app.url}/metrics`, {
			headers: { authorization: `Bearer ${METRICS}` }
		});
		const text = await answer.text();
		expect(text).toMatch(/provisioning_sign_ins_total\{method="oidc",result="success"\} [1-9]/);
		expect(text).toMatch(/provisioning_sign_ins_total\{method="oidc",result="refused"\} [1-9]/);
	});
});

describe('single sign-on with allowed domains, and passwords for admins only', () => {
	it('refuses another domain, and an unverified address in the allowed one', async () => {
		account('frank', { email: 'frank@other.test', groups: ['studio-viewers'] });
		const other = await ssoSignIn(limited, 'frank');
		expect(other.response.status).toBe(403);
		expect(await other.response.text()).toContain('Only addresses in example.test');
		expect(other.session).toBeUndefined();

		account('grace', { email_verified: false, groups: ['studio-viewers'] });
		const unverified = await ssoSignIn(limited, 'grace');
		expect(unverified.response.status).toBe(403);
		expect(await unverified.response.text()).toContain('did not send a verified e-mail address');

		account('heidi', { groups: ['studio-viewers'] });
		const allowed = await ssoSignIn(limited, 'heidi');
		expect((await me(limited, allowed.session)).body.user?.role).toBe('viewer');
	});

	it('never demotes the last active admin, nor links an admin by e-mail with a lower role', async () => {
		const token = await limitedAdmin.json<{ token?: string }>('/api/tokens', {
			method: 'POST',
			json: { name: 'last-admin' }
		});
		/** A sign-in as the admin's address with a group mapped to viewer: refused, nothing changes. */
		const refusedAsViewer = async (says: string) => {
			account('root', { email: ADMIN.email, groups: ['studio-viewers'] });
			const { response, session } = await ssoSignIn(limited, 'root');
			expect(response.status).toBe(403);
			expect(await response.text()).toContain(says);
			expect(session).toBeUndefined();
			expect((await me(limited, limitedAdmin.session)).body.user?.role).toBe('admin');
			expect((await limitedAdmin.withToken(token.body.token!).json('/api/session')).status).toBe(
				200
			);
		};

		// Not linked: an admin is linked by e-mail only to a sign-in that keeps it an admin.
		await refusedAsViewer('keeps it an admin');
		// Linked as an admin, then the provider's groups change to viewer: the last admin stays.
		account('root', { email: ADMIN.email, groups: ['studio-admins'] });
		expect((await ssoSignIn(limited, 'root')).session).toBeDefined();
		await refusedAsViewer('last active admin');
		const failures = await limitedAdmin.json<{
			entries: { details: Record<string, unknown> }[];
		}>('/api/audit?action=login.failure');
		expect(failures.body.entries.slice(0, 2).map((e) => e.details.reason)).toEqual([
			'last_admin',
			'admin_not_linked'
		]);
	});

	it('lets only admins sign in with a password; API tokens keep working', async () => {
		const created = await limitedAdmin.json('/api/users', {
			method: 'POST',
			json: {
				email: 'ivan@example.test',
				name: 'Ivan',
				role: 'editor',
				password: 'ivan-password-1'
			}
		});
		expect(created.status).toBe(201);
		const ivan = await new Client(limited).login('ivan@example.test', 'ivan-password-1');
		expect(ivan.status).toBe(403);
		expect(ivan.body.error?.message).toContain('Sign in with Corp SSO');
		expect((await new Client(limited).login(ADMIN.email, ADMIN.password)).status).toBe(200);
		const token = await limitedAdmin.json<{ token?: string }>('/api/tokens', {
			method: 'POST',
			json: { name: 'automation' }
		});
		expect((await limitedAdmin.withToken(token.body.token!).json('/api/session')).status).toBe(200);
	});
});

describe('sign-ins through the provider from one address', () => {
	/** A server of its own: the limits count per server, and the other tests share 127.0.0.1. */
	async function fresh() {
		const started = await serverWithAdmin(oidcEnv(provider));
		provider.serve([app.url, limited.url, started.server.url]);
		return started;
	}

	it('answers forged callbacks 429 past the limit, as a page, and audits each kind once', async () => {
		const { server, admin: itsAdmin } = await fresh();
		const statuses: number[] = [];
		let limitedAnswer: Response | undefined;
		for (let i = 0; i < 60; i++) {
			const answer = await fetch(`${server.url}/auth/oidc/callback?code=junk-${i}&state=x`, {
				headers: { accept: 'text/html' },
				redirect: 'manual'
			});
			statuses.push(answer.status);
			if (answer.status === 429) limitedAnswer ??= answer;
			else await answer.body?.cancel();
		}
		expect(statuses.slice(0, 20)).toEqual(Array(20).fill(400));
		expect(statuses.slice(20)).toEqual(Array(40).fill(429));
		expect(Number(limitedAnswer!.headers.get('retry-after'))).toBeGreaterThan(0);
		expect(limitedAnswer!.headers.get('content-type')).toContain('text/html');
		expect(await limitedAnswer!.text()).toContain('Too many sign-ins');

		const failures = await itsAdmin.json<{ entries: { details: Record<string, unknown> }[] }>(
			'/api/audit?action=login.failure'
		);
		const seen = failures.body.entries.map((e) => [e.details.reason, e.details.count]);
		expect(seen).toEqual([
			['rate_limited', 10],
			['rate_limited', 1],
			['no_flow_cookie', 10],
			['no_flow_cookie', 1]
		]);
		await server.stop();
	});

	it('limits the starts too, so junk codes cannot make the app ask the provider without end', async () => {
		const { server } = await fresh();
		const before = provider.tokenRequests();
		const starts: number[] = [];
		for (let i = 0; i < 25; i++) {
			const browser = new Browser();
			const started = await browser.request(`${server.url}/auth/oidc/start?next=/`);
			starts.push(started.status);
			if (started.status !== 303) {
				expect(Number(started.headers.get('retry-after'))).toBeGreaterThan(0);
				expect(await started.text()).toContain('Too many sign-ins');
				continue;
			}
			const state = new URL(started.headers.get('location')!).searchParams.get('state');
			const junk = await browser.request(
				`${server.url}/auth/oidc/callback?code=junk-${i}&state=${state}&iss=${encodeURIComponent(provider.issuer)}`
			);
			expect(junk.status).toBe(400);
			await junk.body?.cancel();
		}
		expect(starts.slice(0, 20)).toEqual(Array(20).fill(303));
		expect(starts.slice(20)).toEqual(Array(5).fill(429));
		expect(provider.tokenRequests() - before).toBe(20);
		await server.stop();
	});
});

describe('signing out with OIDC_LOGOUT=1', () => {
	it("ends an SSO session here and sends the browser to the provider's sign-out, and back", async () => {
		account('judy', { groups: ['studio-viewers'] });
		const { browser, session } = await ssoSignIn(limited, 'judy');
		expect((await me(limited, session)).body.user?.role).toBe('viewer');
		const out = await browser.request(`${limited.url}/logout`, {
			method: 'POST',
			headers: {
				origin: new URL(limited.url).origin,
				accept: 'text/html',
				'content-type': 'application/x-www-form-urlencoded'
			},
			body: ''
		});
		expect(out.status).toBe(303);
		const away = new URL(out.headers.get('location')!);
		expect(away.origin + away.pathname).toBe(`${provider.issuer}/session/end`);
		expect(away.searchParams.get('client_id')).toBe(CLIENT.id);
		expect(away.searchParams.get('post_logout_redirect_uri')).toBe(
			`${limited.url}/login?signed_out=1`
		);
		expect((await me(limited, session)).status).toBe(401);
		// The provider takes the request (a registered way back) and asks to confirm.
		const atProvider = await browser.request(away.href);
		expect(atProvider.status).toBe(200);
		expect(await atProvider.text()).toContain('logout');
	});

	it('ends a password session here only', async () => {
		const client = new Client(limited);
		expect((await client.login(ADMIN.email, ADMIN.password)).status).toBe(200);
		const out = await client.fetch('/logout', {
			method: 'POST',
			headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
			body: ''
		});
		expect(out.status).toBe(303);
		expect(out.headers.get('location')).toBe('/login?signed_out=1');
	});
});

/** What a forging provider's next ID token gets wrong (`none`: nothing). */
type Flaw =
	| 'audience'
	| 'expired'
	| 'nonce'
	| 'garbage-signature'
	| 'foreign-key'
	| 'hs256'
	| 'alg-none'
	| 'none';

/**
 * A provider that gets one thing of its ID tokens wrong on purpose: the audience, the expiry, the
 * nonce, or the signature (garbage, another key's, HS256 with the client secret, or none at all,
 * with its metadata listing HS256 and `none`). It signs everyone in at once (no pages) and
 * remembers the nonce each code was asked with.
 */
async function forgingProvider() {
	let flaw: Flaw = 'audience';
	const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
	const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
	const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
	const nonces = new Map<string, string>();
	const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
	let issuer = '';
	const server = createHttpServer((req, res) => {
		const url = new URL(req.url ?? '/', issuer);
		const send = (body: unknown) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(body));
		};
		if (url.pathname === '/.well-known/openid-configuration') {
			return send({
				issuer,
				authorization_endpoint: `${issuer}/auth`,
				token_endpoint: `${issuer}/token`,
				jwks_uri: `${issuer}/jwks`,
				response_types_supported: ['code'],
				subject_types_supported: ['public'],
				id_token_signing_alg_values_supported: ['RS256', 'HS256', 'none']
			});
		}
		if (url.pathname === '/jwks') return send({ keys: [jwk] });
		if (url.pathname === '/auth') {
			const code = `code-${nonces.size}`;
			nonces.set(code, url.searchParams.get('nonce') ?? '');
			const back = new URL(url.searchParams.get('redirect_uri')!);
			back.searchParams.set('code', code);
			back.searchParams.set('state', url.searchParams.get('state') ?? '');
			res.writeHead(303, { location: back.href });
			return res.end();
		}
		if (url.pathname === '/token') {
			let body = '';
			req.on('data', (chunk) => (body += chunk));
			req.on('end', () => {
				const code = new URLSearchParams(body).get('code') ?? '';
				const now = Math.floor(Date.now() / 1000);
				const claims = {
					iss: issuer,
					sub: 'forged',
					aud: flaw === 'audience' ? 'another-app' : CLIENT.id,
					iat: flaw === 'expired' ? now - 7200 : now,
					exp: flaw === 'expired' ? now - 3600 : now + 300,
					nonce: flaw === 'nonce' ? 'not-the-nonce' : nonces.get(code),
					email: 'forged@example.test',
					email_verified: true,
					groups: ['studio-admins']
				};
				const alg = flaw === 'hs256' ? 'HS256' : flaw === 'alg-none' ? 'none' : 'RS256';
				const signed = `${b64({ alg, kid: 'k1', typ: 'JWT' })}.${b64(claims)}`;
				const data = Buffer.from(signed);
				const signature =
					flaw === 'hs256'
						? createHmac('sha256', CLIENT.secret).update(data).digest('base64url')
						: flaw === 'alg-none'
							? ''
							: flaw === 'garbage-signature'
								? Buffer.alloc(256, 7).toString('base64url')
								: sign('sha256', data, flaw === 'foreign-key' ? foreign : privateKey).toString(
										'base64url'
									);
				send({ access_token: 'at', token_type: 'Bearer', id_token: `${signed}.${signature}` });
			});
			return;
		}
		res.writeHead(404);
		res.end();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		issuer,
		/** What the next ID token gets wrong. */
		wrong(next: Flaw) {
			flaw = next;
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve()))
	};
}

describe('an ID token the app must not accept', () => {
	let forging: Awaited<ReturnType<typeof forgingProvider>>;
	let server: TestServer;
	let itsAdmin: Client;

	beforeAll(async () => {
		forging = await forgingProvider();
		({ server, admin: itsAdmin } = await serverWithAdmin(
			oidcEnv({ ...provider, issuer: forging.issuer })
		));
	});

	afterAll(async () => {
		await forging?.close();
	});

	for (const flaw of [
		'audience',
		'expired',
		'nonce',
		'garbage-signature',
		'foreign-key',
		'hs256',
		'alg-none'
	] as const) {
		it(`is refused with a page, no session and an audit entry: ${flaw}`, async () => {
			forging.wrong(flaw);
			const { response, session } = await ssoSignIn(server, 'forged');
			expect(response.status).toBe(400);
			expect(await response.text()).toContain('was not accepted');
			expect(session).toBeUndefined();
			const users = await itsAdmin.json<{ users: { email: string }[] }>('/api/users');
			expect(users.body.users.map((u) => u.email)).toEqual([ADMIN.email]);
			const failures = await itsAdmin.json<{ entries: { details: Record<string, unknown> }[] }>(
				'/api/audit?action=login.failure'
			);
			expect(failures.body.entries[0].details).toMatchObject({
				method: 'oidc',
				reason: 'provider_answer_refused'
			});
		});
	}

	it("signs in with a token signed by the provider's published key", async () => {
		forging.wrong('none');
		const { session } = await ssoSignIn(server, 'forged');
		expect((await me(server, session)).body.user).toMatchObject({
			email: 'forged@example.test',
			role: 'admin'
		});
	});
});

describe('password sign-in turned off', () => {
	it('needs an issuer: without one the app does not start, naming both variables', async () => {
		await expect(startServer({ env: { PASSWORD_SIGN_IN: 'off' } })).rejects.toThrow(
			/PASSWORD_SIGN_IN=off needs OIDC_ISSUER/
		);
	});

	it("hides the password form and refuses every password, an admin's too", async () => {
		const server = await startServer({
			env: { ...ADMIN_ENV, ...oidcEnv(provider, { PASSWORD_SIGN_IN: 'off' }) }
		});
		const html = await (await fetch(`${server.url}/login`)).text();
		expect(html).toContain('Sign in with Corp SSO');
		expect(html).toMatch(/<form hidden/);
		const refused = await new Client(server).login(ADMIN.email, ADMIN.password);
		expect(refused.status).toBe(403);
		expect(refused.body.error?.message).toContain('turned off');
		await server.stop();
	});
});

/** A server on 127.0.0.1 answering every request with `answer`; its URL and a close. */
async function standIn(
	make: (handler: (req: unknown, res: ServerResponse) => void) => HttpServer,
	scheme: 'http' | 'https'
) {
	const server = make((_req, res) => {
		res.writeHead(200, { 'content-type': 'text/html' });
		res.end('<!doctype html><title>Maintenance</title><p>Back soon</p>');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `${scheme}://127.0.0.1:${port}`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve()))
	};
}

describe('single sign-on while the provider is down', () => {
	it('says so on a page, and the password form still signs in', async () => {
		const closed = await freePort();
		const { server } = await serverWithAdmin(
			oidcEnv({ ...provider, issuer: `http://127.0.0.1:${closed}` })
		);
		expect(server.stdout()).toContain(`127.0.0.1:${closed}`);
		const { response, session } = await ssoSignIn(server, 'alice');
		expect(response.status).toBe(502);
		const html = await response.text();
		expect(html).toContain('Corp SSO cannot be reached');
		expect(html).toContain('ECONNREFUSED');
		expect(session).toBeUndefined();
		expect((await new Client(server).login(ADMIN.email, ADMIN.password)).status).toBe(200);
	});

	it('says so when the provider answers HTML, or its certificate is not trusted', async () => {
		const html = await standIn((handler) => createHttpServer(handler), 'http');
		const tls = await standIn(
			(handler) =>
				createHttpsServer(
					{
						cert: readFileSync('tests/fixtures/tls/cert.pem'),
						key: readFileSync('tests/fixtures/tls/key.pem')
					},
					handler
				),
			'https'
		);
		try {
			for (const [issuer, said] of [
				[html.url, /did not answer as expected: [^<]*content-type/i],
				[tls.url, /did not answer as expected: [^<]*(CERT|TLS|SELF_SIGNED)/]
			] as const) {
				const { server } = await serverWithAdmin(oidcEnv({ ...provider, issuer }));
				const { response, session } = await ssoSignIn(server, 'alice');
				expect(response.status).toBe(502);
				expect(await response.text()).toMatch(said);
				expect(session).toBeUndefined();
				await server.stop();
			}
		} finally {
			await html.close();
			await tls.close();
		}
	});
});
