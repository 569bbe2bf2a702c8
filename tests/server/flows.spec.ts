import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileDocument } from '../../src/lib/core/profile';
import type { FlowRunSummary, FlowRunView } from '../../src/lib/server/flows';
import { createProfile, createUser, serverWithAdmin, type TestUser } from '../helpers/fixtures';
import { Client, freePort, stopAllServers, type TestServer } from '../helpers/server';
import { startUpstream, TEST_CERTIFICATE, type Upstream } from '../helpers/upstream';

/** A step's reason as its decision's sentence names it: in parentheses, its own full stop dropped. */
const reason = (message: string) => `(${message.replace(/\.$/, '')})`;

/**
 * Flows over HTTP through the real built server: every row of the States table and of the
 * Events table, against real local upstreams (HTTPS for the services that accept only https:)
 * and the app's own echo sinks. Time limits are short so an unanswered step ends fast.
 */

interface Answer extends Partial<FlowRunView> {
	error?: { code: string; message: string };
	missing?: { name: string; service: string | null }[];
	runs?: FlowRunSummary[];
	run?: FlowRunSummary & { record: { steps: FlowRunView['steps'] } };
	sink?: { key: string; path: string };
}

const TEST_ENV = {
	OUTBOUND_ALLOW: '127.0.0.1/32',
	OUTBOUND_PORTS: '1024-65535',
	OUTBOUND_HEADERS_TIMEOUT_MS: '1000',
	OUTBOUND_TOTAL_TIMEOUT_MS: '3000',
	NODE_EXTRA_CA_CERTS: TEST_CERTIFICATE
};

const JSON_TYPE = { 'content-type': 'application/json' };
const XML_TYPE = { 'content-type': 'application/xml' };

let admin: Client;
let server: TestServer;
let plain: Upstream;
let secure: Upstream;
let editor: TestUser;
let viewer: TestUser;

beforeAll(async () => {
	({ admin, server } = await serverWithAdmin(TEST_ENV));
	plain = await startUpstream();
	secure = await startUpstream({ tls: true });
	editor = await createUser(admin, 'editor', 'flow-editor@example.test');
	viewer = await createUser(admin, 'viewer', 'flow-viewer@example.test');
});

afterAll(async () => {
	await plain.stop();
	await secure.stop();
	await stopAllServers();
});

function document(services: ProfileDocument['services']): ProfileDocument {
	return {
		version: 1,
		services,
		push: { gatewayUrl: '', appId: '', target: 'unknown' },
		scenarios: [],
		rawSubstitution: false,
		preservedXml: []
	};
}

function registrationDocument(): ProfileDocument {
	return document({
		phoneNumberVerifier: {
			phoneNumberVerifierUrl: `${plain.url}/verify`,
			phoneNumberVerifierPostData: 'number=%phoneNumber%'
		},
		extSSOProv: {
			extSSOProvUrl: `${secure.url}/provision`,
			extSSOProvPostData:
				'user=%account[cloud_username]%&pin=%account[cloud_password]%&token=%token%&legacy=%username%'
		}
	});
}

const WIZARD = { phoneNumber: '+14155550123', pin: '4711' };

function run(client: Client, flow: string, body: object) {
	return client.json<Answer>(`/api/flows/${flow}`, { method: 'POST', json: body });
}

