import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Interpretation } from '../../src/lib/core/response';
import type { PreviewRequest } from '../../src/lib/server/profiles/preview';
import type {
	HistoryEntry,
	HistorySummary,
	ResponseEnvelope
} from '../../src/lib/server/test-calls';
import type { ProfileDocument } from '../../src/lib/core/profile';
import {
	ADMIN,
	ADMIN_ENV,
	createProfile,
	createUser,
	profileDocument,
	serverWithAdmin
} from '../helpers/fixtures';
import {
	Client,
	freePort,
	startServer,
	stopAllServers,
	type ClientRequest,
	type TestServer
} from '../helpers/server';
import { startUpstream, TEST_CERTIFICATE, type Upstream } from '../helpers/upstream';

/**
 * Test calls through the real built server to real local upstreams. The test configuration
 * opens 127.0.0.1 (OUTBOUND_ALLOW) and high ports; timeouts are short so slow cases end fast.
 * The https-only services are called on an HTTPS upstream whose certificate the server trusts.
 */

interface Call {
	request: PreviewRequest;
	response?: ResponseEnvelope;
	interpretation?: Interpretation;
	error?: { code: string; message: string; rule?: string; address?: string };
}

interface CallAnswer {
	id?: number;
	calls?: Call[];
	issues?: { code: string }[];
	requests?: PreviewRequest[];
	error?: { code: string; message: string };
	call?: HistoryEntry;
}

const TEST_ENV = {
	OUTBOUND_ALLOW: '127.0.0.1/32',
	OUTBOUND_PORTS: '1024-65535',
	OUTBOUND_HEADERS_TIMEOUT_MS: '1000',
	OUTBOUND_TOTAL_TIMEOUT_MS: '4000',
	OUTBOUND_MAX_IN_FLIGHT: '2',
	NODE_EXTRA_CA_CERTS: TEST_CERTIFICATE
};

let admin: Client;
let server: TestServer;
let upstream: Upstream;
/** The HTTPS upstream, for the services that accept only https: URLs. */
let secure: Upstream;

beforeAll(async () => {
	({ admin, server } = await serverWithAdmin(TEST_ENV));
	upstream = await startUpstream();
	secure = await startUpstream({ tls: true });
});

afterAll(async () => {
	await upstream.stop();
	await secure.stop();
	await stopAllServers();
});

function call(client: Client, body: object) {
	return client.json<CallAnswer>('/api/test-calls', { method: 'POST', json: body });
}

function one(answer: { body: CallAnswer }): Call {
	expect(answer.body.calls).toHaveLength(1);
	return answer.body.calls![0];
}

