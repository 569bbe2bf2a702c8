import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	ADMIN,
	createProfile,
	createUser,
	profileDocument,
	serverWithAdmin,
	type TestUser
} from '../helpers/fixtures';
import { Client, stopAllServers, type TestServer } from '../helpers/server';

/**
 * Who may do what, against the real server: one row per (method, path) with the answer for an
 * anonymous visitor, a viewer, an editor and an admin; then API tokens, cross-site writes,
 * deactivation, the last admin and the security headers.
 */

type Who = 'anonymous' | 'viewer' | 'editor' | 'admin';
const WHO: Who[] = ['anonymous', 'viewer', 'editor', 'admin'];

/** `passes`: the access check lets it through (whatever the page then answers). */
type Expected = number | 'passes';

interface Row {
	method: string;
	/** `:profile` is a profile id, `:user` the id of a user nobody signs in as. */
	path: string;
	/** The request body, per caller (so that creations do not collide). */
	body?: (who: Who) => unknown;
	/** Whether each caller needs a profile of its own (the request changes or deletes it). */
	fresh?: boolean;
	expect: [Expected, Expected, Expected, Expected];
}

const ROWS: Row[] = [
	{ method: 'GET', path: '/api/health', expect: [200, 200, 200, 200] },
	{ method: 'GET', path: '/api/session', expect: [401, 200, 200, 200] },
	{ method: 'GET', path: '/api/profiles', expect: [401, 200, 200, 200] },
	{ method: 'GET', path: '/api/profiles?deleted=1', expect: [401, 200, 200, 200] },
	{
		method: 'POST',
		path: '/api/profiles',
		body: (who) => ({ name: `Created by ${who}` }),
		expect: [401, 403, 201, 201]
	},
	{ method: 'GET', path: '/api/profiles/:profile', expect: [401, 200, 200, 200] },
	{
		method: 'PUT',
		path: '/api/profiles/:profile',
		body: () => ({ baseRevision: 1, document: profileDocument({ sms_body: 'changed' }) }),
		fresh: true,
		expect: [401, 403, 200, 200]
	},
	{
		method: 'PATCH',
		path: '/api/profiles/:profile',
		body: (who) => ({ name: `Renamed by ${who}` }),
		fresh: true,
		expect: [401, 403, 200, 200]
	},
	{ method: 'DELETE', path: '/api/profiles/:profile', fresh: true, expect: [401, 403, 204, 204] },
	{ method: 'GET', path: '/api/profiles/:profile/revisions', expect: [401, 200, 200, 200] },
	{ method: 'GET', path: '/api/profiles/:profile/revisions/1', expect: [401, 200, 200, 200] },
	{
		method: 'POST',
		path: '/api/profiles/:profile/revisions/1/restore',
		fresh: true,
		expect: [401, 403, 200, 200]
	},
	{ method: 'GET', path: '/api/profiles/:profile/diff?from=1&to=1', expect: [401, 200, 200, 200] },
	{
		method: 'POST',
		path: '/api/preview',
		body: () => ({ service: 'sendMessage', settings: { genericSmsSendUrl: 'https://x.test/' } }),
		expect: [401, 200, 200, 200]
	},
	{ method: 'GET', path: '/api/tokens', expect: [401, 200, 200, 200] },
	{
		method: 'POST',
		path: '/api/tokens',
		body: (who) => ({ name: `token of ${who}` }),
		expect: [401, 201, 201, 201]
	},
	{ method: 'GET', path: '/api/users', expect: [401, 403, 403, 200] },
	{
		method: 'POST',
		path: '/api/users',
		body: (who) => ({
			email: `made-by-${who}@example.test`,
			name: 'Made',
			role: 'viewer',
			password: 'made-password-1'
		}),
		expect: [401, 403, 403, 201]
	},
	{
		method: 'PATCH',
		path: '/api/users/:user',
		body: (who) => ({ name: `Named by ${who}` }),
		expect: [401, 403, 403, 200]
	},
	{ method: 'GET', path: '/api/audit', expect: [401, 403, 403, 200] },
	// The router decodes the path before matching a route: so must the access check.
	{ method: 'GET', path: '/api/%75sers', expect: [401, 403, 403, 200] },
	{
		method: 'PATCH',
		path: '/api/%75sers/:user',
		body: (who) => ({ name: `Encoded by ${who}` }),
		expect: [401, 403, 403, 200]
	},
	{ method: 'GET', path: '/api/%61udit', expect: [401, 403, 403, 200] },
	{ method: 'GET', path: '/%61pi/users', expect: [401, 403, 403, 200] },
	{ method: 'GET', path: '/api/sandboxes', expect: [401, 200, 200, 200] },
	{
		method: 'POST',
		path: '/api/sandboxes',
		body: (who) => ({ name: `Sandbox of ${who}` }),
		expect: [401, 403, 201, 201]
	},
	// A sandbox address is public: its key is the credential (here a wrong one).
	{
		method: 'POST',
		path: '/sandbox/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/pnm2/send',
		body: () => ({}),
		expect: [404, 404, 404, 404]
	},
	{ method: 'GET', path: '/sandboxes', expect: [303, 'passes', 'passes', 'passes'] },
	{ method: 'GET', path: '/', expect: [303, 200, 200, 200] },
	{ method: 'GET', path: '/profiles', expect: [303, 'passes', 'passes', 'passes'] },
	{ method: 'GET', path: '/profiles?sort=name', expect: [303, 'passes', 'passes', 'passes'] },
	{ method: 'GET', path: '/admin', expect: [303, 403, 403, 'passes'] },
	{ method: 'POST', path: '/', expect: [303, 403, 'passes', 'passes'] }
];

