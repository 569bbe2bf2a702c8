import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePromtool } from '../../scripts/ensure-promtool.js';
import { ADMIN, ADMIN_ENV, createProfile, profileDocument } from '../helpers/fixtures';
import { promtoolCheckMetrics } from '../helpers/promtool';
import { Client, startServer, stopAllServers, type TestServer } from '../helpers/server';
import { startUpstream, type Upstream } from '../helpers/upstream';

/**
 * `GET /metrics` of the real built server: behind its token, in the text format Prometheus'
 * own `promtool check metrics` accepts without a word, with the app's families counting what
 * was done, and every route label a template.
 */

const TOKEN = 'metrics-token-for-the-tests-0123456789';
let server: TestServer;
let upstream: Upstream;

beforeAll(async () => {
	// Installed (if it is not there yet) before the servers start, not inside a test's time.
	ensurePromtool();
	upstream = await startUpstream({
		otherwise: {
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: '{"sms_id":"m"}'
		}
	});
	server = await startServer({
		env: {
			...ADMIN_ENV,
			METRICS_TOKEN: TOKEN,
			OUTBOUND_ALLOW: '127.0.0.1/32',
			OUTBOUND_PORTS: '1024-65535'
		}
	});
}, 180_000);

afterAll(async () => {
	await upstream.stop();
	await stopAllServers();
});

async function scrape(): Promise<string> {
	const answer = await fetch(`${server.url}/metrics`, {
		headers: { authorization: `Bearer ${TOKEN}` }
	});
	expect(answer.status).toBe(200);
	expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
	return answer.text();
}

/** The value of one series (`name{labels}`), or undefined. */
function value(text: string, series: string): number | undefined {
	const line = text.split('\n').find((l) => l.startsWith(`${series} `));
	return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
	it('needs the token: 401 without or with another', async () => {
		const none = await fetch(`${server.url}/metrics`);
		expect(none.status).toBe(401);
		expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
		const wrong = await fetch(`${server.url}/metrics`, {
			headers: { authorization: `Bearer ${TOKEN}x` }
		});
		expect(wrong.status).toBe(401);
		expect(await wrong.text()).not.toContain('http_request_duration_seconds');
	});

	it('reads the scheme as the API does, case-insensitively; HEAD has no body', async () => {
		for (const authorization of [`bearer ${TOKEN}`, `BEARER  ${TOKEN}`]) {
			const answer = await fetch(`${server.url}/metrics`, { headers: { authorization } });
			expect({ authorization, status: answer.status }).toEqual({ authorization, status: 200 });
			expect(await answer.text()).toContain('# TYPE');
		}
		const head = await fetch(`${server.url}/metrics`, {
			method: 'HEAD',
			headers: { authorization: `Bearer ${TOKEN}` }
		});
		expect(head.status).toBe(200);
		expect(await head.text()).toBe('');
	});

	it('answers GET and HEAD only: 405 with Allow otherwise, token or not', async () => {
		for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
			for (const headers of [{ authorization: `Bearer ${TOKEN}` }, {}] as Record<
				string,
				string
			>[]) {
				const answer = await fetch(`${server.url}/metrics`, { method, headers });
				expect({ method, status: answer.status }).toEqual({ method, status: 405 });
				expect(answer.headers.get('allow')).toBe('GET, HEAD');
				expect(await answer.text()).not.toContain('# TYPE');
			}
		}
	});

	it('counts what the app did, with route templates for labels, and promtool finds nothing to say', async () => {
		const admin = new Client(server);
		expect((await admin.login(ADMIN.email, 'not the password at all')).status).toBe(401);
		expect((await admin.login(ADMIN.email, ADMIN.password)).status).toBe(200);
		const id = await createProfile(admin, 'Measured', profileDocument());
		expect((await admin.json(`/api/profiles/${id}`)).status).toBe(200);
		const call = await admin.json('/api/test-calls', {
			method: 'POST',
			json: {
				service: 'sendMessage',
				settings: {
					genericSmsSendUrl: `${upstream.url}/send`,
					genericSmsSendPostData: '{"to":"%sms_to%"}',
					genericSmsSendContentType: 'application/json'
				},
				values: { sms_to: '+14155550123' }
			}
		});
		expect(call.status).toBe(200);
		const sandbox = await admin.json<{ sandbox?: { pushUrl: string } }>('/api/sandboxes', {
			method: 'POST',
			json: { name: 'Measured' }
		});
		const pushUrl = sandbox.body.sandbox!.pushUrl;
		const key = pushUrl.split('/').at(-1)!;
		const push = await fetch(`${pushUrl}/pnm2/send`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}'
		});
		await push.body?.cancel();
		await fetch(`${server.url}/sandbox/no-such-key/pnm2/send`, { method: 'POST', body: '{}' });

		const text = await scrape();
		// Node's and the process's own.
		expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
		expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
		// Requests by route template, never a raw path.
		expect(
			value(
				text,
				'http_request_duration_seconds_count{method="GET",route="/api/profiles/[id]",status="200"}'
			)
		).toBeGreaterThanOrEqual(1);
		expect(text).not.toContain(id);
		expect(text).not.toContain(key);
		expect(text).toContain('route="/sandbox/[key]/[...path]"');
		expect(value(text, 'provisioning_test_calls_total{outcome="success"}')).toBe(1);
		expect(value(text, 'provisioning_test_call_duration_seconds_count{outcome="success"}')).toBe(1);
		expect(value(text, 'provisioning_sign_ins_total{method="password",result="refused"}')).toBe(1);
		expect(value(text, 'provisioning_sign_ins_total{method="password",result="success"}')).toBe(1);
		expect(value(text, 'provisioning_sandbox_pushes_total{verdict="no_such_sandbox"}')).toBe(1);
		expect(text).toMatch(/^provisioning_sandbox_pushes_total\{verdict="(?!no_such)[a-z_]+"\} 1$/m);
		expect(
			value(text, 'provisioning_database_query_duration_seconds_count{backend="sqlite"}')
		).toBeGreaterThan(5);
		expect(text).toContain('# TYPE provisioning_event_streams_open gauge');

		// Prometheus' own linter: exit code 0 and not a word.
		const checked = await promtoolCheckMetrics(text);
		expect(checked).toBe('');
	});

	it('is a 404 when METRICS_TOKEN is not set', async () => {
		const plain = await startServer({ env: ADMIN_ENV });
		const answer = await fetch(`${plain.url}/metrics`, {
			headers: { authorization: `Bearer ${TOKEN}` }
		});
		expect(answer.status).toBe(404);
		await answer.body?.cancel();
	});
});
