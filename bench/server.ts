import autocannon from 'autocannon';
import { startCluster } from '../scripts/postgres-cluster.js';
import { startApp } from './app';

/**
 * Profile GET and PUT latency of the built server under 20 concurrent clients for 10 s each
 * (autocannon), and the server's RSS afterwards, on SQLite and on PostgreSQL (a throw-away local
 * cluster, started here). Each client saves its own profile, chaining revisions, so every PUT is
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

/** Runs the server benchmark on both backends and returns its table rows. */
export async function benchServer(): Promise<string[][]> {
	const rows = await benchBackend('SQLite', { DATABASE_URL: '' });
	const cluster = await startCluster();
	try {
		const url = await cluster.createDatabase('bench');
		rows.push(...(await benchBackend('PostgreSQL', { DATABASE_URL: url })));
	} finally {
		await cluster.stop();
	}
	return rows;
}

async function benchBackend(backend: string, env: Record<string, string>): Promise<string[][]> {
	const app = await startApp(env);
	const base = app.base;
	try {
		const cookie = await app.login();
		const made = await fetch(`${base}/api/tokens`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', origin: base, cookie },
			body: JSON.stringify({ name: 'bench' })
		});
		const { token } = (await made.json()) as { token: string };
		const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
		const ids: string[] = [];
		for (let i = 0; i < CONNECTIONS; i++) {
			const res = await fetch(`${base}/api/profiles`, {
				method: 'POST',
				headers: auth,
				body: JSON.stringify({ name: `Bench ${i}`, document: document(0) })
			});
			ids.push(((await res.json()) as { profile: { id: string } }).profile.id);
		}

		const get = await autocannon({
			url: `${base}/api/profiles/${ids[0]}`,
			connections: CONNECTIONS,
			duration: DURATION,
			headers: auth
		});
		// autocannon resets a connection's context before each request, so the profiles are lent
		// out from a pool: taken when a request is built, given back when its answer arrives.
		const free = [...ids];
		const revisions = new Map(ids.map((id) => [id, 1]));
		const put = await autocannon({
			url: base,
			connections: CONNECTIONS,
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
		const rss = app.rss();
		const row = (label: string, r: autocannon.Result) => [
			label,
			`${r.latency.p50} ms`,
			`${r.latency.p99} ms`,
			`${Math.round(r.requests.average)}/s`,
			String(r.non2xx + r.errors)
		];
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
