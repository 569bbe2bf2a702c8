import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Starts the built app for a benchmark: fresh data directory, known admin, ephemeral port. */

/** The admin the benchmarks sign in as. */
export const ADMIN = { email: 'bench@example.com', password: 'benchmark password 1' };

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

/** A running app. */
export interface BenchApp {
	base: string;
	child: ChildProcess;
	startMs: number;
	/** Resident set size of the server process, in MB. */
	rss(): number;
	/** CPU time the server process has used so far (user and system), in ms. */
	cpuMs(): number;
	/** The first 256 KB the server wrote to its log. */
	log(): string;
	/** A session cookie of the admin. */
	login(): Promise<string>;
	/** What `POST path` answers the admin signed in with `cookie`, sending `body` as JSON. */
	post<T>(cookie: string, path: string, body: unknown): Promise<T>;
	stop(): Promise<void>;
}

/** Starts `scripts/serve.js` (with extra environment) and waits until it answers. */
export async function startApp(env: Record<string, string> = {}): Promise<BenchApp> {
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
			ADMIN_PASSWORD: ADMIN.password,
			...env
		},
		// The log is read as a collector would read it (a pipe, drained), not thrown away.
		stdio: ['ignore', 'pipe', 'inherit']
	});
	let log = '';
	child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
		if (log.length < 256 * 1024) log += chunk;
	});
	await waitFor(`${base}/api/health`);
	return {
		base,
		child,
		startMs: Date.now() - started,
		rss() {
			// /proc is the cheapest way to read another process's resident set size on Linux.
			const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
			return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
		},
		cpuMs() {
			// Fields 14 and 15 of /proc/<pid>/stat (after the command's parenthesis): utime, stime,
			// in clock ticks of 10 ms (USER_HZ is 100 on Linux).
			const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			return (Number(fields[11]) + Number(fields[12])) * 10;
		},
		log: () => log,
		async login() {
			const answer = await fetch(`${base}/api/session`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', origin: base },
				body: JSON.stringify(ADMIN)
			});
			return (answer.headers.get('set-cookie') ?? '').split(';')[0];
		},
		async post<T>(cookie: string, to: string, body: unknown) {
			const answer = await fetch(`${base}${to}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', origin: base, cookie },
				body: JSON.stringify(body)
			});
			return (await answer.json()) as T;
		},
		async stop() {
			child.kill('SIGTERM');
			await new Promise((r) => child.once('exit', r));
			rmSync(dataDir, { recursive: true, force: true });
		}
	};
}

/** A loopback SMS gateway answering every request at once, for test calls to reach. */
export async function startUpstream(): Promise<{ port: number; close(): void }> {
	const upstream = http.createServer((_req, res) => {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{"sms_id":"bench-1"}');
	});
	await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
	return { port: (upstream.address() as AddressInfo).port, close: () => upstream.close() };
}

/** The app, allowed to send test calls to the loopback upstream, `inFlight` at a time. */
export function startTestCallApp(inFlight: number): Promise<BenchApp> {
	return startApp({
		OUTBOUND_ALLOW: '127.0.0.1/32',
		OUTBOUND_PORTS: '1024-65535',
		OUTBOUND_MAX_IN_FLIGHT: String(inFlight)
	});
}
