import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileDocument } from '../../src/lib/core/profile';
import type { Interpretation } from '../../src/lib/core/response';
import type { FlowRunView } from '../../src/lib/server/flows';
import { createProfile, serverWithAdmin, servicesDocument } from '../helpers/fixtures';
import { stopAllServers, type Client } from '../helpers/server';
import { startUpstream, type Upstream } from '../helpers/upstream';

/**
 * Initial provisioning through the built server to a real local upstream: each shape of the
 * answer as the app reads it at sign-in, the answer's web-service keys imported into a profile,
 * and the registration wizard's page 2 calling it with the verifier's keys.
 */

let admin: Client;
let upstream: Upstream;

beforeAll(async () => {
	// The test calls may reach only the local upstream's address.
	[upstream, { admin }] = await Promise.all([
		startUpstream(),
		serverWithAdmin({ OUTBOUND_ALLOW: '127.0.0.1/32', OUTBOUND_PORTS: '1024-65535' })
	]);
});

afterAll(async () => {
	await Promise.all([stopAllServers(), upstream.stop()]);
});

const XML = { 'content-type': 'application/xml' };
const ACCOUNT = `<?xml version="1.0"?>
<account>
  <title>Alice at Example</title>
  <username>sip-alice</username>
  <password>sip-s3cret</password>
  <genericSmsFetchUrl>https://sms.example.com/fetch?last=%last_known_sms_id%</genericSmsFetchUrl>
  <genericBalanceCheckUrl>https://billing.example.com/balance</genericBalanceCheckUrl>
</account>`;

function settings(url: string): Record<string, string> {
	return {
		InitialProvisioningUrl: url,
		InitialProvisioningPostData:
			'cloud_id=%fullcode%&cloud_username=%username%&cloud_password=%password%'
	};
}

async function call(answer: { status?: number; headers?: Record<string, string>; body: string }) {
	upstream.answerNext({ status: answer.status ?? 200, headers: answer.headers ?? XML, ...answer });
	const result = await admin.json<{ calls?: { interpretation?: Interpretation }[] }>(
		'/api/test-calls',
		{
			method: 'POST',
			json: {
				service: 'initialProvisioning',
				settings: settings(`${upstream.url}/provision`),
				values: { username: 'alice', password: 'pass word&1', fullcode: 'AcmeCloud' }
			}
		}
	);
	expect(result.status, result.text).toBe(200);
	const interpretation = result.body.calls?.[0].interpretation;
	if (!interpretation) throw new Error(`no interpretation: ${result.text}`);
	return { interpretation, text: result.text };
}