describe('registration wizard (States table)', () => {
	let profileId: string;

	beforeAll(async () => {
		profileId = await createProfile(admin, 'Wizard', registrationDocument());
	});

	it('row 1 and row 3: a 2xx body becomes placeholders, the PIN goes out as cloud_password', async () => {
		const before = { plain: plain.requests.length, secure: secure.requests.length };
		plain.answerNext({ status: 200, headers: JSON_TYPE, body: '{"token":"t-42"}' });
		secure.answerNext({
			status: 200,
			headers: XML_TYPE,
			body: '<account><username>sip-9</username></account>'
		});
		const answer = await run(editor.client, 'registration', { profileId, values: WIZARD });
		expect(answer.status).toBe(200);
		expect(answer.body.ok).toBe(true);
		const steps = answer.body.steps!;
		expect(steps.map((s) => [s.service, s.contractRow.id, s.decision.status])).toEqual([
			['phoneNumberVerifier', 'wizardVerified', 'ok'],
			['extSSOProv', 'wizardPin', 'ok']
		]);
		expect(steps[0].contractRow.table).toBe('States and transitions');
		// As sent, and as received.
		expect(plain.requests[before.plain].body).toBe('number=%2B14155550123');
		expect(secure.requests[before.secure].body).toBe(
			'user=%2B14155550123&pin=4711&token=t-42&legacy=%2B14155550123'
		);
		expect(steps[0].request).toMatchObject({ method: 'POST', url: `${plain.url}/verify` });
		expect(steps[0].response).toMatchObject({ status: 200, body: '{"token":"t-42"}' });
		// The PIN is a password: masked in what is answered and kept.
		expect(steps[1].request!.body).not.toContain('4711');
		expect(steps[1].filled['account[cloud_password]']).not.toBe('4711');
		expect(steps[1].filled.token).toBe('t-42');
		expect(answer.body.result).toEqual({
			wizard: { page: 2, provisioned: true, messageBox: null, placeholders: { token: 't-42' } }
		});
		// Nowhere in what is answered or kept (timings aside, which are numbers).
		const shown = (steps: FlowRunView['steps']) =>
			JSON.stringify(steps.map((s) => ({ ...s, response: { ...s.response, timings: null } })));
		expect(shown(steps)).not.toContain('4711');
		const kept = await editor.client.json<Answer>(
			`/api/profiles/${profileId}/flows/${answer.body.id}`
		);
		expect(kept.body.run!.record.steps).toHaveLength(2);
		expect(shown(kept.body.run!.record.steps)).not.toContain('4711');
	});

	it('row 1 with an absent body: page 2 without placeholders', async () => {
		plain.answerNext({ status: 204 });
		secure.answerNext({ status: 200 });
		const answer = await run(editor.client, 'registration', { profileId, values: WIZARD });
		expect(answer.body.steps!.map((s) => s.decision.status)).toEqual(['ok', 'ok']);
		expect(answer.body.result).toMatchObject({ wizard: { page: 2, placeholders: {} } });
	});

	it('row 1 not met: a 2xx body that is not valid keeps the wizard on page 1', async () => {
		const before = secure.requests.length;
		plain.answerNext({ status: 200, headers: JSON_TYPE, body: '["not", "a", "map"]' });
		const answer = await run(editor.client, 'registration', { profileId, values: WIZARD });
		expect(answer.body.ok).toBe(false);
		expect(answer.body.steps).toHaveLength(1);
		expect(answer.body.steps![0]).toMatchObject({
			contractRow: { id: 'wizardVerified' },
			decision: { status: 'failed' }
		});
		expect(secure.requests.length).toBe(before);
	});

	it('row 2: a non-2xx keeps page 1 and shows message in a message box', async () => {
		const before = secure.requests.length;
		plain.answerNext({ status: 500, headers: JSON_TYPE, body: '{"message":"Try later"}' });
		const answer = await run(editor.client, 'registration', { profileId, values: WIZARD });
		expect(answer.body.ok).toBe(false);
		const [page1] = answer.body.steps!;
		expect(page1.contractRow.id).toBe('wizardRejected');
		expect(page1.decision.text).toBe(
			'The verifier answered 500; the wizard stays on page 1 and shows in a message box: “Try later”.'
		);
		expect(answer.body.result).toMatchObject({ wizard: { page: 1, messageBox: 'Try later' } });
		expect(secure.requests.length).toBe(before);
	});

	it('row 2 without message: the first 100 characters of the raw body', async () => {
		plain.answerNext({ status: 422, body: 'n'.repeat(130) });
		const answer = await run(editor.client, 'registration', { profileId, values: WIZARD });
		expect(answer.body.steps![0].decision.shownToUser).toBe('n'.repeat(100));
	});

	it('row 3 with a provisioning answer that is not an account document: does not continue', async () => {
		plain.answerNext({ status: 200 });
		secure.answerNext({ status: 403, body: 'nope' });
		const answer = await run(editor.client, 'registration', { profileId, values: WIZARD });
		expect(answer.body.ok).toBe(false);
		expect(answer.body.steps![1]).toMatchObject({
			contractRow: { id: 'wizardPin' },
			decision: { status: 'failed' },
			response: { status: 403 }
		});
	});

	it('runs from a provider’s CI with an API token, and the run is listed', async () => {
		const created = await editor.client.json<{ token: string }>('/api/tokens', {
			method: 'POST',
			json: { name: 'ci' }
		});
		expect(created.status).toBe(201);
		const ci = new Client(server, created.body.token);
		plain.answerNext({ status: 200 });
		secure.answerNext({ status: 200 });
		const answer = await run(ci, 'registration', { profileId, values: WIZARD });
		expect(answer.status).toBe(200);
		expect(answer.body.ok).toBe(true);
		const listed = await ci.json<Answer>(`/api/profiles/${profileId}/flows`);
		expect(listed.body.runs![0]).toMatchObject({ id: answer.body.id, by: editor.email, ok: true });
	});

	it('an unsaved document runs the same way, and the PIN is asked for when missing', async () => {
		const missing = await run(editor.client, 'registration', {
			document: registrationDocument(),
			values: { phoneNumber: '+14155550123' }
		});
		expect(missing.status).toBe(400);
		expect(missing.body.error!.code).toBe('missing_values');
		expect(missing.body.error!.message).toContain('pin');
		plain.answerNext({ status: 200 });
		secure.answerNext({ status: 200 });
		const answer = await run(editor.client, 'registration', {
			document: registrationDocument(),
			values: WIZARD
		});
		expect(answer.body.ok).toBe(true);
	});

	it('a refused connection ends the flow with that step failed and the reason', async () => {
		const port = await freePort();
		const doc = registrationDocument();
		doc.services.phoneNumberVerifier = { phoneNumberVerifierUrl: `http://127.0.0.1:${port}/v` };
		const answer = await run(editor.client, 'registration', { document: doc, values: WIZARD });
		expect(answer.status).toBe(200);
		expect(answer.body.ok).toBe(false);
		expect(answer.body.steps).toHaveLength(1);
		expect(answer.body.steps![0].error).toMatchObject({ code: 'connect_refused' });
		expect(answer.body.steps![0].decision.text).toContain('The wizard stays on page 1');
	});

	it('a verifier the outbound policy refuses ends page 1 failed with the reason', async () => {
		const doc = registrationDocument();
		doc.services.phoneNumberVerifier = {
			phoneNumberVerifierUrl: 'http://169.254.169.254/latest/meta-data'
		};
		const answer = await run(editor.client, 'registration', { document: doc, values: WIZARD });
		expect(answer.status).toBe(200);
		expect(answer.body.ok).toBe(false);
		expect(answer.body.steps).toHaveLength(1);
		expect(answer.body.steps![0]).toMatchObject({
			contractRow: { id: 'wizardRejected' },
			decision: { status: 'failed' },
			error: { code: 'blocked_address' },
			response: null
		});
		expect(answer.body.steps![0].decision.text).toContain(
			reason(answer.body.steps![0].error!.message)
		);
		expect(answer.body.result).toMatchObject({ wizard: { page: 1 } });
	});

	it('a silent target times out within the limits and ends the flow', async () => {
		plain.answerNext({ status: 200 });
		secure.answerNext(() => {
			// never answers
		});
		const answer = await run(editor.client, 'registration', { profileId, values: WIZARD });
		expect(answer.body.ok).toBe(false);
		expect(answer.body.steps![1].error!.code).toMatch(/timeout/);
		expect(answer.body.steps![1].decision.status).toBe('failed');
	});

	it('keeps refused and timed-out runs, listed with the step that failed and why', async () => {
		// Revision 1 sends page 1 to a port nothing listens on; revision 2 to a verifier that
		// answers, and page 2 to an upstream that never does.
		const refusing = registrationDocument();
		refusing.services.phoneNumberVerifier = {
			phoneNumberVerifierUrl: `http://127.0.0.1:${await freePort()}/verify`
		};
		const id = await createProfile(admin, 'Unreachable wizard', refusing);
		const refused = await run(editor.client, 'registration', { profileId: id, values: WIZARD });
		expect(refused.status).toBe(200);
		const saved = await editor.client.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: { baseRevision: 1, document: registrationDocument() }
		});
		expect(saved.status, saved.text).toBe(200);
		plain.answerNext({ status: 200 });
		secure.answerNext(() => {
			// never answers
		});
		const timedOut = await run(editor.client, 'registration', { profileId: id, values: WIZARD });
		expect(timedOut.status).toBe(200);

		const listed = await viewer.client.json<Answer>(`/api/profiles/${id}/flows`);
		expect(listed.status).toBe(200);
		expect(
			listed.body.runs!.map((r) => ({ id: r.id, flow: r.flow, ok: r.ok, by: r.by, steps: r.steps }))
		).toEqual([
			{
				id: timedOut.body.id,
				flow: 'registration',
				ok: false,
				by: editor.email,
				steps: [
					{ service: 'phoneNumberVerifier', status: 'ok' },
					{ service: 'extSSOProv', status: 'failed' }
				]
			},
			{
				id: refused.body.id,
				flow: 'registration',
				ok: false,
				by: editor.email,
				steps: [{ service: 'phoneNumberVerifier', status: 'failed' }]
			}
		]);

		const kept = async (runId: number) => {
			const one = await viewer.client.json<Answer>(`/api/profiles/${id}/flows/${runId}`);
			expect(one.status).toBe(200);
			return one.body.run!.record.steps.at(-1)!;
		};
		const refusedStep = await kept(refused.body.id!);
		expect(refusedStep).toMatchObject({
			service: 'phoneNumberVerifier',
			contractRow: { id: 'wizardRejected' },
			decision: { status: 'failed' },
			error: { code: 'connect_refused' },
			response: null
		});
		expect(refusedStep.decision.text).toContain('The verifier was not reached');
		expect(refusedStep.decision.text).toContain(reason(refusedStep.error!.message));
		const timedOutStep = await kept(timedOut.body.id!);
		expect(timedOutStep).toMatchObject({
			service: 'extSSOProv',
			contractRow: { id: 'wizardPin' },
			decision: { status: 'failed' },
			response: null
		});
		expect(timedOutStep.error!.code).toMatch(/timeout/);
		expect(timedOutStep.decision.text).toContain('The external provisioning call failed');
		expect(timedOutStep.decision.text).toContain(reason(timedOutStep.error!.message));
		// Kept as answered.
		expect(refusedStep).toEqual(refused.body.steps!.at(-1));
		expect(timedOutStep).toEqual(timedOut.body.steps!.at(-1));
	});

	it('keeps the runs: viewers list them, with who ran them; viewers cannot run', async () => {
		const denied = await run(viewer.client, 'registration', { profileId, values: WIZARD });
		expect(denied.status).toBe(403);
		const listed = await viewer.client.json<Answer>(`/api/profiles/${profileId}/flows`);
		expect(listed.status).toBe(200);
		const runs = listed.body.runs!;
		expect(runs.length).toBeGreaterThanOrEqual(6);
		expect(runs[0]).toMatchObject({ flow: 'registration', by: editor.email });
		expect(runs.every((r, i) => i === 0 || r.id < runs[i - 1].id)).toBe(true);
		const one = await viewer.client.json<Answer>(`/api/profiles/${profileId}/flows/${runs[0].id}`);
		expect(one.body.run!.record.steps.length).toBe(runs[0].steps.length);
		const other = await viewer.client.json<Answer>(`/api/profiles/${profileId}/flows/999999`);
		expect(other.status).toBe(404);
	});
});

