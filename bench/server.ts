import autocannon from 'autocannon';
import { startCluster } from '../scripts/postgres-cluster.js';
import { startApp, type BenchApp } from './app';

/**
 * Profile GET and PUT latency of the built server under 20 concurrent clients for 10 s each
 * (autocannon), and the server's RSS afterwards, on SQLite and on PostgreSQL (a throw-away local
 * cluster, started here), on PostgreSQL with one instance and with two sharing the clients. Each client saves its own profile, chaining revisions, so every PUT is
 * a real save and not a conflict.
 */

const CONNECTIONS = 20;
const DURATION = 10;

function document(n: number) {
	return {
		services: {
			sendMessage: {
				genericSmsSendUrl: `https://sms.example.com/send?to=%sms_to%&n=${n}`,
				genericSmsSendPostData: '{"to":"%sms_to%","body":"%sms_body%"}',
				genericSmsSendContentType: 'application/json'
			}
		},
		scenarios: [{ name: 'Text message', values: { sms_to: '+14155550123', sms_body: 'Hi' } }]
	};
}

/** Which parts of the server benchmark run. */
export interface ServerBenchOptions {
	/** The one-instance figures on SQLite; on by default. */
	sqlite?: boolean;
}

/**
 * Runs the server benchmark and returns its table rows: SQLite, PostgreSQL with one instance,
 * and PostgreSQL with two instances on the same database and the same 20 clients split between
 * them (10 each), as behind a load balancer. `npm run bench -- instances` runs the PostgreSQL
 * part alone.
 */
export async function benchServer(options: ServerBenchOptions = {}): Promise<string[][]> {
	const rows = options.sqlite === false ? [] : await benchBackend('SQLite', { DATABASE_URL: '' });
	const cluster = await startCluster();
	try {
		const one = await cluster.createDatabase('bench');
		rows.push(...(await benchBackend('PostgreSQL', { DATABASE_URL: one })));
		const two = await cluster.createDatabase('bench_two');
		rows.push(...(await benchInstances({ DATABASE_URL: two })));
	} finally {
		await cluster.stop();
	}
	return rows;
}

/** An API token of the admin, and `count` profiles to read and save, made through `app`. */
async function prepare(app: BenchApp, count: number, token?: string) {
	const base = app.base;
	if (!token) {
		const cookie = await app.login();
		const made = await fetch(`${base}/api/tokens`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', origin: base, cookie },
			body: JSON.stringify({ name: 'bench' })
		});
		token = ((await made.json()) as { token: string }).token;
	}
	const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		const res = await fetch(`${base}/api/profiles`, {
			method: 'POST',
			headers: auth,
			body: JSON.stringify({ name: `Bench ${i}`, document: document(0) })
		});
		ids.push(((await res.json()) as { profile: { id: string } }).profile.id);
	}
	return { token, auth, ids };
}

/** `connections` clients reading one profile of `ids` through `base` for the benchmark's time. */
function getLoad(base: string, auth: Record<string, string>, ids: string[], connections: number) {
	return autocannon({
		url: `${base}/api/profiles/${ids[0]}`,
		connections,
		duration: DURATION,
		headers: auth
	});
}

/**
 * `connections` clients saving the profiles of `ids` through `base`, each save on the revision
 * the last one made, so every PUT is a real save and not a conflict.
 */
function putLoad(base: string, auth: Record<string, string>, ids: string[], connections: number) {
	// autocannon resets a connection's context before each request, so the profiles are lent
	// out from a pool: taken when a request is built, given back when its answer arrives.
	const free = [...ids];
	const revisions = new Map(ids.map((id) => [id, 1]));
	return autocannon({
		url: base,
		connections,
		duration: DURATION,
		headers: auth,
		requests: [
			{
				method: 'PUT',
				setupRequest: (req, context: Record<string, unknown>) => {
					const id = free.shift() ?? ids[0];
					context.id = id;
					const n = revisions.get(id)!;
					return {
						...req,
						path: `/api/profiles/${id}`,
						body: JSON.stringify({ baseRevision: n, document: document(n) })
					};
				},
				onResponse: (status, _body, context: Record<string, unknown>) => {
					const id = context.id as string;
					if (status === 200) revisions.set(id, revisions.get(id)! + 1);
					free.push(id);
				}
			}
		]
	});
}

function row(label: string, r: autocannon.Result): string[] {
	return [
		label,
		`${r.latency.p50} ms`,
		`${r.latency.p99} ms`,
		`${Math.round(r.requests.average)}/s`,
		String(r.non2xx + r.errors)
	];
}

async function benchBackend(backend: string, env: Record<string, string>): Promise<string[][]> {
	const app = await startApp(env);
	try {
		const { auth, ids } = await prepare(app, CONNECTIONS);
		const get = await getLoad(app.base, auth, ids, CONNECTIONS);
		const put = await putLoad(app.base, auth, ids, CONNECTIONS);
		const rss = app.rss();
		return [
			row(`${backend}: GET /api/profiles/:id`, get),
			row(`${backend}: PUT /api/profiles/:id`, put),
			[`${backend}: server start to first answer`, `${app.startMs} ms`, '', '', ''],
			[`${backend}: server RSS afterwards`, `${rss.toFixed(0)} MB`, '', '', '']
		];
	} finally {
		await app.stop();
	}
}

/**
 * Two instances on one PostgreSQL database, each taking half of the clients at the same time:
 * the throughput is the sum of both, the latencies are each instance's (A / B), and each
 * instance saves profiles of its own, so no save conflicts with the other's.
 */
async function benchInstances(env: Record<string, string>): Promise<string[][]> {
	// One after the other: the first creates the schema and the admin.
	const a = await startApp(env);
	const b = await startApp(env).catch(async (error: unknown) => {
		await a.stop();
		throw error;
	});
	try {
		const half = CONNECTIONS / 2;
		const onA = await prepare(a, half);
		// The token made through A works on B: the two share the database.
		const onB = await prepare(b, half, onA.token);
		const both = async (load: typeof getLoad) =>
			Promise.all([load(a.base, onA.auth, onA.ids, half), load(b.base, onB.auth, onB.ids, half)]);
		const gets = await both(getLoad);
		const puts = await both(putLoad);
		const combined = (label: string, [x, y]: autocannon.Result[]) => [
			label,
			`${x.latency.p50} / ${y.latency.p50} ms`,
			`${x.latency.p99} / ${y.latency.p99} ms`,
			`${Math.round(x.requests.average + y.requests.average)}/s`,
			String(x.non2xx + x.errors + y.non2xx + y.errors)
		];
		return [
			combined('PostgreSQL, 2 instances (A / B): GET /api/profiles/:id', gets),
			combined('PostgreSQL, 2 instances (A / B): PUT /api/profiles/:id', puts),
			[
				'PostgreSQL, 2 instances: RSS afterwards (A / B)',
				`${a.rss().toFixed(0)} / ${b.rss().toFixed(0)} MB`,
				'',
				'',
				''
			]
		];
	} finally {
		await Promise.all([a.stop(), b.stop()]);
	}
}
