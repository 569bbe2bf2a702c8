import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, createProfile, createUser, profileDocument } from '../helpers/fixtures';
import { Client, startServer, stopAllServers, type TestServer } from '../helpers/server';
import { startUpstream, TEST_CERTIFICATE, type Upstream } from '../helpers/upstream';

/**
 * The log of the real built server, as an ops pipeline reads it (`LOG_FORMAT=json`, every level):
 * one JSON object a line, a line per request with its id, route template, status, duration,
 * user and address; and a session that uses every kind of secret the app handles, after which
 * the whole log (stdout and stderr) is searched for each of them.
 */

let server: TestServer;
let upstream: Upstream;

beforeAll(async () => {
	// Over https: over plain http the platform itself sends a password as ****.
	upstream = await startUpstream({
		tls: true,
		otherwise: {
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: '{"sms_id":"1"}'
		}
	});
	server = await startServer({
		env: {
			...ADMIN_ENV,
			LOG_FORMAT: 'json',
			LOG_LEVEL: 'trace',
			OUTBOUND_ALLOW: '127.0.0.1/32',
			OUTBOUND_PORTS: '1024-65535',
			NODE_EXTRA_CA_CERTS: TEST_CERTIFICATE
		}
	});
});

afterAll(async () => {
	await upstream.stop();
	await stopAllServers();
});

/** Every line the server wrote, parsed (a line that is not JSON fails the test). */
function lines(): Record<string, unknown>[] {
	return (server.stdout() + server.stderr())
		.split('\n')
		.filter((line) => line !== '')
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the log', () => {
	it('is one JSON object a line, with one line per request: id, route template, status, duration, user, address', async () => {
		const admin = new Client(server);
		expect((await admin.login(ADMIN.email, ADMIN.password)).status).toBe(200);
		const id = await createProfile(admin, 'Logged');
		const answer = await admin.fetch(`/api/profiles/${id}`, {
			headers: { 'x-request-id': 'trace-me-42' }
		});
		expect(answer.status).toBe(200);
		await new Promise((resolve) => setTimeout(resolve, 100));
		const line = lines().find((l) => l.requestId === 'trace-me-42');
		expect(line).toMatchObject({
			level: 'info',
			msg: 'request',
			method: 'GET',
			route: '/api/profiles/[id]',
			status: 200,
			userId: 1,
			ip: '127.0.0.1'
		});
		expect(typeof line!.durationMs).toBe('number');
		// Never the path: no id reaches a log line as a route.
		for (const l of lines()) expect(String(l.route ?? '')).not.toContain(id);
		const started = lines().find((l) => String(l.msg).startsWith('Listening on'));
		expect(started).toMatchObject({ database: { backend: 'sqlite' } });
		expect(JSON.stringify(started)).not.toContain(ADMIN.password);
	});

	it('holds no password, token, cookie, Authorization or secret value after a session that used them all', async () => {
		const wrongPassword = 'Wr0ng-password-typed-by-mistake';
		const secretSample = 'S3cret-sample-value-in-a-scenario';
		const typedSecret = 'Typed-secret-for-a-test-call-77';
		const admin = new Client(server);
		expect((await admin.login(ADMIN.email, wrongPassword)).status).toBe(401);
		expect((await admin.login(ADMIN.email, ADMIN.password)).status).toBe(200);
		const cookie = admin.session!;
		const made = await admin.json('/api/tokens', { method: 'POST', json: { name: 'ci' } });
		const token = made.body.token!;
		const viaToken = admin.withToken(token);
		expect((await viaToken.json('/api/profiles')).status).toBe(200);
		const user = await createUser(
			admin,
			'editor',
			'logged-editor@example.test',
			'an-editor-passw0rd-1'
		);
		// A profile whose scenario keeps a secret, saved (encrypted at rest), and a test call with
		// another secret typed into it, sent to a real upstream.
		const document = profileDocument({ 'account[password]': secretSample });
		document.services.sendMessage = {
			...document.services.sendMessage,
			genericSmsSendUrl: `${upstream.url}/send`,
			genericSmsSendPostData: '{"p":"%account[password]%"}'
		};
		await createProfile(admin, 'With secrets', document);
		const call = await admin.json('/api/test-calls', {
			method: 'POST',
			json: {
				service: 'sendMessage',
				settings: document.services.sendMessage,
				values: { 'account[password]': typedSecret }
			}
		});
		expect(call.status).toBe(200);
		expect(upstream.requests.at(-1)!.body).toContain(typedSecret);
		// An error answered 500 or a refusal logs what it can: still none of the above.
		await viaToken.json('/api/profiles/not-a-uuid');
		await new Promise((resolve) => setTimeout(resolve, 100));

		const log = server.stdout() + server.stderr();
		expect(lines().filter((l) => l.msg === 'request').length).toBeGreaterThan(8);
		const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
		for (const [what, value] of Object.entries({
			'the admin password': ADMIN.password,
			'a wrong password': wrongPassword,
			"the editor's password": user.password,
			'the session cookie': cookie,
			'the API token': token,
			'a stored secret sample': secretSample,
			'a typed secret': typedSecret,
			'the typed secret hashed': sha1(typedSecret)
		})) {
			expect(log.includes(value), `${what} is in the log`).toBe(false);
		}
		expect(log).not.toMatch(/authorization|ps_session=|Bearer /i);
	});

	it("names a request by its id in the log line, the audit entry and the test call's history", async () => {
		const admin = new Client(server);
		expect((await admin.login(ADMIN.email, ADMIN.password)).status).toBe(200);
		const created = await admin.json('/api/profiles', {
			method: 'POST',
			json: { name: 'Traced' },
			headers: { 'x-request-id': 'create-7f3a' }
		});
		expect(created.status).toBe(201);
		const call = await admin.json('/api/test-calls', {
			method: 'POST',
			headers: { 'x-request-id': 'call-9c21' },
			json: {
				service: 'sendMessage',
				settings: {
					genericSmsSendUrl: `${upstream.url}/traced`,
					genericSmsSendPostData: '{"to":"%sms_to%"}',
					genericSmsSendContentType: 'application/json'
				},
				values: { sms_to: '+14155550123' }
			}
		});
		expect(call.status).toBe(200);
		const audit = await admin.json('/api/audit?limit=50');
		const made = audit.body.entries!.find((e) => e.action === 'profile.created');
		expect(made!.details).toMatchObject({ requestId: 'create-7f3a' });
		const sent = audit.body.entries!.find((e) => e.action === 'test_call');
		expect(sent!.details).toMatchObject({ requestId: 'call-9c21' });
		const history = await admin.json<{ calls: { requestId?: string }[] }>(
			'/api/test-calls?service=sendMessage'
		);
		expect(history.body.calls[0].requestId).toBe('call-9c21');
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(lines().find((l) => l.requestId === 'call-9c21')).toMatchObject({
			route: '/api/test-calls',
			status: 200,
			userId: 1
		});
	});
});