describe('SSO sign-in', () => {
	const DEVICE = {
		'account[cloud_username]': 'dev-user',
		'account[cloud_password]': 'dev-secret',
		cloud_id: 'cloud-7'
	};

	function ssoDocument(authUrl = `${secure.url}/auth`): ProfileDocument {
		return document({
			extSSOProv: { extSSOProvUrl: `${secure.url}/sso?u=%account[cloud_username]%` },
			externalAuth: { externalAuthUrl: `${authUrl}?u=%username%&p=%password%` }
		});
	}

	it('the account document’s username fills %username%, then the numbers are parsed', async () => {
		const before = secure.requests.length;
		secure.answerNext({
			status: 200,
			headers: XML_TYPE,
			body: '<account><username>sip-1</username><password>doc-secret-9</password></account>'
		});
		secure.answerNext({
			status: 200,
			headers: JSON_TYPE,
			body: '{"phoneNumbers":["+14155550123"],"uri":"sip:a@example.com"}'
		});
		const answer = await run(editor.client, 'sso', { document: ssoDocument(), values: DEVICE });
		expect(answer.body.ok).toBe(true);
		expect(secure.requests[before + 1].url).toBe('/auth?u=sip-1&p=doc-secret-9');
		expect(answer.body.steps!.map((s) => s.contractRow.id)).toEqual([
			'ssoLegacyCredentials',
			'ssoAuthenticated'
		]);
		expect(answer.body.result).toMatchObject({
			sso: {
				authentication: {
					numbers: ['+14155550123'],
					uri: 'sip:a@example.com',
					networkId: 'cloud-7',
					networkIdDefaulted: true
				},
				impaired: []
			}
		});
		// The device password and the one the account document answered are masked throughout.
		expect(JSON.stringify(answer.body)).not.toContain('dev-secret');
		expect(JSON.stringify(answer.body)).not.toContain('doc-secret-9');
		expect(answer.body.steps![0].response!.body).toContain('<username>sip-1</username>');
	});

	it('an http: External Authentication URL is not called, and what stops working is said', async () => {
		const before = plain.requests.length;
		secure.answerNext({ status: 200 });
		const answer = await run(editor.client, 'sso', {
			document: ssoDocument(`${plain.url}/auth`),
			values: DEVICE
		});
		expect(plain.requests.length).toBe(before);
		expect(answer.body.steps![1]).toMatchObject({
			contractRow: { id: 'ssoHttpsOnly' },
			error: { code: 'https_required' },
			request: null
		});
		expect(answer.body.result).toMatchObject({
			sso: { impaired: ['contact sync', 'smart contact resolution'] }
		});
	});

	it('the skip flag: no external provisioning call, the device credentials fill %username% and %password%', async () => {
		const before = secure.requests.length;
		secure.answerNext({
			status: 200,
			headers: XML_TYPE,
			body: '<response><phone-numbers><phone-number>+14155550123</phone-number></phone-numbers><networkId>net-9</networkId></response>'
		});
		const doc = ssoDocument();
		doc.services.extSSOProv = {
			...doc.services.extSSOProv,
			externalProvisioningOnSSODisabled: '1'
		};
		const answer = await run(editor.client, 'sso', { document: doc, values: DEVICE });
		expect(secure.requests.slice(before).map((r) => r.url)).toEqual([
			'/auth?u=dev-user&p=dev-secret'
		]);
		expect(answer.body.steps!.map((s) => [s.contractRow.id, s.decision.status])).toEqual([
			['ssoProvisioningSkipped', 'skipped'],
			['ssoAuthenticated', 'ok']
		]);
		expect(answer.body.steps![0].request).toBeNull();
		expect(answer.body.result).toMatchObject({
			sso: {
				credentials: [
					{ placeholder: 'username', source: 'device' },
					{ placeholder: 'password', source: 'device' }
				],
				// uri defaults to the SIP account username; networkId is the one answered.
				authentication: {
					numbers: ['+14155550123'],
					uri: 'dev-user',
					uriDefaulted: true,
					networkId: 'net-9',
					networkIdDefaulted: false
				}
			}
		});
	});

	it('no external provisioning URL: the simple flow', async () => {
		secure.answerNext({ status: 200, headers: JSON_TYPE, body: '{"phoneNumbers":[]}' });
		const answer = await run(editor.client, 'sso', {
			document: document({
				externalAuth: { externalAuthUrl: `${secure.url}/auth?u=%username%` }
			}),
			values: DEVICE
		});
		expect(answer.body.steps!.map((s) => [s.contractRow.id, s.decision.status])).toEqual([
			['ssoSimpleFlow', 'skipped'],
			['ssoAuthenticated', 'ok']
		]);
	});

	it('URL by priority: the reprovisioning URL before the initial one; an answer that is not an account document is ignored', async () => {
		const before = secure.requests.length;
		secure.answerNext({ status: 404, body: 'no such account' });
		secure.answerNext({
			status: 200,
			headers: JSON_TYPE,
			body: '{"phoneNumbers":["+14155550123"]}'
		});
		const answer = await run(editor.client, 'sso', {
			document: document({
				extSSOProv: {
					reprovisioningUrl: `${secure.url}/re?u=%account[cloud_username]%`,
					initialProvisioningUrl: `${secure.url}/initial`
				},
				externalAuth: { externalAuthUrl: `${secure.url}/auth?u=%username%` }
			}),
			values: DEVICE
		});
		expect(secure.requests.slice(before).map((r) => r.url)).toEqual([
			'/re?u=dev-user',
			'/auth?u=dev-user'
		]);
		expect(answer.body.steps!.map((s) => [s.contractRow.id, s.decision.status])).toEqual([
			['ssoProvisioningUrl', 'ignored'],
			['ssoAuthenticated', 'ok']
		]);
		expect(answer.body.ok).toBe(true);
	});

	it('External Authentication answering non-2xx is silently ignored; contact sync and smart contacts are impaired', async () => {
		secure.answerNext({ status: 200, headers: XML_TYPE, body: '<account></account>' });
		secure.answerNext({ status: 400, headers: JSON_TYPE, body: '{"message":"Wrong password"}' });
		const answer = await run(editor.client, 'sso', { document: ssoDocument(), values: DEVICE });
		expect(answer.body.ok).toBe(false);
		expect(answer.body.steps![1]).toMatchObject({
			contractRow: { id: 'ssoFailed' },
			decision: { status: 'ignored', shownToUser: null },
			response: { status: 400 }
		});
		expect(answer.body.steps![1].decision.text).toContain(
			'contact sync and smart contact resolution are impaired'
		);
		expect(answer.body.result).toMatchObject({
			sso: { authentication: null, impaired: ['contact sync', 'smart contact resolution'] }
		});
	});

	it('an unreachable External Authentication ends the step failed with the reason', async () => {
		secure.answerNext({ status: 200 });
		const port = await freePort();
		const answer = await run(editor.client, 'sso', {
			document: ssoDocument(`https://127.0.0.1:${port}/auth`),
			values: DEVICE
		});
		expect(answer.status).toBe(200);
		expect(answer.body.ok).toBe(false);
		expect(answer.body.steps![1]).toMatchObject({
			contractRow: { id: 'ssoFailed' },
			decision: { status: 'failed' },
			error: { code: 'connect_refused' }
		});
		expect(answer.body.steps![1].decision.text).toContain('no answer came');
	});

	it('a target the outbound policy refuses ends the step failed with the reason; nothing is sent', async () => {
		const before = secure.requests.length;
		const answer = await run(editor.client, 'sso', {
			document: document({
				extSSOProv: { extSSOProvUrl: 'https://169.254.169.254/latest/meta-data' },
				externalAuth: { externalAuthUrl: `${secure.url}/auth` }
			}),
			values: DEVICE
		});
		expect(answer.status).toBe(200);
		expect(answer.body.ok).toBe(false);
		expect(answer.body.steps).toHaveLength(1);
		const [refused] = answer.body.steps!;
		expect(refused.error).toMatchObject({ code: 'blocked_address' });
		expect(refused.decision.status).toBe('failed');
		expect(refused.decision.text).toContain(reason(refused.error!.message));
		expect(refused.decision.text).toContain('Sign-in stops here.');
		expect(secure.requests.length).toBe(before);
	});

	it('asks for the device credentials', async () => {
		const answer = await run(editor.client, 'sso', { document: ssoDocument(), values: {} });
		expect(answer.status).toBe(400);
		expect(answer.body.missing!.map((m) => m.name)).toEqual([
			'account[cloud_username]',
			'account[cloud_password]'
		]);
	});
});

