import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, TEST_CERTIFICATE, type Upstream } from '../helpers/upstream';
import { ensureBuilt, run, tempDir } from './helpers';

/** `check --live` against real local servers on port 0, through the app's outbound policy. */

let upstream: Upstream;
let work: { dir: string; remove: () => void };
const ALLOW = { OUTBOUND_ALLOW: '127.0.0.1', OUTBOUND_PORTS: '*', PROV_PASS: 'pa55-w0rd-live' };

beforeAll(async () => {
	await ensureBuilt();
	upstream = await startUpstream({
		otherwise: {
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: '{"sms_id": "sms-1"}'
		}
	});
	work = tempDir();
});

afterAll(async () => {
	await upstream.stop();
	work.remove();
});

/** A profile whose Send Message goes to `url`, with one scenario of one recipient. */
function profile(name: string, url: string): string {
	const file = path.join(work.dir, `${name}.xml`);
	writeFileSync(
		file,
		'<account>\n' +
			`<genericSmsSendUrl>${url}</genericSmsSendUrl>\n` +
			'<genericSmsSendPostData>{"to": "%sms_to%", "body": "%sms_body%", "key": "%account[password]%"}</genericSmsSendPostData>\n' +
			'<genericSmsSendContentType>application/json</genericSmsSendContentType>\n' +
			'</account>\n'
	);
	writeFileSync(
		path.join(work.dir, `${name}.scenarios.json`),
		JSON.stringify({
			scenarios: [{ name: 'Hello', values: { sms_to: '+447911000000', sms_body: 'Hi' } }]
		})
	);
	return file;
}

describe('check --live', () => {
	it('sends each request and judges the answer as the platform does', async () => {
		const file = profile('ok', `${upstream.url}/send`);
		const before = upstream.requests.length;
		const result = await run(['check', '--live', file], { env: ALLOW });
		expect(result.code).toBe(0);
		const received = upstream.requests.slice(before);
		expect(received).toHaveLength(1);
		expect(received[0].method).toBe('POST');
		expect(received[0].url).toBe('/send');
		expect(received[0].body).toContain('"to": "+447911000000", "body": "Hi"');
		expect(result.stdout).toMatch(/live +sendMessage with "Hello": 200 → .*sms-1/);
		expect(result.stdout).toContain('live: 1 read as success, 0 as failure');
	});

	it('offline by default: nothing is sent without --live', async () => {
		const file = profile('offline', `${upstream.url}/send`);
		const before = upstream.requests.length;
		const result = await run(['check', file], { env: ALLOW });
		expect(result.code).toBe(0);
		expect(upstream.requests.length).toBe(before);
	});

	it('an answer the platform reads as a failure fails the check', async () => {
		const file = profile('fails', `${upstream.url}/send`);
		upstream.answerNext({
			status: 500,
			headers: { 'content-type': 'application/json' },
			body: '{"message": "Out of credit"}'
		});
		const result = await run(['check', '--live', file], { env: ALLOW });
		expect(result.code).toBe(1);
		expect(result.stdout).toMatch(/error +The platform reads the answer as a failure \(HTTP 500\)/);
	});

	it('--expect rules: status and fields of the interpretation', async () => {
		const file = profile('expect', `${upstream.url}/send`);
		// An error reported with HTTP 200 is a success to the platform: only a rule catches it.
		upstream.answerNext({
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: '{"message_id": "m-1"}'
		});
		const wrongShape = await run(
			['check', '--live', file, '--expect', 'sendMessage:action.kind=storeSmsId'],
			{ env: ALLOW }
		);
		expect(wrongShape.code).toBe(1);
		expect(wrongShape.stdout).toMatch(
			/error +Expected action\.kind = storeSmsId, the answer gave success/
		);
		const holds = await run(
			[
				'check',
				'--live',
				file,
				'--expect',
				'sendMessage:status=200',
				'--expect',
				'sendMessage:action.smsId=sms-1'
			],
			{ env: ALLOW }
		);
		expect(holds.code).toBe(0);
		const bad = await run(['check', '--live', file, '--expect', 'sendMessage=200'], { env: ALLOW });
		expect(bad.code).toBe(2);
		expect(bad.stderr).toContain('is not <service>:<field>=<value>');
	});

	it('names the answer shape, and warns of an error the platform reads as a success', async () => {
		const file = profile('flag', `${upstream.url}/send`);
		upstream.answerNext({
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: '{"response": {"error": 1, "description": "Insufficient credit"}}'
		});
		const result = await run(['check', '--live', file], { env: ALLOW });
		// The platform reads it as a success: a warning, not an error, unless --fail-on says so.
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('answer shape: An error flag in the body');
		expect(result.stdout).toMatch(
			/warning +Live answer 200: The body reports an error \(error = 1/
		);
		upstream.answerNext({
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: '{"response": {"error": 1, "description": "Insufficient credit"}}'
		});
		const strict = await run(['check', '--live', file, '--fail-on', 'warning'], { env: ALLOW });
		expect(strict.code).toBe(1);
		// The shape is a field of the interpretation, for --expect.
		const shaped = await run(
			['check', '--live', file, '--expect', 'sendMessage:shape.shape.id=json-sms-id'],
			{ env: ALLOW }
		);
		expect(shaped.code).toBe(0);
		expect(shaped.stdout).toContain('answer shape: JSON {"sms_id": …}');
	});

	it('masks a secret the server echoes back', async () => {
		// Over https (over plain http the platform itself sends the password as ****).
		const tls = await startUpstream({ tls: true });
		try {
			const file = profile('echo', `${tls.url}/send`);
			tls.answerNext({
				status: 403,
				headers: { 'content-type': 'application/json' },
				body: '{"message": "Wrong key pa55-w0rd-live"}'
			});
			const result = await run(
				['check', '--live', file, '--secret', 'account[password]=PROV_PASS', '--reporter', 'json'],
				{ env: { ...ALLOW, NODE_EXTRA_CA_CERTS: TEST_CERTIFICATE } }
			);
			expect(result.code).toBe(1);
			expect(tls.requests.at(-1)!.body).toContain('"key": "pa55-w0rd-live"');
			expect(result.stdout).not.toContain('pa55-w0rd-live');
			expect(result.stdout).toContain('Wrong key ••••••••');
		} finally {
			await tls.stop();
		}
	});

	it('a network failure is exit code 4, and so is an address the outbound policy refuses', async () => {
		const closed = await startUpstream();
		const url = `${closed.url}/send`;
		await closed.stop();
		const refused = await run(['check', '--live', profile('refused', url)], { env: ALLOW });
		expect(refused.code).toBe(4);
		expect(refused.stdout).toMatch(/error +POST http:\/\/127\.0\.0\.1:\d+\/send: .*refused/i);
		// Without OUTBOUND_ALLOW, loopback is not reached: the same policy as test calls.
		const denied = await run(['check', '--live', profile('denied', `${upstream.url}/send`)], {
			env: { OUTBOUND_PORTS: '*' }
		});
		expect(denied.code).toBe(4);
		expect(denied.stdout).toContain('OUTBOUND_ALLOW');
	});
});
