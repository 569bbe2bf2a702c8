import { Agent, Client, request } from 'undici';
import { startTestCallApp, startUpstream } from './app';
import { load } from './sandbox';

/**
 * Each path the start script serves before the kit, with and without it, in one server: the
 * kit's router decodes `%73` to `s` and `%6E` to `n`, the start script takes only the paths as
 * written, so the same request under the other spelling is the kit's. Measured on what the user
 * waits for, each pair back to back and every pair twice: the time a test call adds to a direct
 * request, pushes a second, the document's download, the editor page's scripts all asked for at
 * once on a new tab's six connections. A path pays for itself when it changes its
 * figure by more than a fifth.
 */

const REPEATS = 2;
const TEST_CALL_WARM_UP = 300;
const TEST_CALL_RUNS = 1000;
const DOCUMENT_RUNS = 500;
const PUSH_SECONDS = 5;
const CONNECTIONS = 50;
const SCRIPT_RUNS = 200;
/** A browser's connections to one host over HTTP/1.1. */
const BROWSER_CONNECTIONS = 6;

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
};

/** Milliseconds from the request to its answer's last byte; a status of 300 or more throws. */
async function timed(request: () => Promise<Response | Awaited<ReturnType<Client['request']>>>) {
	const t0 = performance.now();
	const answer = await request();
	const status = 'statusCode' in answer ? answer.statusCode : answer.status;
	if ('statusCode' in answer) await answer.body.text();
	else await answer.arrayBuffer();
	if (status >= 300) throw new Error(`status ${status}`);
	return performance.now() - t0;
}

/** A figure with and without the path; `better` says which way is an improvement. */
interface Pair {
	figure: string;
	direct: number;
	kit: number;
	unit: string;
	better: 'lower' | 'higher';
}