let server: TestServer;
const clients = {} as Record<Who, Client>;
let viewer: TestUser;
let editor: TestUser;
let target: TestUser;
let sharedProfile: string;

beforeAll(async () => {
	const started = await serverWithAdmin();
	server = started.server;
	clients.admin = started.admin;
	clients.anonymous = new Client(server);
	[viewer, editor, target] = await Promise.all([
		createUser(clients.admin, 'viewer', 'viewer@example.test'),
		createUser(clients.admin, 'editor', 'editor@example.test'),
		createUser(clients.admin, 'viewer', 'target@example.test')
	]);
	clients.viewer = viewer.client;
	clients.editor = editor.client;
	sharedProfile = await createProfile(clients.admin, 'Shared');
});

afterAll(stopAllServers);

const cases = ROWS.flatMap((row) =>
	WHO.map((who, i) => ({
		row,
		who,
		expected: row.expect[i],
		name: `${row.method} ${row.path} as ${who} → ${row.expect[i]}`
	}))
);

describe('access table', () => {
	it.each(cases)('$name', async ({ row, who, expected }) => {
		const profile = row.fresh ? await createProfile(clients.admin, `For ${who}`) : sharedProfile;
		const path = row.path.replace(':profile', profile).replace(':user', String(target.id));
		const body = row.body?.(who);
		const answer = await clients[who].json(path, {
			method: row.method,
			...(body === undefined ? {} : { json: body })
		});
		const isApi = path.startsWith('/api/');
		if (expected === 'passes') {
			expect(answer.status).not.toBe(401);
			expect(answer.status).not.toBe(403);
			expect(answer.headers.get('location') ?? '').not.toMatch(/^\/login/);
			return;
		}
		expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(expected);
		if (expected === 401 && isApi) {
			expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
			expect(answer.body.error?.code).toBe('unauthenticated');
		}
		if (expected === 403 && isApi) expect(answer.body.error?.code).toBe('forbidden');
		if (expected === 303) {
			expect(answer.headers.get('location')).toBe(`/login?next=${encodeURIComponent(path)}`);
		}
	});
});

