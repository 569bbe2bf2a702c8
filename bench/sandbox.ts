import autocannon from 'autocannon';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp } from './app';

/**
 * The push sandbox of the built server: sustained `POST /pnm2/send` from 50 connections for
 * 10 s, beside two floors under the same load on the same machine: a bare Node HTTP server that
 * parses the same JSON and answers the same response object, and the app's cheapest route
 * (`GET /api/health`, what any request through the app costs); a 1,000-element multisend,
 * one at a time; and the server's RSS before and after 100,000 more pushes (the records are
 * bounded, so the RSS must not grow with them).
 */

const CONNECTIONS = 50;
const DURATION = 10;
const MULTISEND_RUNS = 50;
const MANY = 100_000;

/** One valid push, as a provider's server sends it (also the operations benchmark's). */
export const PUSH = JSON.stringify({
	verb: 'NotifyTextMessage',
	AppId: 'com.provider.app',
	DeviceToken: 'bench-device-token-0123456789abcdef',
	Selector: '0123456789abcdef0123456789abcdef01234567:acct',
	UserName: 'Alice',
	Message: 'See you at 8',
	Badge: 1,
	Sound: 's2.caf',
	Id: 'msg-1'
});

const LIST = JSON.stringify(
	Array.from({ length: 1000 }, (_, i) => ({ ...JSON.parse(PUSH), Id: `msg-${i}` }))
);

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Pushes from 50 connections: `amount` of them, or for `duration` seconds (10 by default). */
export async function load(
	url: string,
	amount?: number,
	duration = DURATION
): Promise<autocannon.Result> {
	return autocannon({
		url,
		method: 'POST',
		connections: CONNECTIONS,
		...(amount ? { amount } : { duration }),
		headers: { 'content-type': 'application/json' },
		body: PUSH
	});
}

/** Runs the benchmark and returns its table rows. */
export async function benchSandbox(): Promise<string[][]> {
	const floor = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			JSON.parse(Buffer.concat(chunks).toString());
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ status: 200, response: 'Accepted.' }));
		});
	});
	await new Promise<void>((r) => floor.listen(0, '127.0.0.1', r));
	const floorUrl = `http://127.0.0.1:${(floor.address() as AddressInfo).port}/pnm2/send`;
	const app = await startApp();
	try {
		const cookie = await app.login();
		const made = await fetch(`${app.base}/api/sandboxes`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', origin: app.base, cookie },
			body: JSON.stringify({ name: 'bench' })
		});
		const { sandbox } = (await made.json()) as { sandbox: { pushUrl: string } };
		const send = `${sandbox.pushUrl}/pnm2/send`;

		const bare = await load(floorUrl);
		const health = await autocannon({
			url: `${app.base}/api/health`,
			connections: CONNECTIONS,
			duration: DURATION
		});
		const sustained = await load(send);

		const times: number[] = [];
		for (let i = 0; i < MULTISEND_RUNS + 5; i++) {
			const t0 = performance.now();
			const answer = await fetch(`${sandbox.pushUrl}/pnm2/multisend`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: LIST
			});
			const list = (await answer.json()) as { status: number }[];
			if (list.length !== 1000 || list.some((o) => o.status !== 200)) {
				throw new Error('The multisend was not accepted whole.');
			}
			if (i >= 5) times.push(performance.now() - t0);
		}
		times.sort((a, b) => a - b);

		const before = app.rss();
		const many = await load(send, MANY);
		// Let the last answers and the garbage collector settle before reading it again.
		await new Promise((resolve) => setTimeout(resolve, 2000));
		const after = app.rss();

		const row = (label: string, r: autocannon.Result) => [
			label,
			`${r.latency.p50} ms`,
			`${r.latency.p99} ms`,
			`${Math.round(r.requests.average)}/s`,
			String(r.non2xx + r.errors)
		];
		return [
			row(`floor: bare Node server, ${CONNECTIONS} connections, ${DURATION} s`, bare),
			row(`floor: GET /api/health of the app, ${CONNECTIONS} connections, ${DURATION} s`, health),
			row(`POST /pnm2/send, ${CONNECTIONS} connections, ${DURATION} s`, sustained),
			[
				`POST /pnm2/multisend, 1,000 elements, ${MULTISEND_RUNS} runs`,
				`${percentile(times, 50).toFixed(1)} ms`,
				`${percentile(times, 99).toFixed(1)} ms`,
				'',
				'0'
			],
			row(`${MANY.toLocaleString('en')} more pushes`, many),
			[
				`server RSS before / after ${MANY.toLocaleString('en')} pushes`,
				`${before.toFixed(0)} MB`,
				`${after.toFixed(0)} MB`,
				'',
				''
			]
		];
	} finally {
		await app.stop();
		floor.close();
	}
}