describe('initial provisioning test calls', () => {
	it('sends the sign-in screen’s values and lists what the app merges from <account>', async () => {
		const before = upstream.requests.length;
		const { interpretation, text } = await call({ body: ACCOUNT });
		expect(upstream.requests[before]).toMatchObject({
			method: 'POST',
			url: '/provision',
			body: 'cloud_id=AcmeCloud&cloud_username=alice&cloud_password=pass+word%261'
		});
		expect(interpretation).toMatchObject({
			success: true,
			shownToUser: null,
			summary: 'The app merges 5 settings into its own; the account is “Alice at Example”.'
		});
		if (interpretation.action.kind !== 'provisioningAnswer') throw new Error('not read');
		const { settings: merged, importFragment } = interpretation.action.result;
		expect(merged.map((s) => [s.key, s.line, s.webService])).toEqual([
			['title', 3, false],
			['username', 4, false],
			['password', 5, false],
			['genericSmsFetchUrl', 6, true],
			['genericBalanceCheckUrl', 7, true]
		]);
		expect(importFragment).toContain('<genericBalanceCheckUrl>');
		expect(importFragment).not.toContain('password');
		// The answer's credential is never repeated, not even in the response shown.
		expect(text).not.toContain('sip-s3cret');
	});

	it('names an empty title', async () => {
		const { interpretation } = await call({ body: '<account><title/></account>' });
		expect(interpretation.success).toBe(true);
		expect(interpretation.issues[0]).toMatchObject({
			code: 'account_title_empty',
			severity: 'warning',
			message: expect.stringContaining('<title> (line 1) is empty')
		});
	});

	it('shows a 403’s <message> as the app does, and the generic error without one', async () => {
		const denied = await call({ status: 403, body: '<message>Wrong PIN</message>' });
		expect(denied.interpretation).toMatchObject({
			success: false,
			shownToUser: 'Wrong PIN',
			summary: 'Provisioning stops; the app shows “Wrong PIN”.'
		});
		const bare = await call({ status: 500, headers: {}, body: '' });
		expect(bare.interpretation.shownToUser).toBe('(the app’s generic error message)');
	});

	it.each([
		[
			'an HTML page',
			{ 'content-type': 'text/html' },
			'<!DOCTYPE html><html><head><title>Proxy login</title></head></html>',
			'answer_html',
			'The answer is an HTML page, not an account document: provisioning stops with the app’s generic error message.'
		],
		[
			'a DOCTYPE',
			XML,
			'<?xml version="1.0"?>\n<!DOCTYPE account [<!ENTITY x "y">]><account/>',
			'xml_doctype',
			'The answer is not readable XML, not an account document: provisioning stops with the app’s generic error message.'
		],
		[
			'10,000 nesting levels',
			XML,
			`<account>${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</account>`,
			'xml_too_deep',
			'The answer is not readable XML, not an account document: provisioning stops with the app’s generic error message.'
		]
	])('gives %s a verdict with line and column', async (_, headers, body, code, summary) => {
		const { interpretation } = await call({ headers, body });
		expect(interpretation).toMatchObject({ success: false, summary });
		expect(interpretation.issues[0]).toMatchObject({
			code,
			message: expect.stringMatching(/line \d+, column \d+/)
		});
	});

	it('changes nothing stored when the answer is HTML or unreadable XML', async () => {
		const url = `${upstream.url}/provision`;
		const id = await createProfile(
			admin,
			'Bad provisioning answers',
			servicesDocument({ initialProvisioning: settings(url) })
		);
		const before = await admin.json(`/api/profiles/${id}`);
		for (const [type, body] of [
			['text/html', '<html><body><genericSmsFetchUrl>x</genericSmsFetchUrl></body></html>'],
			['application/xml', `<account>${'<a>'.repeat(10_000)}</account>`]
		]) {
			upstream.answerNext({ status: 200, headers: { 'content-type': type }, body });
			const made = await admin.json<{ calls?: { interpretation?: Interpretation }[] }>(
				'/api/test-calls',
				{
					method: 'POST',
					json: {
						service: 'initialProvisioning',
						settings: settings(url),
						values: { username: 'alice', password: 'pw', fullcode: 'AcmeCloud' },
						secretsFrom: { profileId: id }
					}
				}
			);
			expect(made.body.calls?.[0].interpretation?.success).toBe(false);
		}
		const after = await admin.json(`/api/profiles/${id}`);
		expect(after.body).toEqual(before.body);
	});
});

describe('the answer’s web-service keys read into a profile', () => {
	it('imports the fragment as a revision, and a stale import changes nothing', async () => {
		const { interpretation } = await call({ body: ACCOUNT });
		if (interpretation.action.kind !== 'provisioningAnswer') throw new Error('not read');
		const xml = interpretation.action.result.importFragment!;
		const id = await createProfile(admin, 'Provisioned', servicesDocument({}));
		const imported = await admin.json<{
			profile?: { revision: number; document: ProfileDocument };
		}>(`/api/profiles/${id}/import`, { method: 'POST', json: { baseRevision: 1, xml } });
		expect(imported.status, imported.text).toBe(200);
		expect(imported.body.profile?.revision).toBe(2);
		expect(imported.body.profile?.document.services).toMatchObject({
			fetchMessages: {
				genericSmsFetchUrl: 'https://sms.example.com/fetch?last=%last_known_sms_id%'
			},
			balanceChecker: { genericBalanceCheckUrl: 'https://billing.example.com/balance' }
		});
		const again = await admin.json(`/api/profiles/${id}/import`, {
			method: 'POST',
			json: { baseRevision: 1, xml: xml.replace('billing.example.com', 'other.example.com') }
		});
		expect(again.status).toBe(409);
		const head = await admin.json<{ profile: { revision: number } }>(`/api/profiles/${id}`);
		expect(head.body.profile.revision).toBe(2);
	});
});
describe('the portal field sheet', () => {
	it('lists the four keys under the portal step they are typed in', async () => {
		const id = await createProfile(
			admin,
			'Portal provisioning',
			servicesDocument({ initialProvisioning: settings('https://prov.example.com/initial') })
		);
		const sheet = await (await admin.fetch(`/api/profiles/${id}/portal.md`)).text();
		const step = sheet.slice(sheet.indexOf('## Provisioning Options (step 2)'));
		for (const key of ['Url', 'PostData', 'ContentType', 'Method']) {
			expect(step).toContain(`### Initial provisioning: `);
			expect(step).toContain(`(\`InitialProvisioning${key}\``);
		}
		// The SSO entry's fallback names the same field: one entry, never two rows.
		expect(step).toContain(
			'(`InitialProvisioningUrl`; also `initialProvisioningUrl` of External provisioning on SSO)'
		);
		expect(step).not.toContain('(`initialProvisioningUrl`)');
		expect(step).toContain('```text\nhttps://prov.example.com/initial\n```');
		const exported = await admin.fetch(`/api/profiles/${id}/export.xml`);
		expect(exported.status).toBe(200);
		const xml = await exported.text();
		expect(xml).toContain('<provisioning');
		expect(xml).not.toContain('InitialProvisioning');
	});
});