describe('API tokens', () => {
	async function tokenOf(client: Client, name: string): Promise<{ id: number; token: string }> {
		const created = await client.json('/api/tokens', { method: 'POST', json: { name } });
		expect(created.status).toBe(201);
		return { id: created.body.info!.id, token: created.body.token! };
	}

	it("act with their owner's role: a viewer's token reads but cannot write", async () => {
		const { token } = await tokenOf(viewer.client, 'viewer read');
		const bearer = new Client(server, token);
		expect((await bearer.json('/api/profiles')).status).toBe(200);
		const write = await bearer.json('/api/profiles', { method: 'POST', json: { name: 'No' } });
		expect(write.status).toBe(403);
		expect(write.body.error?.code).toBe('forbidden');
		expect((await bearer.json('/api/session')).body.user).toMatchObject({
			email: viewer.email,
			role: 'viewer',
			via: 'token'
		});
	});

	it("act with their owner's role: an editor's token writes profiles, not users", async () => {
		const { token } = await tokenOf(editor.client, 'editor write');
		const bearer = new Client(server, token);
		const write = await bearer.json('/api/profiles', {
			method: 'POST',
			json: { name: 'By token' }
		});
		expect(write.status).toBe(201);
		expect(write.body.profile?.author).toBe('editor');
		expect((await bearer.json('/api/users')).status).toBe(403);
	});

	it('stop working once revoked (401), and only their owner can revoke them', async () => {
		const { id, token } = await tokenOf(editor.client, 'to revoke');
		const bearer = new Client(server, token);
		expect((await bearer.json('/api/profiles')).status).toBe(200);
		const foreign = await viewer.client.json(`/api/tokens/${id}`, { method: 'DELETE' });
		expect(foreign.status).toBe(404);
		expect((await bearer.json('/api/profiles')).status).toBe(200);
		const revoked = await editor.client.json(`/api/tokens/${id}`, { method: 'DELETE' });
		expect(revoked.status).toBe(204);
		const after = await bearer.json('/api/profiles');
		expect(after.status).toBe(401);
		expect(after.body.error?.code).toBe('unauthenticated');
		const listed = await editor.client.json('/api/tokens');
		expect(listed.body.tokens?.find((t) => t.id === id)?.revokedAt).toEqual(expect.any(Number));
	});

	it('are shown once: the list never contains the secret or its hash', async () => {
		const { id, token } = await tokenOf(viewer.client, 'shown once');
		expect(token).toMatch(/^pst_[\w-]{40,}$/);
		const listed = await viewer.client.json('/api/tokens');
		expect(listed.status).toBe(200);
		const mine = listed.body.tokens?.find((t) => t.id === id);
		expect(mine).toMatchObject({ name: 'shown once', prefix: token.slice(0, 10) });
		const text = JSON.stringify(listed.body);
		expect(text).not.toContain(token);
		expect(text).not.toContain(token.slice(10));
		expect(text).not.toMatch(/tokenHash|token_hash|[0-9a-f]{64}/);
	});

	it('are listed only to their owner', async () => {
		await tokenOf(editor.client, 'editor only');
		const listed = await viewer.client.json('/api/tokens');
		expect(listed.body.tokens?.map((t) => t.name)).not.toContain('editor only');
	});

	it('are refused when unknown or malformed (401)', async () => {
		for (const token of ['pst_not-a-real-token', 'not-even-prefixed', '']) {
			const answer = await new Client(server, token).json('/api/profiles');
			expect(answer.status).toBe(401);
		}
	});

	it('write without an Origin header, even with a foreign one', async () => {
		const { token } = await tokenOf(editor.client, 'no origin');
		const bearer = new Client(server, token);
		const plain = await bearer.json('/api/profiles', {
			method: 'POST',
			json: { name: 'No origin' },
			noOrigin: true
		});
		expect(plain.status).toBe(201);
		const foreign = await bearer.json('/api/profiles', {
			method: 'POST',
			json: { name: 'Foreign origin' },
			headers: { origin: 'https://evil.example' }
		});
		expect(foreign.status).toBe(201);
	});
});

