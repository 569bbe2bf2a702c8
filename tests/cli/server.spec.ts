import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractProxy, type ContractProxy } from '../helpers/contract-proxy';
import { createUser, serverWithAdmin, type TestUser } from '../helpers/fixtures';
import { freePort, stopAllServers, type TestServer } from '../helpers/server';
import { providerServices, startProvider, type Provider } from '../helpers/provider';
import { startUpstream, type Upstream } from '../helpers/upstream';
import { ensureBuilt, fixture, run, tempDir } from './helpers';
import { junitErrors, sarifErrors } from './schemas';

/**
 * `check --server`: the real program against the real built app, started here on port 0 with a
 * fresh data directory; API tokens made through the API; flows sent to a real local upstream.
 */

let server: TestServer;
/** The app, seen through the check of every answer (the program runs as a process of its own). */
let api: ContractProxy;
let upstream: Upstream;
let editor: TestUser;
let viewer: TestUser;
let editorToken: string;
let viewerToken: string;
let work: { dir: string; remove: () => void };

async function tokenOf(user: TestUser): Promise<string> {
	const made = await user.client.json<{ token?: string }>('/api/tokens', {
		method: 'POST',
		json: { name: 'ci' }
	});
	if (made.status !== 201 || !made.body.token) throw new Error(`No token: ${made.status}`);
	return made.body.token;
}

beforeAll(async () => {
	await ensureBuilt();
	let admin;
	({ server, admin } = await serverWithAdmin({
		OUTBOUND_ALLOW: '127.0.0.1/32',
		OUTBOUND_PORTS: '1024-65535',
		OUTBOUND_TOTAL_TIMEOUT_MS: '3000'
	}));
	api = await contractProxy(server.url);
	editor = await createUser(admin, 'editor', 'cli-editor@example.test');
	viewer = await createUser(admin, 'viewer', 'cli-viewer@example.test');
	editorToken = await tokenOf(editor);
	viewerToken = await tokenOf(viewer);
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
	await api.close();
	await upstream.stop();
	await stopAllServers();
	work.remove();
});

/** Runs the program with the token in the environment, as the documentation advises. */
function check(args: string[], token = viewerToken) {
	return run(['check', ...args], { env: { PROVISIONING_STUDIO_TOKEN: token } });
}

interface JsonReport {
	exitCode: number;
	server?: string;
	files: {
		findings: { code: string; severity: string; place?: object; key?: string }[];
		renderings: object[];
		flows?: {
			flow: string;
			ok: boolean;
			steps: { service: string; status: string; contractRow: string }[];
		}[];
	}[];
}