describe('contacts server (Events table)', () => {
	const EVENTS = {
		invitee: '+14155550123',
		invitor: 'alice',
		network_id: 'net-1',
		new_smart_number: '+14155550124',
		new_smart_uri: 'sip:bob@example.com',
		interestedParties: [{ username: 'alice', device: 'phone' }]
	};

	function contactsDocument(inviteUrl: string, smartUrl: string): ProfileDocument {
		return document({
			invitationAccepted: {
				invitationAcceptedUrl: inviteUrl,
				invitationAcceptedPostData: '{"invitee":"%invitee%","invitor":"%invitor%"}',
				invitationAcceptedContentType: 'application/json'
			},
			smartContactNotification: {
				smartContactNotificationUrl: smartUrl,
				smartContactNotificationPostData:
					'{"newSmartNumber":"%new_smart_number%","interestedParties":%interestedParties%}',
				smartContactNotificationContentType: 'application/json'
			}
		});
	}

	async function sink(status: number): Promise<string> {
		const made = await admin.json<Answer>('/api/sinks', {
			method: 'POST',
			json: { name: `Answers ${status}`, answer: { status, contentType: '', body: '' } }
		});
		return `${server.url}${made.body.sink!.path}`;
	}

	it('Invitation accepted and New smart contact: 204 from echo sinks is success', async () => {
		const ok = await sink(204);
		const answer = await run(editor.client, 'contacts', {
			document: contactsDocument(`${ok}invite`, `${ok}smart`),
			values: EVENTS
		});
		expect(answer.body.ok).toBe(true);
		expect(answer.body.steps!.map((s) => [s.contractRow.id, s.contractRow.table])).toEqual([
			['invitationAccepted', 'Events'],
			['newSmartContact', 'Events']
		]);
		expect(answer.body.steps![1].request!.body).toBe(
			'{"newSmartNumber":"+14155550124","interestedParties":[{"username":"alice","device":"phone"}]}'
		);
		expect(answer.body.steps![0].response).toMatchObject({ status: 204, via: 'sink' });
	});

	it('anything but 204 is silently ignored for each event, shown as such', async () => {
		const before = plain.requests.length;
		plain.answerNext({ status: 200 });
		plain.answerNext({ status: 500 });
		const answer = await run(editor.client, 'contacts', {
			document: contactsDocument(`${plain.url}/invite`, `${plain.url}/smart`),
			values: EVENTS
		});
		expect(plain.requests.length).toBe(before + 2);
		expect(answer.body.ok).toBe(false);
		expect(
			answer.body.steps!.map((s) => [s.contractRow.id, s.decision.status, s.decision.shownToUser])
		).toEqual([
			['contactsIgnored', 'ignored', null],
			['contactsIgnored', 'ignored', null]
		]);
		expect(answer.body.steps![0].decision.text).toContain('silently ignores');
	});

	it('asks for the payload values the templates use', async () => {
		const ok = await sink(204);
		const answer = await run(editor.client, 'contacts', {
			document: contactsDocument(`${ok}invite`, `${ok}smart`),
			values: { invitee: '+1555' }
		});
		expect(answer.status).toBe(400);
		expect(answer.body.missing).toContainEqual({ service: 'invitationAccepted', name: 'invitor' });
	});
});