describe('cookie-authenticated writes', () => {
	const create = { method: 'POST', json: { name: 'Cross' } };

	it.each([
		['without an Origin', { ...create, noOrigin: true }],
		['with a foreign Origin', { ...create, headers: { origin: 'https://evil.example' } }],
		['with Origin "null"', { ...create, headers: { origin: 'null' } }],
		[
			'from another port of the same host',
			{ ...create, headers: { origin: 'http://127.0.0.1:1' } }
		],
		[
			'with Sec-Fetch-Site: cross-site and no Origin',
			{ ...create, noOrigin: true, headers: { 'sec-fetch-site': 'cross-site' } }
		],
		[
			'as text/plain',
			{ method: 'POST', body: '{"name":"Cross"}', headers: { 'content-type': 'text/plain' } }
		],
		['without a content type', { method: 'POST', body: '{"name":"Cross"}' }]
	])('are refused %s (403 cross_site)', async (_, init) => {
		const answer = await clients.editor.json('/api/profiles', init);
		expect(answer.status).toBe(403);
		expect(answer.body.error?.code).toBe('cross_site');
	});

	it('are refused from a foreign Origin on a percent-encoded API path', async () => {
		const answer = await clients.editor.json('/%61pi/profiles', {
			...create,
			headers: { origin: 'https://evil.example' }
		});
		expect(answer.status).toBe(403);
		expect(answer.body.error?.code).toBe('cross_site');
	});

	it('are refused as a form (403), in the API’s error shape', async () => {
		const answer = await clients.editor.json('/api/profiles', {
			method: 'POST',
			body: 'name=Cross',
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				origin: 'https://evil.example'
			}
		});
		expect(answer.status).toBe(403);
		expect(answer.body.error?.code).toBe('cross_site');
	});

	it('refuse a body declared over the size limit with 413, in the API’s error shape', async () => {
		// Declared, not sent: the server answers from the header, before any of the body.
		const answer = await new Promise<{ status: number; type: string; body: string }>(
			(resolve, reject) => {
				const request = http.request(`${server.url}/api/profiles`, {
					method: 'POST',
					headers: {
						cookie: `ps_session=${clients.editor.session}`,
						origin: server.url,
						'content-type': 'application/json',
						'content-length': String(64 * 1024 * 1024)
					}
				});
				request.on('response', (response) => {
					let body = '';
					response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
					response.on('end', () =>
						resolve({
							status: response.statusCode ?? 0,
							type: String(response.headers['content-type']),
							body
						})
					);
				});
				request.on('error', reject);
				request.write('{');
			}
		);
		expect(answer.status).toBe(413);
		expect(answer.type).toBe('application/json');
		expect(JSON.parse(answer.body).error.code).toBe('payload_too_large');
	});

	it('are refused as a form to a page, signed in or not (403)', async () => {
		for (const client of [clients.editor, clients.anonymous]) {
			const answer = await client.fetch('/login', {
				method: 'POST',
				body: 'email=a%40b.test&password=x',
				headers: {
					'content-type': 'application/x-www-form-urlencoded',
					origin: 'https://evil.example'
				}
			});
			expect(answer.status).toBe(403);
			expect(await answer.text()).toBe('Cross-site POST form submissions are forbidden');
		}
	});

	it('are refused for DELETE from a foreign Origin', async () => {
		const answer = await clients.editor.json(`/api/profiles/${sharedProfile}`, {
			method: 'DELETE',
			headers: { origin: 'https://evil.example' }
		});
		expect(answer.status).toBe(403);
		expect(answer.body.error?.code).toBe('cross_site');
		expect((await clients.editor.json(`/api/profiles/${sharedProfile}`)).status).toBe(200);
	});

	it('are refused for sign-in from a foreign Origin (no login CSRF)', async () => {
		const answer = await new Client(server).json('/api/session', {
			method: 'POST',
			json: { email: ADMIN.email, password: ADMIN.password },
			headers: { origin: 'https://evil.example' }
		});
		expect(answer.status).toBe(403);
		expect(answer.body.error?.code).toBe('cross_site');
		expect(answer.headers.getSetCookie()).toEqual([]);
	});

	it('are accepted with Sec-Fetch-Site: same-origin and no Origin', async () => {
		const answer = await clients.editor.json('/api/profiles', {
			...create,
			noOrigin: true,
			headers: { 'sec-fetch-site': 'same-origin' }
		});
		expect(answer.status).toBe(201);
	});

	it('leave reads alone: a GET needs no Origin', async () => {
		const answer = await clients.viewer.json('/api/profiles', { noOrigin: true });
		expect(answer.status).toBe(200);
	});
});