/** A profile whose Send Message goes to the upstream, with one scenario of one recipient. */
function sendMessageProfile(name: string): string {
	const file = path.join(work.dir, `${name}.xml`);
	writeFileSync(
		file,
		'<account>\n' +
			`<genericSmsSendUrl>${upstream.url}/send</genericSmsSendUrl>\n` +
			'<genericSmsSendPostData>{"to": "%sms_to%", "body": "%sms_body%"}</genericSmsSendPostData>\n' +
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

describe('check --server: lint and rendering by a running app', () => {
	it('gives the same findings, requests and exit code as the local check', async () => {
		for (const file of [fixture('clean/acme.xml'), fixture('findings/bad.xml')]) {
			const local = await run(['check', file, '--reporter', 'json']);
			const remote = await check([file, '--server', api.url, '--reporter', 'json']);
			expect(remote.stderr).toBe('');
			expect(remote.code).toBe(local.code);
			const l = JSON.parse(local.stdout) as JsonReport;
			const r = JSON.parse(remote.stdout) as JsonReport;
			expect(r.server).toBe(api.url);
			expect(r.files).toEqual(l.files);
		}
		// The fixture with findings does have them, with places in the file.
		const bad = JSON.parse(
			(await check([fixture('findings/bad.xml'), '--server', api.url, '--reporter', 'json'])).stdout
		) as JsonReport;
		expect(bad.exitCode).toBe(1);
		expect(bad.files[0].findings.some((f) => f.severity === 'error' && f.place)).toBe(true);
	});

	it('snapshots written by the local check match what the server renders', async () => {
		const snapshots = path.join(work.dir, 'snapshots');
		const file = fixture('clean/acme.xml');
		const written = await run(['check', file, '--snapshots', snapshots, '--update-snapshots']);
		expect(written.code).toBe(0);
		const remote = await check([file, '--server', api.url, '--snapshots', snapshots]);
		expect(remote.code).toBe(0);
		expect(remote.stdout).toMatch(/snapshots: \d+ match/);
		expect(remote.stdout).not.toMatch(/differs|missing/);
		expect(remote.stdout).toContain(`through ${api.url}`);
	});

	it('a --secret sent to the server for rendering is masked in every output', async () => {
		const out = path.join(work.dir, 'secret.sarif');
		const result = await run(
			[
				'check',
				fixture('clean/acme.xml'),
				'--server',
				api.url,
				'--secret',
				'account[password]=PROV_PASS',
				'--reporter',
				'json',
				'--output',
				out
			],
			{ env: { PROVISIONING_STUDIO_TOKEN: viewerToken, PROV_PASS: 'hunter2-server-secret' } }
		);
		expect(result.code).toBe(0);
		const report = readFileSync(out, 'utf8');
		const bodies = (
			JSON.parse(report) as { files: { renderings: { requests: { body: string }[] }[] }[] }
		).files[0].renderings.flatMap((r) => r.requests.map((q) => q.body));
		expect(bodies.some((b) => b.includes('"password": "••••••••"'))).toBe(true);
		expect(report + result.stdout + result.stderr).not.toContain('hunter2-server-secret');
	});

	it('a profile’s own account keys are known to the server’s lint', async () => {
		const file = path.join(work.dir, 'own-keys.xml');
		writeFileSync(
			file,
			'<account>\n<apiUser>acme</apiUser>\n' +
				'<genericSmsSendUrl>https://sms.example.com/send?user=%account[apiUser]%&amp;to=%sms_to%</genericSmsSendUrl>\n' +
				'</account>\n'
		);
		const remote = await check([file, '--server', api.url, '--reporter', 'json']);
		const report = JSON.parse(remote.stdout) as JsonReport;
		expect(report.files[0].findings.map((f) => f.code)).not.toContain('unknown_placeholder');
		expect(JSON.stringify(report.files[0].renderings)).toContain('user=acme');
	});

	it('a refused token: a clear message, the token masked, exit code 2', async () => {
		const wrong = 'pst_0123456789abcdef0123456789abcdef';
		const result = await check([fixture('clean/acme.xml'), '--server', api.url], wrong);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('refused the API token pst_••••••••');
		expect(result.stderr).toContain('401');
		expect(result.stderr).toContain('PROVISIONING_STUDIO_TOKEN');
		expect(result.stderr + result.stdout).not.toContain('0123456789abcdef');
		// Also given with --token: still never shown.
		const flag = await run([
			'check',
			fixture('clean/acme.xml'),
			'--server',
			api.url,
			'--token',
			wrong
		]);
		expect(flag.code).toBe(2);
		expect(flag.stderr + flag.stdout).not.toContain('0123456789abcdef');
	});

	it('a server that does not answer: exit code 4', async () => {
		const closed = `http://127.0.0.1:${await freePort()}`;
		const result = await check([fixture('clean/acme.xml'), '--server', closed]);
		expect(result.code).toBe(4);
		expect(result.stderr).toContain(`Cannot reach ${closed}`);
		expect(result.stderr).toContain('ECONNREFUSED');
	});

	it('usage errors: no token, a bad origin, --flows or --token without --server', async () => {
		const file = fixture('clean/acme.xml');
		const cases: [string[], RegExp][] = [
			[['check', file, '--server', api.url], /needs an API token: set PROVISIONING_STUDIO_TOKEN/],
			[['check', file, '--server', 'ftp://example.com', '--token', 'x'], /http: or https:/],
			[['check', file, '--server', `${api.url}/api`, '--token', 'x'], /origin only/],
			[['check', file, '--flows', 'sso'], /--flows needs --server/],
			[['check', file, '--token', 'x'], /--token needs --server/],
			[['check', file, '--server', api.url, '--token', 'x', '--flows', 'nope'], /not "nope"/],
			[
				['check', file, '--server', api.url, '--token', 'x', '--value', 'a=b'],
				/--value needs --flows/
			]
		];
		for (const [args, message] of cases) {
			const result = await run(args);
			expect(result.code, args.join(' ')).toBe(2);
			expect(result.stderr).toMatch(message);
		}
	});
});

describe('check --server --live: the server sends, as its test calls', () => {
	it('sends each request from the server and judges the answer as --live does', async () => {
		const file = sendMessageProfile('live-ok');
		const before = upstream.requests.length;
		// No OUTBOUND_ALLOW here: the local policy would refuse 127.0.0.1; the server's allows it.
		const result = await check([file, '--server', api.url, '--live'], editorToken);
		expect(result.stderr).toBe('');
		expect(result.code).toBe(0);
		const sent = upstream.requests.slice(before);
		expect(sent).toHaveLength(1);
		expect(sent[0].body).toBe('{"to": "+447911000000", "body": "Hi"}');
		expect(result.stdout).toMatch(/live +sendMessage with "Hello": 200 → .*sms-1/);
		expect(result.stdout).toContain('live: 1 read as success, 0 as failure');
	});

	it('--expect rules judge the server’s answers; a failure answer fails the check', async () => {
		const file = sendMessageProfile('live-expect');
		upstream.answerNext({
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: '{"message_id": "m-1"}'
		});
		const result = await check(
			[file, '--server', api.url, '--live', '--expect', 'sendMessage:action.kind=storeSmsId'],
			editorToken
		);
		expect(result.code).toBe(1);
		expect(result.stdout).toContain('live_expectation');
		expect(result.stdout).toContain('Expected action.kind = storeSmsId');
	});

	it('an upstream that does not answer: exit code 4, as --live', async () => {
		const file = path.join(work.dir, 'live-closed.xml');
		writeFileSync(
			file,
			readFileSync(sendMessageProfile('live-closed'), 'utf8').replace(
				upstream.url,
				`http://127.0.0.1:${await freePort()}`
			)
		);
		const result = await check([file, '--server', api.url, '--live'], editorToken);
		expect(result.code).toBe(4);
		expect(result.stdout).toContain('live_network');
	});

	it('--live sends one request per service there too; --live-all every one', async () => {
		// No scenario file: the built-in scenarios render five Send Message requests.
		const file = path.join(work.dir, 'live-builtin.xml');
		writeFileSync(
			file,
			'<account>\n' +
				`<genericSmsSendUrl>${upstream.url}/builtin</genericSmsSendUrl>\n` +
				'<genericSmsSendPostData>{"to": "%sms_to%"}</genericSmsSendPostData>\n' +
				'<genericSmsSendContentType>application/json</genericSmsSendContentType>\n' +
				'</account>\n'
		);
		const sentSince = (before: number) =>
			upstream.requests
				.slice(before)
				.filter((r) => r.url === '/builtin')
				.map((r) => JSON.parse(r.body).to);
		let before = upstream.requests.length;
		const one = await check([file, '--server', api.url, '--live'], editorToken);
		expect(one.code).toBe(0);
		expect(sentSince(before)).toEqual(['+14155550123']);
		expect(one.stdout).toContain(
			`Live: sending 1 request (one per service: the first request of each service's first scenario; --live-all sends all 5) to ${new URL(upstream.url).host}, through ${api.url} (it sends them as its test calls).`
		);
		before = upstream.requests.length;
		const picked = await check(
			[file, '--server', api.url, '--live', '--scenario', 'Two recipients'],
			editorToken
		);
		expect(picked.code).toBe(0);
		// The server builds the first recipient's request alone.
		expect(sentSince(before)).toEqual(['+14155550123']);
		before = upstream.requests.length;
		const all = await check([file, '--server', api.url, '--live-all'], editorToken);
		expect(all.code).toBe(0);
		expect(sentSince(before)).toHaveLength(5);
		expect(sentSince(before).slice(-2)).toEqual(['+14155550123', '+447700900456']);
	});

	it('a viewer’s token cannot send: 403 explained, exit 2, nothing sent', async () => {
		const file = sendMessageProfile('live-viewer');
		const before = upstream.requests.length;
		const result = await check([file, '--server', api.url, '--live']);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('403');
		expect(upstream.requests.length).toBe(before);
	});
});

describe('check --server --flows', () => {
	it('runs a flow there with the scenario’s values and reports each step', async () => {
		const file = sendMessageProfile('flow-ok');
		const before = upstream.requests.length;
		const result = await check([file, '--server', api.url, '--flows', 'send-message'], editorToken);
		expect(result.stderr).toBe('');
		expect(result.code).toBe(0);
		const sent = upstream.requests.slice(before);
		// The scenario file's values: one recipient.
		expect(sent).toHaveLength(1);
		expect(sent[0].url).toBe('/send');
		expect(sent[0].body).toBe('{"to": "+447911000000", "body": "Hi"}');
		expect(result.stdout).toMatch(/flow +send-message: ok \(run \d+\)/);
		expect(result.stdout).toMatch(/sendMessage ok: .*POST http:\/\/127\.0\.0\.1:\d+\/send → 200/);
		expect(result.stdout).toContain('flows: 1 ok, 0 failed');
	});

	it('--value gives the flow’s inputs (a repeated name is a list)', async () => {
		const file = sendMessageProfile('flow-values');
		const before = upstream.requests.length;
		const result = await check(
			[
				file,
				'--server',
				api.url,
				'--flows',
				'send-message',
				'--value',
				'sms_to=+447911000001',
				'--value',
				'sms_to=5551234567',
				'--value',
				'sms_body=From CI',
				'--reporter',
				'json'
			],
			editorToken
		);
		expect(result.code).toBe(0);
		const bodies = upstream.requests.slice(before).map((r) => r.body);
		expect(bodies).toEqual([
			'{"to": "+447911000001", "body": "From CI"}',
			'{"to": "5551234567", "body": "From CI"}'
		]);
		const report = JSON.parse(result.stdout) as JsonReport;
		expect(report.files[0].flows![0].steps.map((s) => s.status)).toEqual(['ok', 'ok']);
	});

	it('a failed step fails the check (exit 1), named with its contract row, in every reporter', async () => {
		const file = sendMessageProfile('flow-fails');
		upstream.answerNext({
			status: 500,
			headers: { 'content-type': 'application/json' },
			body: '{"message": "Out of credit"}'
		});
		const result = await check(
			[file, '--server', api.url, '--flows', 'send-message', '--fail-on', 'none'],
			editorToken
		);
		expect(result.code).toBe(1);
		expect(result.stdout).toMatch(/flow +send-message: failed/);
		expect(result.stdout).toContain('flow_step_failed');
		expect(result.stdout).toContain('flows: 0 ok, 1 failed');

		upstream.answerNext({ status: 500, body: 'no' });
		const junitFile = path.join(work.dir, 'flows.junit.xml');
		const junit = await check(
			[
				file,
				'--server',
				api.url,
				'--flows',
				'send-message',
				'--reporter',
				'junit',
				'--output',
				junitFile
			],
			editorToken
		);
		expect(junit.code).toBe(1);
		const xml = readFileSync(junitFile, 'utf8');
		expect(xml).toMatch(
			/<testcase name="flow send-message"[^>]*>\s*<failure [^>]*type="flow_step_failed"/
		);
		// Both CI reports of a failed flow are valid by their schemas.
		expect(await junitErrors(xml)).toEqual([]);
		upstream.answerNext({ status: 500, body: 'no' });
		const sarif = await check(
			[file, '--server', api.url, '--flows', 'send-message', '--reporter', 'sarif'],
			editorToken
		);
		expect(sarif.code).toBe(1);
		const log = JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string }[] }[] };
		expect(sarifErrors(log)).toEqual([]);
		expect(log.runs[0].results.map((r) => r.ruleId)).toContain('flow_step_failed');
	});

	it('a step that gets no answer: exit code 4, the step’s error reported', async () => {
		const file = path.join(work.dir, 'flow-closed.xml');
		const closed = `http://127.0.0.1:${await freePort()}`;
		writeFileSync(
			file,
			readFileSync(sendMessageProfile('flow-closed'), 'utf8').replace(upstream.url, closed)
		);
		const result = await check(
			[file, '--server', api.url, '--flows', 'send-message', '--reporter', 'json'],
			editorToken
		);
		expect(result.code).toBe(4);
		const report = JSON.parse(result.stdout) as JsonReport;
		const flow = report.files[0].flows![0];
		expect(flow.ok).toBe(false);
		expect(JSON.stringify(flow.steps)).toContain('connect_refused');
	});

	it('inputs a flow needs and the run does not give: named, nothing sent, exit 1', async () => {
		const file = sendMessageProfile('flow-missing');
		const before = upstream.requests.length;
		const result = await check([file, '--server', api.url, '--flows', 'registration'], editorToken);
		expect(result.code).toBe(1);
		expect(result.stdout).toMatch(/needs values this run does not give: .*phoneNumber/);
		expect(result.stdout).toContain('--value');
		expect(upstream.requests.length).toBe(before);
	});

	it('a viewer’s token cannot run flows: 403 explained, exit 2', async () => {
		const file = sendMessageProfile('flow-viewer');
		const before = upstream.requests.length;
		const result = await check([file, '--server', api.url, '--flows', 'send-message']);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('403');
		expect(result.stderr).toContain('editor');
		expect(result.stderr).toContain('pst_••••••••');
		expect(upstream.requests.length).toBe(before);
	});
});