describe('Send Message to several recipients', () => {
	it('one call per recipient, each outcome, the sms_ids collected', async () => {
		const before = plain.requests.length;
		plain.answerNext({ status: 200, headers: JSON_TYPE, body: '{"sms_id":"id-1"}' });
		plain.answerNext({ status: 406, headers: JSON_TYPE, body: '{"message":"Invalid recipient"}' });
		plain.answerNext({ status: 200, headers: JSON_TYPE, body: '{"sms_id":"id-3"}' });
		const answer = await run(editor.client, 'send-message', {
			document: document({
				sendMessage: { genericSmsSendUrl: `${plain.url}/send?to=%sms_to%&b=%sms_body%` }
			}),
			values: { sms_to: ['+1555', '+1666', '+1777'], sms_body: 'hi' }
		});
		expect(plain.requests.slice(before).map((r) => r.url)).toEqual([
			'/send?to=%2B1555&b=hi',
			'/send?to=%2B1666&b=hi',
			'/send?to=%2B1777&b=hi'
		]);
		expect(answer.body.result).toEqual({ smsIds: ['id-1', 'id-3'] });
		expect(answer.body.steps![1].decision).toMatchObject({
			status: 'failed',
			shownToUser: 'Invalid recipient'
		});
		expect(answer.body.steps![1].contractRow.id).toBe('sendFailed');
	});

	it('lacking its inputs, answers 400 missing_values naming each, and sends and keeps nothing', async () => {
		const id = await createProfile(
			admin,
			'Send without values',
			document({
				sendMessage: {
					genericSmsSendUrl: `${plain.url}/send?to=%sms_to%&b=%sms_body%&u=%account[username]%`
				}
			})
		);
		const before = plain.requests.length;
		const answer = await run(editor.client, 'send-message', {
			profileId: id,
			values: { sms_to: [], sms_body: '  ' }
		});
		expect(answer.status).toBe(400);
		expect(answer.body.error!.code).toBe('missing_values');
		expect(answer.body.missing).toEqual([
			{ name: 'sms_to', service: null },
			{ name: 'sms_body', service: null },
			{ name: 'account[username]', service: 'sendMessage' }
		]);
		const message = answer.body.error!.message;
		expect(message).toMatch(/^Send Message to several recipients needs values for: /);
		for (const name of ['sms_to', 'sms_body', '%account[username]%']) {
			expect(message).toContain(name);
		}
		expect(plain.requests.length).toBe(before);
		const listed = await viewer.client.json<Answer>(`/api/profiles/${id}/flows`);
		expect(listed.body.runs).toEqual([]);
	});

	it('an unknown flow is a 404', async () => {
		const answer = await run(editor.client, 'nope', { document: document({}), values: {} });
		expect(answer.status).toBe(404);
	});
});

