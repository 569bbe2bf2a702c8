import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Profile GET and PUT latency of the built server under 20 concurrent clients for 10 s each
 * (autocannon), and the server's RSS afterwards. Each client saves its own profile, chaining
 * revisions, so every PUT is a real save and not a conflict.
 */

const ADMIN = { email: 'bench@example.com', password: 'benchmark password 1' };
const CONNECTIONS = 20;
const DURATION = 10;

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer();
		probe.once('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const { port } = probe.address() as { port: number };
			probe.close(() => resolve(port));
		});
	});
}

async function waitFor(url: string, ms = 20_000): Promise<void> {
	const until = Date.now() + ms;
	while (Date.now() < until) {
		try {
			if ((await fetch(url)).ok) return;
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 100));
	}
	throw new Error(`The server did not answer ${url} within ${ms} ms`);
}

function rssOf(pid: number): number {
	// /proc is the cheapest way to read another process's resident set size on Linux.
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
	return kb / 1024;
}

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

/** Runs the server benchmark and returns its table rows. */
export async function benchServer(): Promise<string[][]> {
	const dataDir = mkdtempSync(path.join(tmpdir(), 'ps-bench-'));
	const port = await freePort();
	const base = `http://127.0.0.1:${port}`;
	const started = Date.now();
	const child = spawn(process.execPath, ['scripts/serve.js'], {
		env: {
			...process.env,
			PORT: String(port),
			HOST: '127.0.0.1',
			DATA_DIR: dataDir,
			ADMIN_EMAIL: ADMIN.email,
			ADMIN_PASSWORD: ADMIN.password
		},
		stdio: ['ignore', 'ignore', 'inherit']
	});
	try {
		await waitFor(`${base}/api/health`);
		const startMs = Date.now() - started;
		const login = await fetch(`${base}/api/session`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', origin: base },
			body: JSON.stringify(ADMIN)
		});
		const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
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
		const rss = rssOf(child.pid!);
		const row = (label: string, r: autocannon.Result) => [
			label,
			`${r.latency.p50} ms`,
			`${r.latency.p99} ms`,
			`${Math.round(r.requests.average)}/s`,
			String(r.non2xx + r.errors)
		];
		return [
			row('GET /api/profiles/:id', get),
			row('PUT /api/profiles/:id', put),
			['server start to first answer', `${startMs} ms`, '', '', ''],
			['server RSS afterwards', `${rss.toFixed(0)} MB`, '', '', '']
		];
	} finally {
		child.kill('SIGTERM');
		await new Promise((r) => child.once('exit', r));
		rmSync(dataDir, { recursive: true, force: true });
	}
}
