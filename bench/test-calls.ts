import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { Client } from 'undici';
import { startTestCallApp, startUpstream } from './app';

/**
 * Test-call overhead: the same loopback upstream called directly with undici (a new connection
 * per call, as a test call opens one), through a bare Node proxy that makes the same hop with
 * nothing else (`bare-proxy.js`, a process of its own as the app is), and through
 * `POST /api/test-calls` (undici too, keep-alive to the app and to the proxy, as a browser has),
 * interleaved call by call in one run after a warm-up; then 50 concurrent callers in two rounds
 * of 10 s, with the server's RSS before and after each.
 */

/** Pairs of calls before the measured ones: a server that has just started is still compiling. */
const WARM_UP = 500;
const RUNS = 2000;
const CONNECTIONS = 50;
const DURATION = 10;

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The time `request` takes until its answer's body is read; a status of 300 or more throws. */
async function timed(
	request: () => Promise<{ statusCode: number; body: { text(): Promise<string> } }>
): Promise<number> {
	const t0 = performance.now();
	const answer = await request();
	await answer.body.text();
	const ms = performance.now() - t0;
	if (answer.statusCode >= 300) throw new Error(`status ${answer.statusCode}`);
	return ms;
}

/** Starts `bench/bare-proxy.js` in a process of its own; its origin and a way to stop it. */
async function startBareProxy(): Promise<{ base: string; stop(): Promise<void> }> {
	const script = new URL('./bare-proxy.js', import.meta.url);
	const child = spawn(process.execPath, [script.pathname], {
		stdio: ['ignore', 'pipe', 'inherit', 'ipc']
	});
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const port = await new Promise<number>((resolve, reject) => {
		child.once('error', reject);
		void exited.then(() => reject(new Error('The bare proxy ended before it listened.')));
		child.stdout!.once('data', (line) => resolve(Number(String(line).trim())));
	});
	return {
		base: `http://127.0.0.1:${port}`,
		stop: async () => {
			if (child.exitCode === null) child.kill();
			await exited;
		}
	};
}

/** Runs the benchmark and returns its table rows. */
export async function benchTestCalls(): Promise<string[][]> {
	const upstream = await startUpstream();
	const port = upstream.port;
	let bare: Awaited<ReturnType<typeof startBareProxy>> | undefined;
	const app = await startTestCallApp(CONNECTIONS);
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
		bare = await startBareProxy();
		const toBare = new Client(bare.base, { pipelining: 1 });
		const viaBare = () =>
			timed(() =>
				toBare.request({
					method: 'POST',
					path: '/',
					headers: { 'content-type': 'application/json' },
					body
				})
			);
		const toApp = new Client(app.base, { pipelining: 1 });
		const viaApp = () =>
			timed(() => toApp.request({ method: 'POST', path: '/api/test-calls', headers, body }));
		// The same endpoint through the kit's request handling: the start script serves only the
		// path as written before the kit, and the kit's router decodes `%73` to `s`.
		const viaKit = () =>
			timed(() => toApp.request({ method: 'POST', path: '/api/test-call%73', headers, body }));
		// A new client per call, closed once the answer is read: a new connection, as a test call's.
		const direct = async () => {
			const t0 = performance.now();
			const client = new Client(`http://127.0.0.1:${port}`, { pipelining: 1 });
			try {
				await timed(() => client.request({ method: 'GET', path: '/send?to=%2B14155550123' }));
				return performance.now() - t0;
			} finally {
				void client.close();
			}
		};

		const a: number[] = [];
		const b: number[] = [];
		const d: number[] = [];
		const k: number[] = [];
		const kinds: [() => Promise<number>, number[]][] = [
			[direct, d],
			[viaBare, b],
			[viaApp, a],
			[viaKit, k]
		];
		// Each round calls every kind once, starting with another one each round: none always
		// follows the same one (the direct call's connection is closed as the next call starts).
		for (let i = 0; i < WARM_UP + RUNS; i++) {
			for (let j = 0; j < kinds.length; j++) {
				const [call, times] = kinds[(i + j) % kinds.length];
				const ms = await call();
				if (i >= WARM_UP) times.push(ms);
			}
		}
		for (const list of [a, b, d, k]) list.sort((x, y) => x - y);
		await toApp.close();
		await toBare.close();
		await bare.stop();

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
				'direct to the upstream with undici (new connection)',
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
				`p50 ${(percentile(a, 50) / percentile(d, 50)).toFixed(1)}× the direct request`
			],
			[
				'floor: the same hop through a bare Node proxy (added)',
				`${f(percentile(b, 50))} (+${f(percentile(b, 50) - percentile(d, 50))})`,
				`${f(percentile(b, 99))} (+${f(percentile(b, 99) - percentile(d, 99))})`,
				'',
				`the app adds ${f(percentile(a, 50) - percentile(b, 50))} p50 over it`
			],
			[
				"the same through the kit's request handling (added)",
				`${f(percentile(k, 50))} (+${f(percentile(k, 50) - percentile(d, 50))})`,
				`${f(percentile(k, 99))} (+${f(percentile(k, 99) - percentile(d, 99))})`,
				'',
				String(RUNS)
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
		await bare?.stop();
		await app.stop();
		upstream.close();
	}
}