describe('app start', () => {
	const START = {
		selector: '0123456789abcdef0123456789abcdef01234567:acct',
		pushToken: 'dG9rZW4tYQ==',
		pushappid: 'com.provider.app',
		message: 'Hello from the flow'
	};

	function startDocument(): ProfileDocument {
		return document({
			pushTokenReporter: {
				pushTokenReporterUrl: `${plain.url}/token?s=%selector%&t=%pushToken%&a=%pushappid%`
			}
		});
	}

	async function sandbox(settings: object = {}): Promise<{ id: string }> {
		const made = await editor.client.json<{ sandbox: { id: string } }>('/api/sandboxes', {
			method: 'POST',
			json: { name: 'Flow device', ...settings }
		});
		expect(made.status).toBe(201);
		return made.body.sandbox;
	}

	it('reports the token, then a NotifyTextMessage reaches the sandbox for that token and selector', async () => {
		const box = await sandbox();
		plain.answerNext({ status: 200 });
		const answer = await run(editor.client, 'app-start', {
			document: startDocument(),
			values: START,
			sandboxId: box.id
		});
		expect(answer.body.ok).toBe(true);
		expect(answer.body.steps!.map((s) => [s.service, s.contractRow.id])).toEqual([
			['pushTokenReporter', 'pushTokenReported'],
			['pushSend', 'incomingMessagePush']
		]);
		const pushes = await viewer.client.json<{ pushes: { body: string }[] }>(
			`/api/sandboxes/${box.id}/pushes`
		);
		expect(pushes.body.pushes).toHaveLength(1);
		expect(JSON.stringify(pushes.body.pushes[0])).toContain(START.selector);
		expect(JSON.stringify(pushes.body.pushes[0])).toContain('Hello from the flow');
	});

	it('on platform A 13+: a first report with a null pushTokenOther, then one with the value, then the push', async () => {
		const box = await sandbox();
		const before = plain.requests.length;
		plain.answerNext({ status: 200 });
		plain.answerNext({ status: 200 });
		const other = 'b3RoZXI+dG9rZW4=';
		const answer = await run(editor.client, 'app-start', {
			document: document({
				pushTokenReporter: {
					pushTokenReporterUrl: `${plain.url}/token?s=%selector%&t=%pushToken%`,
					pushTokenReporterPostData: 'other=%pushTokenOther%&a=%pushappid%',
					pushTokenReporterContentType: 'application/x-www-form-urlencoded'
				}
			}),
			values: { ...START, pushTokenOther: other, platform: 'platformA13' },
			sandboxId: box.id
		});
		expect(answer.status, answer.text).toBe(200);
		expect(answer.body.ok).toBe(true);
		// What the provider's server received, in order: first without the value, then with it.
		const url = '/token?s=0123456789abcdef0123456789abcdef01234567%3Aacct&t=dG9rZW4tYQ%3D%3D';
		expect(plain.requests.slice(before).map((r) => [r.method, r.url, r.body])).toEqual([
			['POST', url, 'other=&a=com.provider.app'],
			['POST', url, 'other=b3RoZXI%2BdG9rZW4%3D&a=com.provider.app']
		]);
		const steps = answer.body.steps!;
		expect(steps.map((s) => [s.service, s.contractRow.id, s.decision.status])).toEqual([
			['pushTokenReporter', 'pushTokenLater', 'ok'],
			['pushTokenReporter', 'pushTokenReported', 'ok'],
			['pushSend', 'incomingMessagePush', 'ok']
		]);
		expect(steps[0].filled).not.toHaveProperty('pushTokenOther');
		expect(steps[0].decision.text).toContain('This first report carries a null pushTokenOther');
		expect(steps[1].filled.pushTokenOther).toBe(other);
		expect(steps.slice(0, 2).map((s) => s.request!.body)).toEqual(
			plain.requests.slice(before).map((r) => r.body)
		);
		const pushes = await viewer.client.json<{ pushes: { body: string }[] }>(
			`/api/sandboxes/${box.id}/pushes`
		);
		expect(pushes.body.pushes).toHaveLength(1);
		expect(JSON.stringify(pushes.body.pushes[0])).toContain(START.pushToken);
	});

	it('a failed report is silently ignored, counts as failed and is made again', async () => {
		const box = await sandbox();
		const before = plain.requests.length;
		plain.answerNext({ status: 500 });
		plain.answerNext({ status: 200 });
		const answer = await run(editor.client, 'app-start', {
			document: startDocument(),
			values: START,
			sandboxId: box.id
		});
		expect(plain.requests.length).toBe(before + 2);
		expect(answer.body.steps!.map((s) => [s.contractRow.id, s.decision.status])).toEqual([
			['pushTokenRetried', 'ignored'],
			['pushTokenReported', 'ok'],
			['incomingMessagePush', 'ok']
		]);
	});

	it('a push the gateway does not accept fails the last step with its verdict', async () => {
		const box = await sandbox({ unregisteredTokens: [START.pushToken] });
		plain.answerNext({ status: 200 });
		const answer = await run(editor.client, 'app-start', {
			document: startDocument(),
			values: START,
			sandboxId: box.id
		});
		expect(answer.body.ok).toBe(false);
		expect(answer.body.steps![1].decision.status).toBe('failed');
		expect(answer.body.steps![1].verdicts!.elements[0].verdict).toBe('stop_sending');
	});

	it('Reprovision push (Events): NotifyReprovision reaches the sandbox for the reported token and selector', async () => {
		const box = await sandbox();
		plain.answerNext({ status: 200 });
		const answer = await run(editor.client, 'app-start', {
			document: startDocument(),
			values: { ...START, push: 'NotifyReprovision' },
			sandboxId: box.id
		});
		expect(answer.body.ok).toBe(true);
		expect(answer.body.steps!.map((s) => [s.contractRow.id, s.contractRow.table])).toEqual([
			['pushTokenReported', 'Events'],
			['reprovisionPush', 'Events']
		]);
		expect(answer.body.steps![1].decision.text).toContain('reloads its configuration');
		expect(answer.body.result).toEqual({
			push: {
				verb: 'NotifyReprovision',
				AppId: START.pushappid,
				DeviceToken: START.pushToken,
				Selector: START.selector
			}
		});
		const pushes = await viewer.client.json<{ pushes: { body: string }[] }>(
			`/api/sandboxes/${box.id}/pushes`
		);
		expect(pushes.body.pushes).toHaveLength(1);
		expect(JSON.stringify(pushes.body.pushes[0])).toContain('NotifyReprovision');
	});

	it('refuses a push it does not send, before anything is sent', async () => {
		const box = await sandbox();
		const before = plain.requests.length;
		const answer = await run(editor.client, 'app-start', {
			document: startDocument(),
			values: { ...START, push: 'NotifyGenericTextMessage' },
			sandboxId: box.id
		});
		expect(answer.status).toBe(400);
		expect(answer.body.error).toMatchObject({ code: 'invalid_input' });
		expect(answer.body.error!.message).toContain('NotifyTextMessage, NotifyReprovision');
		expect(plain.requests.length).toBe(before);
	});

	it('asks for the sandbox', async () => {
		const answer = await run(editor.client, 'app-start', {
			document: startDocument(),
			values: START
		});
		expect(answer.status).toBe(400);
		expect(answer.body.missing).toEqual([{ name: 'sandboxId', service: null }]);
	});
});