describe('test calls', () => {
	it('sends byte for byte the request the preview shows', async () => {
		const body = {
			service: 'sendMessage',
			settings: {
				genericSmsSendUrl: `${upstream.url}/send?from=%account[username]%&to=%sms_to%`,
				genericSmsSendPostData: '{"to":"%sms_to%","body":"%sms_body%"}',
				genericSmsSendContentType: 'application/json; charset=utf-8'
			},
			values: {
				'account[username]': "al ice O'Neil {x} <y>",
				sms_to: '+14155550123',
				sms_body: 'Hi "there" é€'
			}
		};
		const preview = await admin.json<CallAnswer>('/api/preview', { method: 'POST', json: body });
		const shown = preview.body.requests![0];
		const before = upstream.requests.length;
		upstream.answerNext({
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: '{"sms_id":"m-1"}'
		});
		const answer = await call(admin, body);
		expect(answer.status).toBe(200);
		const result = one(answer);
		const received = upstream.requests[before];
		expect(received.method).toBe(shown.method);
		expect(upstream.url + received.url).toBe(shown.url);
		for (const [name, value] of Object.entries(shown.headers as Record<string, string>)) {
			expect(received.headers[name.toLowerCase()]).toBe(value);
		}
		expect(preview.body.issues?.map((i) => i.code) ?? []).not.toContain('url_rewritten');
		expect(received.body).toBe(shown.body);
		expect(result.request).toEqual(shown);
		expect(result.response).toMatchObject({
			status: 200,
			bodyEncoding: 'text',
			truncated: false,
			via: 'network'
		});
		expect(result.response!.address).toMatchObject({ ip: '127.0.0.1', port: upstream.port });
		expect(result.interpretation!.action).toEqual({ kind: 'storeSmsId', smsId: 'm-1' });
	});

	const JSON_TYPE = { 'content-type': 'application/json' };
	const cases: [
		string,
		Record<string, string>,
		{ status: number; headers?: Record<string, string>; body?: string },
		string,
		string | null
	][] = [
		[
			'sendMessage',
			{},
			{ status: 402, headers: JSON_TYPE, body: '{"message":"Not enough credit"}' },
			'showUser',
			'Not enough credit'
		],
		['sendMessage', {}, { status: 500, body: 'x'.repeat(150) }, 'showUser', 'x'.repeat(100)],
		['mediaRefSend', {}, { status: 200 }, 'success', null],
		[
			'mediaRefSend',
			{},
			{ status: 404, body: 'gone' },
			'showGenericError',
			'(the app’s generic error message)'
		],
		[
			'externalAuth',
			{},
			{ status: 200, headers: JSON_TYPE, body: '{"phoneNumbers":["+14155550123"]}' },
			'phoneNumbers',
			null
		],
		[
			'externalAuth',
			{},
			{ status: 401, headers: JSON_TYPE, body: '{"message":"bad"}' },
			'silentlyIgnore',
			null
		],
		[
			'phoneNumberVerifier',
			{},
			{ status: 200, headers: JSON_TYPE, body: '{"token":"t-1"}' },
			'wizardNext',
			null
		],
		[
			'phoneNumberVerifier',
			{},
			{ status: 400, headers: JSON_TYPE, body: '{"message":"Invalid number"}' },
			'wizardMessageBox',
			'Invalid number'
		],
		['invitationAccepted', {}, { status: 204 }, 'success', null],
		['invitationAccepted', {}, { status: 200 }, 'silentlyIgnore', null],
		[
			'smartContactNotification',
			{
				smartContactNotificationContentType: 'application/json',
				smartContactNotificationPostData: '{"n":"%new_smart_number%"}'
			},
			{ status: 204 },
			'success',
			null
		],
		[
			'smartContactNotification',
			{
				smartContactNotificationContentType: 'application/json',
				smartContactNotificationPostData: '{"n":"%new_smart_number%"}'
			},
			{ status: 503 },
			'silentlyIgnore',
			null
		],
		['pushTokenReporter', {}, { status: 200 }, 'success', null],
		['pushTokenReporter', {}, { status: 500 }, 'retryLater', null],
		['pushTokenReporter', {}, { status: 400 }, 'retryLater', null],
		['mediaRefSend', {}, { status: 503 }, 'showGenericError', '(the app’s generic error message)'],
		['externalAuth', {}, { status: 500, body: 'boom' }, 'silentlyIgnore', null],
		[
			'phoneNumberVerifier',
			{},
			{ status: 500, headers: JSON_TYPE, body: '{"message":"Try again later"}' },
			'wizardMessageBox',
			'Try again later'
		],
		['invitationAccepted', {}, { status: 404 }, 'silentlyIgnore', null],
		['invitationAccepted', {}, { status: 500 }, 'silentlyIgnore', null],
		[
			'smartContactNotification',
			{
				smartContactNotificationContentType: 'application/json',
				smartContactNotificationPostData: '{"n":"%new_smart_number%"}'
			},
			{ status: 400 },
			'silentlyIgnore',
			null
		],
		[
			'extSSOProv',
			{},
			{
				status: 200,
				headers: { 'content-type': 'application/xml' },
				body: '<account><username>1001</username></account>'
			},
			'provisioningAccount',
			null
		],
		['extSSOProv', {}, { status: 403 }, 'silentlyIgnore', null],
		['extSSOProv', {}, { status: 502 }, 'silentlyIgnore', null]
	];
	const URL_KEYS: Record<string, string> = {
		sendMessage: 'genericSmsSendUrl',
		mediaRefSend: 'genericMediaRefSendUrl',
		externalAuth: 'externalAuthUrl',
		phoneNumberVerifier: 'phoneNumberVerifierUrl',
		invitationAccepted: 'invitationAcceptedUrl',
		smartContactNotification: 'smartContactNotificationUrl',
		pushTokenReporter: 'pushTokenReporterUrl',
		extSSOProv: 'extSSOProvUrl'
	};
	const HTTPS_ONLY = ['externalAuth', 'extSSOProv'];

	it.each(cases)(
		'%s answered %j gets the interpretation of the catalogue',
		async (service, extra, answer, kind, shown) => {
			const target = HTTPS_ONLY.includes(service) ? secure : upstream;
			target.answerNext(answer);
			const result = one(
				await call(admin, {
					service,
					settings: { [URL_KEYS[service]]: `${target.url}/${service}`, ...extra }
				})
			);
			expect(result.error).toBeUndefined();
			expect(result.response!.status).toBe(answer.status);
			expect(result.interpretation!.action.kind).toBe(kind);
			expect(result.interpretation!.shownToUser).toBe(shown);
		}
	);

	it('reports a slow upstream as a timeout', async () => {
		upstream.answerNext(() => {});
		const result = one(
			await call(admin, {
				service: 'pushTokenReporter',
				settings: { pushTokenReporterUrl: `${upstream.url}/slow` }
			})
		);
		expect(result.error).toMatchObject({ code: 'headers_timeout' });
		expect(result.error!.message).toContain(`${upstream.url}/slow`);
	});

	it('reports a refused connection', async () => {
		const port = await freePort();
		const result = one(
			await call(admin, {
				service: 'pushTokenReporter',
				settings: { pushTokenReporterUrl: `http://127.0.0.1:${port}/` }
			})
		);
		expect(result.error).toMatchObject({ code: 'connect_refused' });
	});

	it('cuts a 5 MB body at the limit and says so', async () => {
		upstream.answerNext({
			status: 200,
			headers: { 'content-type': 'text/plain' },
			body: 'a'.repeat(5 * 1024 * 1024)
		});
		const result = one(
			await call(admin, {
				service: 'pushTokenReporter',
				settings: { pushTokenReporterUrl: `${upstream.url}/big` }
			})
		);
		expect(result.response!.truncated).toBe(true);
		expect(result.response!.size.body).toBe(1024 * 1024);
		expect(result.response!.body.length).toBe(1024 * 1024);
	});

	it('stops decoding a gzip bomb at the limit', async () => {
		const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
		upstream.answerNext({
			status: 200,
			headers: { 'content-encoding': 'gzip', 'content-type': 'text/plain' },
			body: bomb
		});
		const result = one(
			await call(admin, {
				service: 'pushTokenReporter',
				settings: { pushTokenReporterUrl: `${upstream.url}/bomb` }
			})
		);
		expect(result.response!.truncated).toBe(true);
		expect(result.response!.size.body).toBe(1024 * 1024);
		expect(result.response!.size.received).toBeLessThanOrEqual(bomb.length);
	});

	it('shows a redirect and does not follow it', async () => {
		const before = upstream.requests.length;
		upstream.answerNext({ status: 302, headers: { location: `${upstream.url}/elsewhere` } });
		const result = one(
			await call(admin, {
				service: 'pushTokenReporter',
				settings: { pushTokenReporterUrl: `${upstream.url}/moved` }
			})
		);
		expect(result.response!.status).toBe(302);
		expect(result.response!.redirect).toEqual({ location: `${upstream.url}/elsewhere` });
		expect(upstream.requests.length).toBe(before + 1);
	});

	it('refuses a header whose value would inject another header, sending nothing', async () => {
		const before = upstream.connections();
		const answer = await call(admin, {
			service: 'mediaRefSend',
			settings: {
				genericMediaRefSendUrl: `${upstream.url}/h`,
				genericMediaRefSendCustomHeaders: 'X-To: %sms_to%\nX-Ok: yes'
			},
			values: { sms_to: 'a\r\nInjected: 1' }
		});
		expect(answer.status).toBe(400);
		expect(answer.body.error).toMatchObject({ code: 'invalid_header' });
		expect(answer.body.error!.message).toContain('X-To header holds a line break');
		expect(upstream.connections()).toBe(before);
	});

	it('masks secrets in the answer, the history and the audit log, but sends them', async () => {
		const password = 'Hunter2-secret';
		const before = secure.requests.length;
		secure.answerNext({
			status: 400,
			headers: JSON_TYPE,
			body: `{"message":"wrong password ${password}"}`
		});
		const answer = await call(admin, {
			service: 'externalAuth',
			settings: { externalAuthUrl: `${secure.url}/s?p=%password%&h=%sha1(%password%)%` },
			values: { password }
		});
		expect(secure.requests[before].url).toContain(`p=${password}`);
		const text = JSON.stringify(answer.body);
		expect(text).not.toContain(password);
		expect(one(answer).interpretation!.summary).toContain('“wrong password ••••••••”');
		const entry = await admin.json<CallAnswer>(`/api/test-calls/${answer.body.id}`);
		expect(entry.status).toBe(200);
		expect(JSON.stringify(entry.body)).not.toContain(password);
		expect(entry.body.call!.answer.calls[0].request.url).toContain('p=••••••••&h=••••••••');
		const audit = await admin.json('/api/audit?action=test_call');
		expect(audit.body.entries!.length).toBeGreaterThan(0);
		expect(JSON.stringify(audit.body)).not.toContain(password);
		expect(audit.body.entries![0].details).toMatchObject({
			method: 'GET',
			origin: secure.url,
			status: 400
		});
	});

	it('masks a secret echoed inside a binary body too', async () => {
		const password = 'Binary-secret-42';
		secure.answerNext({
			status: 200,
			headers: { 'content-type': 'application/octet-stream' },
			body: Buffer.concat([
				Buffer.from([0xff, 0xfe, 0x00]),
				Buffer.from(password),
				Buffer.from([0x80])
			])
		});
		const answer = await call(admin, {
			service: 'externalAuth',
			settings: { externalAuthUrl: `${secure.url}/bin?p=%password%` },
			values: { password }
		});
		const response = one(answer).response as unknown as { body: string; bodyEncoding: string };
		expect(response.bodyEncoding).toBe('base64');
		const bytes = Buffer.from(response.body, 'base64');
		expect(bytes.includes(Buffer.from(password))).toBe(false);
		expect(bytes.includes(Buffer.from('••••••••'))).toBe(true);
	});

	it('lists the history of a service, newest first, and opens an entry', async () => {
		upstream.answerNext({ status: 204 });
		const made = await call(admin, {
			service: 'invitationAccepted',
			settings: { invitationAcceptedUrl: `${upstream.url}/hist` }
		});
		const list = await admin.json<{ calls: HistorySummary[] }>(
			'/api/test-calls?service=invitationAccepted'
		);
		expect(list.body.calls[0]).toMatchObject({
			id: made.body.id,
			method: 'GET',
			url: `${upstream.url}/hist`,
			outcomes: [{ status: 204, success: true }]
		});
		const other = await createUser(admin, 'editor', 'history-editor@example.test');
		expect((await other.client.json(`/api/test-calls/${made.body.id}`)).status).toBe(404);
	});

	it('audits every call sent and keeps the newest 50 calls of a service in the history', async () => {
		const email = 'history-keep@example.test';
		const { client } = await createUser(admin, 'editor', email);
		const ids: number[] = [];
		for (let i = 0; i < 52; i++) {
			const made = await call(client, {
				service: 'invitationAccepted',
				settings: { invitationAcceptedUrl: `${upstream.url}/keep-${i}` }
			});
			expect(one(made).response).toBeDefined();
			ids.push(made.body.id!);
		}
		// The oldest calls are removed after the answer that made them too many.
		let status = 200;
		for (let i = 0; i < 50 && status !== 404; i++) {
			status = (await client.json(`/api/test-calls/${ids[1]}`)).status;
		}
		expect(status).toBe(404);
		expect((await client.json(`/api/test-calls/${ids[0]}`)).status).toBe(404);
		expect((await client.json(`/api/test-calls/${ids[2]}`)).status).toBe(200);
		const list = await client.json<{ calls: HistorySummary[] }>(
			'/api/test-calls?service=invitationAccepted'
		);
		expect(list.body.calls.map((c) => c.id)).toEqual(ids.slice(2).reverse());
		// Each request's entry is written with its call's history row, none lost.
		const audit = await admin.json<{ entries: { target: string; details: object }[] }>(
			`/api/audit?action=test_call&actor=${encodeURIComponent(email)}&limit=200`
		);
		expect(audit.body.entries).toHaveLength(52);
		expect(audit.body.entries[51]).toMatchObject({
			target: 'invitationAccepted',
			details: { method: 'GET', origin: upstream.url, status: 200 }
		});
	});

	it('cancels a running call', async () => {
		upstream.answerNext(() => {});
		const callId = crypto.randomUUID();
		const pending = call(admin, {
			service: 'pushTokenReporter',
			settings: { pushTokenReporterUrl: `${upstream.url}/wait` },
			callId
		});
		let cancelled = 404;
		for (let i = 0; i < 50 && cancelled === 404; i++) {
			cancelled = (await admin.fetch(`/api/test-calls/running/${callId}`, { method: 'DELETE' }))
				.status;
			if (cancelled === 404) await new Promise((r) => setTimeout(r, 20));
		}
		expect(cancelled).toBe(204);
		expect(one(await pending).error).toMatchObject({ code: 'cancelled' });
	});

	it('answers 429 beyond the in-flight limit of a user', async () => {
		upstream.answerNext(() => {});
		upstream.answerNext(() => {});
		const settings = { pushTokenReporterUrl: `${upstream.url}/hold` };
		const held = [
			call(admin, { service: 'pushTokenReporter', settings }),
			call(admin, { service: 'pushTokenReporter', settings })
		];
		await new Promise((r) => setTimeout(r, 300));
		const third = await call(admin, { service: 'pushTokenReporter', settings });
		expect(third.status).toBe(429);
		expect(third.body.error!.code).toBe('too_many_calls');
		await Promise.all(held);
	});

	it("fills the profile's own account values from its XML, never a credential of it", async () => {
		const document = profileDocument();
		document.services.sendMessage = {
			genericSmsSendUrl: `${upstream.url}/acct?u=%account[apiUser]%&a=%account[authUsername]%`,
			genericSmsSendPostData: 'p=%account[apiPass]%'
		};
		document.preservedXml = [
			{ path: 'provisioning/account/core', index: 0, xml: '<apiUser>acme-bridge</apiUser>' },
			{ path: 'provisioning/account/core', index: 1, xml: '<authUsername>alice-7</authUsername>' },
			{ path: 'provisioning/account/core', index: 2, xml: '<apiPass>Kept-Pass-3</apiPass>' }
		];
		const id = await createProfile(admin, 'Declared account values', document);
		const before = upstream.requests.length;
		const answer = await call(admin, {
			profileId: id,
			service: 'sendMessage',
			scenario: 'Text message'
		});
		expect(answer.status, JSON.stringify(answer.body)).toBe(200);
		const sent = upstream.requests[before];
		expect(sent.url).toBe('/acct?u=acme-bridge&a=alice-7');
		expect(JSON.stringify(sent)).not.toContain('Kept-Pass-3');
	});

	it("keeps a call in its profile's history when the profile has no named scenario", async () => {
		const document = profileDocument();
		document.scenarios = [];
		const id = await createProfile(admin, 'No scenario', document);
		upstream.answerNext({ status: 204 });
		const made = await call(admin, {
			service: 'invitationAccepted',
			settings: { invitationAcceptedUrl: `${upstream.url}/no-scenario` },
			secretsFrom: { profileId: id }
		});
		expect(made.status).toBe(200);
		const list = await admin.json<{ calls: HistorySummary[] }>(
			`/api/test-calls?service=invitationAccepted&profileId=${id}`
		);
		expect(list.body.calls.map((c) => c.id)).toEqual([made.body.id]);
		expect(list.body.calls[0]).toMatchObject({ profileId: id, scenario: null });

		// A profile that does not exist is not a history to keep a call in: nothing is sent.
		const before = upstream.requests.length;
		const unknown = await call(admin, {
			service: 'invitationAccepted',
			settings: { invitationAcceptedUrl: `${upstream.url}/no-scenario` },
			secretsFrom: { profileId: '00000000-0000-4000-8000-000000000000' }
		});
		expect(unknown.status).toBe(404);
		expect(unknown.body.error!.code).toBe('not_found');
		expect(upstream.requests.length).toBe(before);
	});

	it('sends a saved profile scenario with its stored secret', async () => {
		const document = profileDocument({ password: 'stored-Secret-9' });
		document.services.externalAuth = { externalAuthUrl: `${secure.url}/p?pw=%password%` };
		const id = await createProfile(admin, 'Test call profile', document);
		const before = secure.requests.length;
		const answer = await call(admin, {
			profileId: id,
			service: 'externalAuth',
			scenario: 'Text message'
		});
		expect(answer.status).toBe(200);
		expect(secure.requests[before].url).toBe('/p?pw=stored-Secret-9');
		expect(JSON.stringify(answer.body)).not.toContain('stored-Secret-9');

		// A masked value takes the stored secret only towards the saved origin.
		const elsewhere = await call(admin, {
			service: 'externalAuth',
			settings: { externalAuthUrl: `https://127.0.0.1:${secure.port + 1}/x?pw=%password%` },
			values: { password: '••••••••' },
			secretsFrom: { profileId: id, scenario: 'Text message' }
		});
		expect(elsewhere.status).toBe(400);
		expect(elsewhere.body.error!.code).toBe('secret_origin');
	});

	it('keeps a stored secret bound to the URLs it was typed with, through saves, restores and copies', async () => {
		const document = profileDocument({ password: 'bound-Secret-7' });
		document.services.externalAuth = { externalAuthUrl: `${secure.url}/p?pw=%password%` };
		const id = await createProfile(admin, 'Bound secret', document);
		const saved = async (path: string) => {
			const head = await admin.json<{ profile: { revision: number; document: ProfileDocument } }>(
				`/api/profiles/${id}`
			);
			const next = head.body.profile.document;
			// The password comes back as the mask: it is kept, not typed again.
			next.services.externalAuth = { externalAuthUrl: path };
			const put = await admin.json(`/api/profiles/${id}`, {
				method: 'PUT',
				json: { baseRevision: head.body.profile.revision, document: next }
			});
			expect(put.status).toBe(200);
		};
		const send = (profileId = id) =>
			call(admin, { profileId, service: 'externalAuth', scenario: 'Text message' });

		// Moved to another origin with the mask: the stored password does not follow.
		const elsewhere = `https://localhost:${secure.port}/p?pw=%password%`;
		await saved(elsewhere);
		const before = secure.requests.length;
		const moved = await send();
		expect(moved.status).toBe(400);
		expect(moved.body.error!.code).toBe('secret_origin');
		expect(moved.body.error!.message).toContain(secure.url);
		expect(secure.requests.length).toBe(before);
		const audit = await admin.json('/api/audit?action=test_call');
		expect(audit.body.entries![0]).toMatchObject({
			target: 'externalAuth',
			details: { refused: 'secret_origin' }
		});

		// Restoring that revision, or copying the profile, does not bind it there either.
		const restored = await admin.json(`/api/profiles/${id}/revisions/2/restore`, {
			method: 'POST',
			json: {}
		});
		expect(restored.status).toBe(200);
		expect((await send()).body.error?.code).toBe('secret_origin');
		const copy = await admin.json<{ profile: { id: string } }>('/api/profiles', {
			method: 'POST',
			json: { name: 'Bound secret copy', duplicateOf: id }
		});
		expect((await send(copy.body.profile.id)).body.error?.code).toBe('secret_origin');
		expect(secure.requests.length).toBe(before);

		// Back at the origin it was typed for, it is sent again.
		await saved(`${secure.url}/q?pw=%password%`);
		expect((await send()).status).toBe(200);
		expect(secure.requests.at(-1)?.url).toBe('/q?pw=bound-Secret-7');
	});

	it('waits out a sink’s delay, and ends one past the overall limit as a timeout', async () => {
		const made = await admin.json<{ sink: { key: string; path: string } }>('/api/sinks', {
			method: 'POST',
			json: {
				name: 'Slow',
				answer: { status: 204, contentType: '', body: '', delayMs: 5000 }
			}
		});
		expect(made.status).toBe(201);
		const url = `${server.url}${made.body.sink.path}tokens`;
		const slow = one(
			await call(admin, { service: 'pushTokenReporter', settings: { pushTokenReporterUrl: url } })
		);
		expect(slow.error).toMatchObject({ code: 'timeout' });
		await admin.json(`/api/sinks/${made.body.sink.key}`, {
			method: 'PUT',
			json: { answer: { status: 204, contentType: '', body: '', delayMs: 300 } }
		});
		const quick = one(
			await call(admin, { service: 'pushTokenReporter', settings: { pushTokenReporterUrl: url } })
		);
		expect(quick.response).toMatchObject({ status: 204, via: 'sink' });
	});

	it.each([
		['externalAuth', 'externalAuthUrl', 'External Authentication'],
		['extSSOProv', 'extSSOProvUrl', 'External provisioning']
	])(
		'refuses %s on an http: URL for the reason the diagnostics give, sending nothing',
		async (service, key, title) => {
			const body = { service, settings: { [key]: `${upstream.url}/auth` } };
			const preview = await admin.json<CallAnswer>('/api/preview', { method: 'POST', json: body });
			const lint = (
				preview.body.issues as { code: string; severity: string; message: string }[]
			).filter((i) => i.code === 'https_required');
			expect(lint).toMatchObject([{ severity: 'error' }]);
			expect(lint[0].message).toContain(title);
			const before = upstream.connections();
			const answer = await call(admin, body);
			expect(answer.status).toBe(400);
			expect(answer.body.error).toEqual({ code: 'https_required', message: lint[0].message });
			expect(upstream.connections()).toBe(before);
			const audit = await admin.json('/api/audit?action=test_call&limit=1');
			expect(audit.body.entries![0]).toMatchObject({
				target: service,
				details: { refused: 'https_required' }
			});
		}
	);

	it('refuses an https-only service of a saved profile whose URL is http:', async () => {
		const document = profileDocument({ password: 'plain-http-Secret' });
		document.services.externalAuth = { externalAuthUrl: `${upstream.url}/p?pw=%password%` };
		const id = await createProfile(admin, 'Plain http auth', document);
		const before = upstream.connections();
		const answer = await call(admin, {
			profileId: id,
			service: 'externalAuth',
			scenario: 'Text message'
		});
		expect(answer.status).toBe(400);
		expect(answer.body.error!.code).toBe('https_required');
		expect(upstream.connections()).toBe(before);
	});

	it('refuses viewers, and names the field of a bad body', async () => {
		const viewer = await createUser(admin, 'viewer', 'calls-viewer@example.test');
		const refused = await call(viewer.client, { service: 'sendMessage', settings: {} });
		expect(refused.status).toBe(403);
		const bad = await call(admin, { service: 'nope', settings: {} });
		expect(bad.status).toBe(400);
		expect(bad.body.error!.message).toContain('service');
	});
});