describe('deactivated users', () => {
	it('lose their sessions and tokens at once, and cannot sign in again', async () => {
		const user = await createUser(clients.admin, 'editor', 'leaving@example.test');
		const created = await user.client.json('/api/tokens', {
			method: 'POST',
			json: { name: 'leaving' }
		});
		const bearer = new Client(server, created.body.token);
		expect((await user.client.json('/api/session')).status).toBe(200);
		expect((await bearer.json('/api/session')).status).toBe(200);

		const patch = await clients.admin.json(`/api/users/${user.id}`, {
			method: 'PATCH',
			json: { active: false }
		});
		expect(patch.status).toBe(200);
		expect(patch.body.user?.active).toBe(false);

		expect((await user.client.json('/api/session')).status).toBe(401);
		expect((await bearer.json('/api/session')).status).toBe(401);
		const again = await new Client(server).login(user.email, user.password);
		expect(again.status).toBe(401);
		expect(again.headers.getSetCookie()).toEqual([]);
	});
});

describe('the last active admin', () => {
	it('cannot be demoted or deactivated (409 last_admin)', async () => {
		const me = (await clients.admin.json('/api/session')).body.user!;
		for (const change of [{ role: 'editor' }, { role: 'viewer' }, { active: false }]) {
			const answer = await clients.admin.json(`/api/users/${me.id}`, {
				method: 'PATCH',
				json: change
			});
			expect(answer.status).toBe(409);
			expect(answer.body.error?.code).toBe('last_admin');
		}
		expect((await clients.admin.json('/api/users')).status).toBe(200);
		const listed = await clients.admin.json('/api/users');
		expect(listed.body.users?.find((u) => u.id === me.id)).toMatchObject({
			role: 'admin',
			active: true
		});
	});

	it('can be demoted once another admin is active (which ends their sessions)', async () => {
		const other = await createUser(clients.admin, 'admin', 'second-admin@example.test');
		const demoted = await other.client.json(`/api/users/${other.id}`, {
			method: 'PATCH',
			json: { role: 'viewer' }
		});
		expect(demoted.status).toBe(200);
		expect(demoted.body.user?.role).toBe('viewer');
		expect((await other.client.json('/api/users')).status).toBe(401);
		const again = new Client(server);
		expect((await again.login(other.email, other.password)).status).toBe(200);
		expect((await again.json('/api/users')).status).toBe(403);
	});
});

describe('security headers', () => {
	it('a page forbids framing and sniffing and limits the referrer', async () => {
		const page = await clients.viewer.fetch('/');
		expect(page.status).toBe(200);
		const csp = page.headers.get('content-security-policy') ?? '';
		expect(csp).toMatch(/frame-ancestors 'none'/);
		expect(csp).toMatch(/default-src 'self'/);
		expect(csp).toMatch(/object-src 'none'/);
		expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
		expect(page.headers.get('x-content-type-options')).toBe('nosniff');
		expect(page.headers.get('referrer-policy')).toMatch(/^(same-origin|no-referrer|strict-origin)/);
		expect(page.headers.get('x-frame-options')).toBe('DENY');
	});

	it('the API answers carry no CORS headers, even to a foreign Origin or a preflight', async () => {
		const foreign = { origin: 'https://evil.example' };
		const answers = await Promise.all([
			clients.viewer.fetch('/api/profiles', { headers: foreign }),
			clients.anonymous.fetch('/api/profiles', { headers: foreign }),
			clients.anonymous.fetch('/api/health', { headers: foreign }),
			clients.viewer.fetch('/api/profiles', {
				method: 'OPTIONS',
				headers: {
					...foreign,
					'access-control-request-method': 'POST',
					'access-control-request-headers': 'content-type'
				}
			})
		]);
		for (const answer of answers) {
			await answer.body?.cancel();
			const cors = [...answer.headers.keys()].filter((name) => name.startsWith('access-control-'));
			expect(cors).toEqual([]);
		}
		expect(answers[0].headers.get('x-content-type-options')).toBe('nosniff');
		expect(answers[0].headers.get('cache-control')).toBe('no-store');
	});
});
