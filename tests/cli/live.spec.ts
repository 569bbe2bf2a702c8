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

/**
 * A profile with Send Message and the Push Token Reporter going to `url`, and no scenario file:
 * the built-in scenarios (a text, a media message, a disposition notification, two recipients)
 * render five Send Message requests and one of the reporter.
 */
function twoServices(name: string, url: string): string {
	const file = path.join(work.dir, `${name}.xml`);
	writeFileSync(
		file,
		'<account>\n' +
			`<genericSmsSendUrl>${url}/sms</genericSmsSendUrl>\n` +
			'<genericSmsSendPostData>{"to": "%sms_to%", "body": "%sms_body%"}</genericSmsSendPostData>\n' +
			'<genericSmsSendContentType>application/json</genericSmsSendContentType>\n' +
			`<pushTokenReporterUrl>${url}/token</pushTokenReporterUrl>\n` +
			'<pushTokenReporterPostData>selector=%selector%&amp;token=%pushToken%</pushTokenReporterPostData>\n' +
			'<pushTokenReporterContentType>application/x-www-form-urlencoded</pushTokenReporterContentType>\n' +
			'</account>\n'
	);
	return file;
}

describe('check --live sends one request per service; --live-all every one', () => {
	it("--live: the first scenario's first request of each service, said before it is sent", async () => {
		const file = twoServices('one-each', upstream.url);
		const before = upstream.requests.length;
		const result = await run(['check', '--live', file], { env: ALLOW });
		expect(result.code).toBe(0);
		const received = upstream.requests.slice(before);
		// Two services: two requests, where every rendered request would be six.
		expect(received.map((r) => r.url)).toEqual(['/sms', '/token']);
		expect(JSON.parse(received[0].body)).toEqual({ to: '+14155550123', body: expect.any(String) });
		const host = new URL(upstream.url).host;
		const plan = result.stdout.split('\n')[0];
		expect(plan).toBe(
			`Live: sending 2 requests (one per service: the first request of each service's first scenario; --live-all sends all 6) to ${host}.`
		);
		expect(result.stdout).toContain('sent 2 of 6 rendered requests (one per service)');
	});

	it('--live-all: every request of every scenario, each recipient of a list included', async () => {
		const file = twoServices('all', upstream.url);
		const before = upstream.requests.length;
		const result = await run(['check', '--live-all', file], { env: ALLOW });
		expect(result.code).toBe(0);
		const received = upstream.requests.slice(before);
		expect(received.filter((r) => r.url === '/sms')).toHaveLength(5);
		expect(received.filter((r) => r.url === '/token')).toHaveLength(1);
		expect(result.stdout).toContain('Live: sending 6 requests (every rendered request)');
	});

	it('--scenario picks the scenario sent: its first recipient only, unless --live-all', async () => {
		const file = twoServices('picked', upstream.url);
		let before = upstream.requests.length;
		const one = await run(['check', '--live', file, '--scenario', 'Two recipients'], {
			env: ALLOW
		});
		expect(one.code).toBe(0);
		let received = upstream.requests.slice(before);
		// The reporter has no use for "Two recipients": its own first scenario is sent.
		expect(received.map((r) => r.url)).toEqual(['/sms', '/token']);
		expect(JSON.parse(received[0].body).to).toBe('+14155550123');
		before = upstream.requests.length;
		const all = await run(['check', '--live-all', file, '--scenario', 'Two recipients'], {
			env: ALLOW
		});
		expect(all.code).toBe(0);
		received = upstream.requests.slice(before);
		const sms = received.filter((r) => r.url === '/sms').map((r) => JSON.parse(r.body).to);
		expect(sms).toEqual(['+14155550123', '+447700900456']);
	});

	it('a scenario the file does not have: an error, and nothing of it is sent', async () => {
		const file = twoServices('unknown', upstream.url);
		const before = upstream.requests.length;
		const result = await run(['check', '--live', file, '--scenario', 'Nope'], { env: ALLOW });
		expect(result.code).toBe(1);
		expect(upstream.requests.length).toBe(before);
		expect(result.stdout).toContain('No scenario is named "Nope" here');
		expect(result.stdout).toContain('live_unknown_scenario');
		const usage = await run(['check', file, '--scenario', 'Text message'], { env: ALLOW });
		expect(usage.code).toBe(2);
		expect(usage.stderr).toContain('--scenario needs --live or --live-all');
	});

	it('the JSON, JUnit and SARIF reports record which requests were sent', async () => {
		const file = twoServices('reports', upstream.url);
		const json = await run(['check', '--live', file, '--reporter', 'json'], { env: ALLOW });
		expect(json.code).toBe(0);
		// The plan goes to stderr: the JSON on stdout stays JSON.
		expect(json.stderr).toMatch(/^Live: sending 2 requests/);
		const report = JSON.parse(json.stdout);
		expect(report.live).toMatchObject({ mode: 'one-per-service', requests: 2, rendered: 6 });
		const sent = report.files[0].renderings.flatMap(
			(r: { service: string; scenario: string; live?: { request: number; url: string }[] }) =>
				(r.live ?? []).map((l) => [r.service, r.scenario, l.request, new URL(l.url).pathname])
		);
		expect(sent).toEqual([
			['sendMessage', 'Text message', 0, '/sms'],
			['pushTokenReporter', 'Samples', 0, '/token']
		]);
		const junit = await run(['check', '--live', file, '--reporter', 'junit'], { env: ALLOW });
		expect(junit.stdout).toMatch(
			/<testcase name="render sendMessage with &quot;Text message&quot;"[^>]*>\s*<system-out>sent POST http:\/\/[^ ]+\/sms/
		);
		expect(junit.stdout).not.toMatch(/with &quot;Two recipients&quot;"[^>]*>\s*<system-out>sent/);
		const sarif = await run(['check', '--live', file, '--reporter', 'sarif'], { env: ALLOW });
		const properties = JSON.parse(sarif.stdout).runs[0].properties.live;
		expect(properties.requests).toBe(2);
		expect(properties.sent.map((s: { service: string }) => s.service)).toEqual([
			'sendMessage',
			'pushTokenReporter'
		]);
	});
});

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