/** A client reaching the app through a TLS-terminating proxy that passes the scheme on. */
class ProxiedClient extends Client {
	constructor(
		server: TestServer,
		readonly scheme: 'http' | 'https'
	) {
		super(server);
	}

	override fetch(pathname: string, init: ClientRequest = {}): Promise<Response> {
		const headers = new Headers(init.headers);
		headers.set('x-forwarded-proto', this.scheme);
		headers.set('origin', `${this.scheme}://${new URL(this.server.url).host}`);
		return super.fetch(pathname, { ...init, headers });
	}
}

describe('echo sinks where the app is served over https', () => {
	let proxied: TestServer;
	let secureClient: ProxiedClient;
	let plainClient: ProxiedClient;
	let key: string;

	beforeAll(async () => {
		proxied = await startServer({ env: { ...ADMIN_ENV, ...TEST_ENV, TRUST_PROXY: '1' } });
		secureClient = new ProxiedClient(proxied, 'https');
		expect((await secureClient.login(ADMIN.email, ADMIN.password)).status).toBe(200);
		plainClient = new ProxiedClient(proxied, 'http');
		plainClient.session = secureClient.session;
		const made = await secureClient.json<{ sink: { key: string } }>('/api/sinks', {
			method: 'POST',
			json: { name: 'Behind TLS' }
		});
		expect(made.status).toBe(201);
		key = made.body.sink.key;
	});

	it('gives the sink an https: address, and an https-only service reaches it', async () => {
		const host = new URL(proxied.url).host;
		const page = (await (await secureClient.fetch(`/sinks/${key}`)).text()).replace(/\s+/g, ' ');
		expect(page).toContain(`https://${host}/sink/${key}/`);
		expect(page).toContain('those that accept only https: URLs');
		const answer = await secureClient.json<CallAnswer>('/api/test-calls', {
			method: 'POST',
			json: {
				service: 'externalAuth',
				settings: { externalAuthUrl: `https://${host}/sink/${key}/a` }
			}
		});
		expect(answer.status).toBe(200);
		expect(one(answer).response).toMatchObject({ status: 200, via: 'sink' });
	});

	it('says over plain http that https-only services cannot be tried against the sink', async () => {
		const host = new URL(proxied.url).host;
		const page = (await (await plainClient.fetch(`/sinks/${key}`)).text()).replace(/\s+/g, ' ');
		expect(page).toContain(`http://${host}/sink/${key}/`);
		expect(page).toContain('cannot be tried against this sink');
		expect(page).toContain('External Authentication and External provisioning on SSO');
		const answer = await plainClient.json<CallAnswer>('/api/test-calls', {
			method: 'POST',
			json: {
				service: 'externalAuth',
				settings: { externalAuthUrl: `http://${host}/sink/${key}/a` }
			}
		});
		expect(answer.status).toBe(400);
		expect(answer.body.error!.code).toBe('https_required');
	});
});