describe('runs of an unsaved draft', () => {
	let profileId: string;

	beforeAll(async () => {
		profileId = await createProfile(admin, 'Drafted', registrationDocument());
	});

	it('are kept and listed with the profile they are a draft of, marked as such', async () => {
		const draft = registrationDocument();
		draft.services.phoneNumberVerifier = {
			phoneNumberVerifierUrl: `${plain.url}/verify-draft`,
			phoneNumberVerifierPostData: 'n=%phoneNumber%'
		};
		const before = plain.requests.length;
		plain.answerNext({ status: 500, body: 'draft says no' });
		const drafted = await run(editor.client, 'registration', {
			document: draft,
			draftOf: { profileId, baseRevision: 1 },
			values: WIZARD
		});
		expect(drafted.status).toBe(200);
		expect(plain.requests[before].url).toBe('/verify-draft');
		expect(drafted.body.draft).toEqual({ baseRevision: 1 });
		plain.answerNext({ status: 500, body: 'saved says no' });
		const saved = await run(editor.client, 'registration', { profileId, values: WIZARD });
		expect(saved.body.draft).toBeNull();
		// An unsaved document of no profile is kept apart, never listed.
		plain.answerNext({ status: 500 });
		await run(editor.client, 'registration', { document: draft, values: WIZARD });

		const listed = await viewer.client.json<Answer>(`/api/profiles/${profileId}/flows`);
		expect(listed.body.runs!.map((r) => [r.id, r.draft])).toEqual([
			[saved.body.id, null],
			[drafted.body.id, { baseRevision: 1 }]
		]);
		const one = await viewer.client.json<Answer>(
			`/api/profiles/${profileId}/flows/${drafted.body.id}`
		);
		expect(one.body.run).toMatchObject({ draft: { baseRevision: 1 }, by: editor.email });
		expect(one.body.run!.record.steps[0].request!.url).toBe(`${plain.url}/verify-draft`);
	});

	it('name a profile that exists, and come with the document', async () => {
		const unknown = await run(editor.client, 'registration', {
			document: registrationDocument(),
			draftOf: { profileId: '00000000-0000-4000-8000-000000000000' },
			values: WIZARD
		});
		expect(unknown.status).toBe(404);
		const alone = await run(editor.client, 'registration', {
			profileId,
			draftOf: { profileId },
			values: WIZARD
		});
		expect(alone.status).toBe(400);
		expect(alone.body.error!.code).toBe('invalid_input');
	});
});