describe('check --server --flows messaging', () => {
	let sandboxId: string;
	let provider: Provider;

	beforeAll(async () => {
		const made = await editor.client.json<{ sandbox?: { id: string; pushUrl: string } }>(
			'/api/sandboxes',
			{ method: 'POST', json: { name: 'CLI phones' } }
		);
		sandboxId = made.body.sandbox!.id;
		provider = await startProvider(made.body.sandbox!.pushUrl);
	});

	afterAll(() => provider.stop());

	/** A profile file with the provider's three messaging services. */
	function messagingProfile(name: string): string {
		const file = path.join(work.dir, `${name}.xml`);
		const escape = (text: string) => text.replaceAll('&', '&amp;');
		// Initial provisioning's keys are the portal's: an account XML does not hold them.
		const services = Object.entries(providerServices(provider.url));
		const inXml = services.filter(([service]) => service !== 'initialProvisioning');
		const keys = inXml.flatMap(([, settings]) =>
			Object.entries(settings).map(([key, value]) => `<${key}>${escape(value)}</${key}>`)
		);
		writeFileSync(file, `<account>\n${keys.join('\n')}\n</account>\n`);
		return file;
	}

	const journey = (file: string, user: string) =>
		run(
			[
				'check',
				file,
				'--server',
				api.url,
				'--flows',
				'messaging',
				'--value',
				`sandboxId=${sandboxId}`,
				'--value',
				`sender.username=alice-${user}`,
				'--secret',
				'sender.password=ALICE_PASSWORD',
				'--value',
				`recipient.username=bob-${user}`,
				'--secret',
				'recipient.password=BOB_PASSWORD',
				'--value',
				'sms_body=From CI',
				'--value',
				'disposition_notification=Cli-1:display',
				'--value',
				'secondDevice=true',
				'--reporter',
				'json'
			],
			{
				env: {
					PROVISIONING_STUDIO_TOKEN: editorToken,
					ALICE_PASSWORD: 'alice-cli-secret',
					BOB_PASSWORD: 'bob-cli-secret'
				}
			}
		);

	it('runs the journey against a running server and reports each step', async () => {
		const result = await journey(messagingProfile('messaging-ok'), 'ok');
		expect(result.stderr).toBe('');
		expect(result.code).toBe(0);
		const flow = (JSON.parse(result.stdout) as JsonReport).files[0].flows![0];
		expect(flow).toMatchObject({ flow: 'messaging', ok: true });
		expect(flow.steps.map((s) => s.service)).toEqual([
			'pushTokenReporter',
			'pushTokenReporter',
			'pushTokenReporter',
			'sendMessage',
			'pushReceived',
			'fetchMessages',
			'fetchMessages',
			'fetchMessages'
		]);
		expect(provider.messages.at(-1)).toMatchObject({
			from: 'alice-ok',
			to: 'bob-ok',
			disposition: 'Cli-1:display'
		});
		expect(result.stdout).not.toMatch(/alice-cli-secret|bob-cli-secret/);
	});

	it('a provider answering every message every time fails the check with the finding', async () => {
		provider.mistakes.ignoreLastKnown = true;
		try {
			const result = await journey(messagingProfile('messaging-twice'), 'twice');
			expect(result.code).toBe(1);
			const report = JSON.parse(result.stdout) as JsonReport;
			const found = report.files[0].findings.find((f) => f.code === 'messaging_nothingTwice');
			expect(found?.severity).toBe('error');
		} finally {
			provider.mistakes.ignoreLastKnown = false;
		}
	});
});
