import autocannon from 'autocannon';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp } from './app';

/**
 * Test-call overhead: the same loopback upstream called directly (a new connection per call, as
 * a test call opens one) and through `POST /api/test-calls` (keep-alive to the app, as a browser
 * has), interleaved in one run; then 50 concurrent callers in two rounds of 10 s, with the
 * server's RSS before and after each.
 */

const RUNS = 1000;
const CONNECTIONS = 50;
const DURATION = 10;

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function timed(options: http.RequestOptions, body?: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const t0 = performance.now();
		const req = http.request(options, (res) => {
			res.resume();
			res.on('end', () => {
				if ((res.statusCode ?? 0) >= 300) reject(new Error(`status ${res.statusCode}`));
				else resolve(performance.now() - t0);
			});
		});
		req.on('error', reject);
		req.end(body);
	});
}

/** Runs the benchmark and returns its table rows. */
export async function benchTestCalls(): Promise<string[][]> {
	const upstream = http.createServer((_req, res) => {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{"sms_id":"bench-1"}');
	});
	await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
	const port = (upstream.address() as AddressInfo).port;
	const app = await startApp({
		OUTBOUND_ALLOW: '127.0.0.1/32',
		OUTBOUND_PORTS: '1024-65535',
		OUTBOUND_MAX_IN_FLIGHT: String(CONNECTIONS)
	});
	try {
		const cookie = await app.login();
		const made = await fetch(`${app.base}/api/tokens`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', origin: app.base, cookie },
			body: JSON.stringify({ name: 'bench' })
		});
		const { token } = (await made.json()) as { token: string };
		const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
		const body = JSON.stringify({
			service: 'sendMessage',
			settings: { genericSmsSendUrl: `http://127.0.0.1:${port}/send?to=%sms_to%` },
			values: { sms_to: '+14155550123' }
		});
		const appUrl = new URL(app.base);
		const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
		const viaApp = () =>
			timed(
				{
					host: appUrl.hostname,
					port: appUrl.port,
					path: '/api/test-calls',
					method: 'POST',
					headers,
					agent: keepAlive
				},
				body
			);
		const direct = () =>
			timed({ host: '127.0.0.1', port, path: '/send?to=%2B14155550123', agent: false });

		for (let i = 0; i < 50; i++) {
			await direct();
			await viaApp();
		}
		const a: number[] = [];
		const d: number[] = [];
		for (let i = 0; i < RUNS; i++) {
			d.push(await direct());
			a.push(await viaApp());
		}
		a.sort((x, y) => x - y);
		d.sort((x, y) => x - y);
		keepAlive.destroy();

		// Two rounds: growth in the first is the heap settling; stable means the second adds little.
		const rssBefore = app.rss();
		// Every answer is read: a refused or failed call is still a 200, with an `error` per
		// request. Between rounds the calls autocannon abandons at its deadline finish first.
		let failed = 0;
		const round = () =>
			autocannon({
				url: `${app.base}/api/test-calls`,
				connections: CONNECTIONS,
				duration: DURATION,
				requests: [
					{
						method: 'POST',
						headers,
						body,
						onResponse: (status: number, text: string) => {
							if (status === 200 && text.includes('"error":{')) failed++;
						}
					}
				]
			});
		const settle = () => new Promise((resolve) => setTimeout(resolve, 1000));
		const first = await round();
		await settle();
		const rssFirst = app.rss();
		const load = await round();
		await settle();
		const rssAfter = app.rss();
		const f = (n: number) => `${n.toFixed(2)} ms`;
		return [
			[
				'direct to the upstream (new connection)',
				f(percentile(d, 50)),
				f(percentile(d, 99)),
				'',
				String(RUNS)
			],
			[
				'through POST /api/test-calls',
				f(percentile(a, 50)),
				f(percentile(a, 99)),
				'',
				String(RUNS)
			],
			[
				'added by the test call',
				f(percentile(a, 50) - percentile(d, 50)),
				f(percentile(a, 99) - percentile(d, 99)),
				'',
				''
			],
			[
				`${CONNECTIONS} concurrent callers, ${DURATION} s`,
				`${load.latency.p50} ms`,
				`${load.latency.p99} ms`,
				`${Math.round(load.requests.average)}/s`,
				`${first.non2xx + first.errors + load.non2xx + load.errors} non-2xx + errors, ${failed} failed calls (both rounds)`
			],
			[
				'server RSS: before → after round 1 → after round 2',
				`${rssBefore.toFixed(0)} MB`,
				`${rssFirst.toFixed(0)} MB`,
				`${rssAfter.toFixed(0)} MB`,
				''
			]
		];
	} finally {
		await app.stop();
		upstream.close();
	}
}