export async function benchDirectPaths(): Promise<string[][]> {
	const upstream = await startUpstream();
	const port = upstream.port;
	const app = await startTestCallApp(CONNECTIONS);
	try {
		const cookie = await app.login();
		const { token } = await app.post<{ token: string }>(cookie, '/api/tokens', { name: 'bench' });
		const { sandbox } = await app.post<{ sandbox: { pushUrl: string } }>(cookie, '/api/sandboxes', {
			name: 'bench'
		});

		const toApp = new Client(app.base, { pipelining: 1 });
		const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
		const body = JSON.stringify({
			service: 'sendMessage',
			settings: { genericSmsSendUrl: `http://127.0.0.1:${port}/send?to=%sms_to%` },
			values: { sms_to: '+14155550123' }
		});
		const testCall = (path: string) => () =>
			timed(() => toApp.request({ method: 'POST', path, headers, body }));
		// A new connection per call, as a test call opens one.
		const direct = async () => {
			const client = new Client(`http://127.0.0.1:${port}`, { pipelining: 1 });
			try {
				return await timed(() => client.request({ method: 'GET', path: '/send?to=%2B1' }));
			} finally {
				void client.close();
			}
		};
		/** The p50 a test call adds to the direct request, through each way, interleaved call by call. */
		const addedByTestCalls = async () => {
			const kinds = [direct, testCall('/api/test-calls'), testCall('/api/test-call%73')];
			const times: number[][] = kinds.map(() => []);
			for (let i = 0; i < TEST_CALL_WARM_UP + TEST_CALL_RUNS; i++) {
				for (let j = 0; j < kinds.length; j++) {
					const k = (i + j) % kinds.length;
					const ms = await kinds[k]();
					if (i >= TEST_CALL_WARM_UP) times[k].push(ms);
				}
			}
			const [d, viaDirect, viaKit] = times.map(median);
			return { direct: viaDirect - d, kit: viaKit - d };
		};

		const pushes = async (url: string) => {
			const result = await load(url, undefined, PUSH_SECONDS);
			if (result.non2xx + result.errors > 0) throw new Error(`${url}: refused pushes`);
			return result.requests.average;
		};
		const send = `${sandbox.pushUrl}/pnm2/send`;

		/** The document's p50 to its last byte, gzip accepted, one request at a time, alternating. */
		const downloads = async () => {
			const ways = ['/api/openapi.json', '/api/openapi.jso%6E'];
			const times: number[][] = [[], []];
			for (let i = 0; i < DOCUMENT_RUNS + 50; i++) {
				for (const [k, path] of ways.entries()) {
					const get = () => fetch(`${app.base}${path}`, { headers: { 'accept-encoding': 'gzip' } });
					const ms = await timed(get);
					if (i >= 50) times[k].push(ms);
				}
			}
			return { direct: median(times[0]), kit: median(times[1]) };
		};

		/**
		 * The editor page's scripts as its `Link` header lists them, all asked for at once over six
		 * new connections with Brotli taken, as a new tab does: the p50 to the last byte of the
		 * last, each way in turn.
		 */
		const { profile } = await app.post<{ profile: { id: string } }>(cookie, '/api/profiles', {
			name: 'bench scripts'
		});
		const page = await fetch(`${app.base}/profiles/${profile.id}/services/sendMessage`, {
			headers: { cookie }
		});
		const scripts = [...(page.headers.get('link') ?? '').matchAll(/<([^>]+\.js)>/g)].map(
			(m) => m[1]
		);
		if (scripts.length === 0) throw new Error('The editor page lists no scripts to preload.');
		const allScripts = async (spelling: (path: string) => string) => {
			const agent = new Agent({ connections: BROWSER_CONNECTIONS });
			try {
				const t0 = performance.now();
				const statuses = await Promise.all(
					scripts.map(async (path) => {
						const answer = await request(app.base + spelling(path), {
							dispatcher: agent,
							headers: { 'accept-encoding': 'gzip, deflate, br' }
						});
						await answer.body.arrayBuffer();
						return answer.statusCode;
					})
				);
				if (statuses.some((status) => status !== 200)) throw new Error(`statuses ${statuses}`);
				return performance.now() - t0;
			} finally {
				await agent.close();
			}
		};
		const scriptLoads = async () => {
			const ways = [(p: string) => p, (p: string) => p.replace('/immutable/', '/immutabl%65/')];
			const times: number[][] = [[], []];
			for (let i = 0; i < SCRIPT_RUNS + 20; i++) {
				for (const [k, way] of ways.entries()) {
					const ms = await allScripts(way);
					if (i >= 20) times[k].push(ms);
				}
			}
			return { direct: median(times[0]), kit: median(times[1]) };
		};

		// Unmeasured: the server has just started and is still compiling.
		await pushes(send);
		await pushes(send.replace('/sandbox/', '/%73andbox/'));

		const pairs: Pair[] = [];
		for (let round = 1; round <= REPEATS; round++) {
			const added = await addedByTestCalls();
			pairs.push({ figure: 'test call, added p50', ...added, unit: 'ms', better: 'lower' });
			const viaDirect = await pushes(send);
			const viaKit = await pushes(send.replace('/sandbox/', '/%73andbox/'));
			pairs.push({
				figure: `pushes a second, ${CONNECTIONS} connections`,
				direct: viaDirect,
				kit: viaKit,
				unit: '/s',
				better: 'higher'
			});
			const document = await downloads();
			pairs.push({ figure: 'API document download p50', ...document, unit: 'ms', better: 'lower' });
			pairs.push({
				figure: `the editor page's ${scripts.length} scripts at once, to the last byte p50`,
				...(await scriptLoads()),
				unit: 'ms',
				better: 'lower'
			});
		}
		await toApp.close();

		const shown = (value: number, unit: string) =>
			unit === 'ms' ? `${value.toFixed(2)} ms` : `${Math.round(value)}${unit}`;
		return pairs.map((pair, i) => {
			// How much worse the figure is without the path, as a share of today's figure (with it).
			const change = (pair.kit - pair.direct) / pair.direct;
			const worse = pair.better === 'lower' ? change : -change;
			return [
				`${pair.figure} (round ${Math.floor(i / (pairs.length / REPEATS)) + 1})`,
				shown(pair.direct, pair.unit),
				shown(pair.kit, pair.unit),
				`${worse >= 0 ? '+' : ''}${(worse * 100).toFixed(0)} %`,
				worse > 0.2 ? 'keep' : 'remove'
			];
		});
	} finally {
		await app.stop();
		upstream.close();
	}
}
