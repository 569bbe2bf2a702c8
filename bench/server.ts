import autocannon from 'autocannon';
import { startCluster } from '../scripts/postgres-cluster.js';
import { startApp, type BenchApp } from './app';

/**
 * Profile GET and PUT latency of the built server under 20 concurrent clients for 10 s each
 * (autocannon, after 3 s of the same load unmeasured), the app's CPU time per request, and the
 * server's RSS afterwards: on SQLite, on PostgreSQL (a throw-away local cluster, started here),
 * and with two instances on one PostgreSQL sharing the clients. Each client saves its own
 * profile, chaining revisions, so every PUT is a real save and not a conflict.
 */

const CONNECTIONS = 20;
const DURATION = 10;
/** Seconds of the same load before each measured run, unmeasured: the JIT warms up first. */
const WARMUP = 3;
/** The next base revision of each profile the benchmark saves (1 when it has not saved it). */
const revisions = new Map<string, number>();

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
function getLoad(
	base: string,
	auth: Record<string, string>,
	ids: string[],
	connections: number,
	duration = DURATION
) {
	return autocannon({
		url: `${base}/api/profiles/${ids[0]}`,
		connections,
		duration,
		headers: auth
	});
}

/**
 * `connections` clients saving the profiles of `ids` through `base`, each save on the revision
 * the last one made, so every PUT is a real save and not a conflict.
 */
function putLoad(
	base: string,
	auth: Record<string, string>,
	ids: string[],
	connections: number,
	duration = DURATION
) {
	// autocannon resets a connection's context before each request, so the profiles are lent
	// out from a pool: taken when a request is built, given back when its answer arrives.
	const free = [...ids];
	return autocannon({
		url: base,
		connections,
		duration,
		headers: auth,
		requests: [
			{
				method: 'PUT',
				setupRequest: (req, context: Record<string, unknown>) => {
					const id = free.shift() ?? ids[0];
					context.id = id;
					const n = revisions.get(id) ?? 1;
					return {
						...req,
						path: `/api/profiles/${id}`,
						body: JSON.stringify({ baseRevision: n, document: document(n) })
					};
				},
				onResponse: (status, _body, context: Record<string, unknown>) => {
					const id = context.id as string;
					if (status === 200) revisions.set(id, (revisions.get(id) ?? 1) + 1);
					free.push(id);
				}
			}
		]
	});
}

/**
 * Reads the profiles' revisions back: a run stopped at its time with saves in flight, which the
 * server made though the run counted no answer. Read until two readings a quarter of a second
 * apart agree, so a save still being made when the run stopped is counted too (a revision read
 * before it lands would make every later save of that profile a conflict).
 */
async function syncRevisions(base: string, auth: Record<string, string>, ids: string[]) {
	const read = async () => {
		const found: number[] = [];
		for (const id of ids) {
			const answer = await fetch(`${base}/api/profiles/${id}`, { headers: auth });
			const { profile } = (await answer.json()) as { profile: { revision: number } };
			found.push(profile.revision);
		}
		return found;
	};
	let last = await read();
	for (;;) {
		await new Promise((resolve) => setTimeout(resolve, 250));
		const now = await read();
		if (now.every((revision, i) => revision === last[i])) break;
		last = now;
	}
	ids.forEach((id, i) => revisions.set(id, last[i]));
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

/**
 * The app's own CPU time per answered request (all its processes together), GET and PUT: the
 * cost of a request whatever else the machine runs.
 */
function cpuRow(
	label: string,
	getMs: number,
	gets: autocannon.Result[],
	putMs: number,
	puts: autocannon.Result[]
): string[] {
	const per = (ms: number, results: autocannon.Result[]) =>
		(ms / results.reduce((sum, r) => sum + r.requests.total, 0)).toFixed(2);
	return [
		`${label}: app CPU per request (GET · PUT)`,
		`${per(getMs, gets)} · ${per(putMs, puts)} ms`,
		'',
		'',
		''
	];
}

async function benchBackend(backend: string, env: Record<string, string>): Promise<string[][]> {
	const app = await startApp(env);
	try {
		const { auth, ids } = await prepare(app, CONNECTIONS);
		await getLoad(app.base, auth, ids, CONNECTIONS, WARMUP);
		const cpu0 = app.cpuMs();
		const get = await getLoad(app.base, auth, ids, CONNECTIONS);
		await putLoad(app.base, auth, ids, CONNECTIONS, WARMUP);
		await syncRevisions(app.base, auth, ids);
		const cpu1 = app.cpuMs();
		const put = await putLoad(app.base, auth, ids, CONNECTIONS);
		const cpu2 = app.cpuMs();
		const rss = app.rss();
		return [
			row(`${backend}: GET /api/profiles/:id`, get),
			row(`${backend}: PUT /api/profiles/:id`, put),
			cpuRow(backend, cpu1 - cpu0, [get], cpu2 - cpu1, [put]),
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
		const both = async (load: typeof getLoad, duration = DURATION) =>
			Promise.all([
				load(a.base, onA.auth, onA.ids, half, duration),
				load(b.base, onB.auth, onB.ids, half, duration)
			]);
		const cpu = () => a.cpuMs() + b.cpuMs();
		await both(getLoad, WARMUP);
		const cpu0 = cpu();
		const gets = await both(getLoad);
		await both(putLoad, WARMUP);
		await syncRevisions(a.base, onA.auth, [...onA.ids, ...onB.ids]);
		const cpu1 = cpu();
		const puts = await both(putLoad);
		const cpu2 = cpu();
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
			cpuRow('PostgreSQL, 2 instances', cpu1 - cpu0, gets, cpu2 - cpu1, puts),
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