describe('the registration wizard’s page 2', () => {
	let profileId: string;

	beforeAll(async () => {
		profileId = await createProfile(
			admin,
			'Wizard through initial provisioning',
			servicesDocument({
				phoneNumberVerifier: {
					phoneNumberVerifierUrl: `${upstream.url}/verify`,
					phoneNumberVerifierPostData: 'number=%phoneNumber%'
				},
				initialProvisioning: {
					InitialProvisioningUrl: `${upstream.url}/initial`,
					InitialProvisioningPostData:
						'cloud_username=%username%&cloud_password=%password%&token=%token%'
				}
			})
		);
	});

	const wizard = () =>
		admin.json<Partial<FlowRunView>>('/api/flows/registration', {
			method: 'POST',
			json: { profileId, values: { phoneNumber: '+14155550123', pin: '4711' } }
		});

	it('calls it with the number, the PIN and the verifier’s keys as %key%', async () => {
		const before = upstream.requests.length;
		upstream.answerNext({
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: '{"token":"t-42"}'
		});
		upstream.answerNext({ status: 200, headers: XML, body: ACCOUNT });
		const answer = await wizard();
		expect(answer.status, answer.text).toBe(200);
		expect(upstream.requests[before + 1]).toMatchObject({
			method: 'POST',
			url: '/initial',
			body: 'cloud_username=%2B14155550123&cloud_password=4711&token=t-42'
		});
		const steps = answer.body.steps!;
		expect(steps.map((s) => [s.service, s.contractRow.id, s.decision.status])).toEqual([
			['phoneNumberVerifier', 'wizardVerified', 'ok'],
			['initialProvisioning', 'wizardPin', 'ok']
		]);
		expect(steps[1].interpretation?.action.kind).toBe('provisioningAnswer');
		expect(steps[1].filled.token).toBe('t-42');
		expect(answer.body.ok).toBe(true);
		// The PIN and the answer's password are masked in what is answered.
		expect(answer.text).not.toContain('4711');
		expect(answer.text).not.toContain('sip-s3cret');
	});

	it('stops with the <message> of a refusal, shown as the app shows it', async () => {
		upstream.answerNext({ status: 204 });
		upstream.answerNext({ status: 403, headers: XML, body: '<message>Wrong PIN</message>' });
		const answer = await wizard();
		expect(answer.body.ok).toBe(false);
		expect(answer.body.steps![1]).toMatchObject({
			service: 'initialProvisioning',
			decision: { status: 'failed', shownToUser: 'Wrong PIN' }
		});
	});

	it('asks for a placeholder of its template that neither the flow nor the values give', async () => {
		const doc = servicesDocument({
			phoneNumberVerifier: { phoneNumberVerifierUrl: `${upstream.url}/verify` },
			initialProvisioning: { InitialProvisioningUrl: `${upstream.url}/initial?id=%fullcode%` }
		});
		const before = upstream.requests.length;
		const answer = await admin.json<{ error?: { code: string }; missing?: object[] }>(
			'/api/flows/registration',
			{
				method: 'POST',
				json: { document: doc, values: { phoneNumber: '+14155550123', pin: '4711' } }
			}
		);
		expect(answer.status).toBe(400);
		expect(answer.body.error?.code).toBe('missing_values');
		expect(answer.body.missing).toEqual([{ service: 'initialProvisioning', name: 'fullcode' }]);
		expect(upstream.requests.length).toBe(before);
	});
});
