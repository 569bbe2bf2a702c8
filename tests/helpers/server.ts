import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ProfileDocument, FieldChange, MergeConflict } from '../../src/lib/core/profile';
import type { ApiTokenView } from '../../src/lib/server/auth/api-tokens';
import type { AuthUser } from '../../src/lib/server/auth/auth-user';
import type { Merged, ProfileView } from '../../src/lib/server/profiles';
import type { AuditEntry, ProfileRow, RevisionRow } from '../../src/lib/server/store/types';
import type { UserView } from '../../src/lib/server/auth/users';
import { SETTINGS } from '../../src/lib/server/platform/environment';

/**
 * The real built server (`node scripts/serve.js`) as a child process on 127.0.0.1 and an
 * ephemeral port, for the tests under `tests/server/`. Every server started here is tracked:
 * `stopAllServers()` (in `afterAll`) stops them, and a process `exit` hook kills any left, so a
 * server never outlives the tests.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVE = path.join(ROOT, 'scripts/serve.js');

/**
 * Environment variables of the app (its one schema of them, with the `_FILE` of each secret)
 * that the tests set explicitly, never inherit.
 */
const APP_ENV = SETTINGS.flatMap((s) => (s.secret ? [s.name, `${s.name}_FILE`] : [s.name]));

/** How a server is started. */
export interface StartOptions {
	/** The data directory; a fresh temporary one by default. */
	dataDir?: string;
	/** App configuration (ADMIN_EMAIL, SESSION_IDLE_MINUTES, …). */
	env?: Record<string, string>;
	/** How long to wait for `GET /api/health`; 20 s by default. */
	readyTimeoutMs?: number;
	/**
	 * What counts as started: `healthy` (default) waits for a 200 from `GET /api/health`,
	 * `answering` for any answer (an app whose database is gone answers 503).
	 */
	until?: 'healthy' | 'answering';
}

/** A running server. */
export interface TestServer {
	/** `http://127.0.0.1:<port>`. */
	url: string;
	port: number;
	dataDir: string;
	/** Everything the server printed on stdout so far. */
	stdout(): string;
	/** Everything the server printed on stderr so far. */
	stderr(): string;
	/** SIGTERM, then SIGKILL if it has not exited after 8 s; resolves once it has exited. */
	stop(): Promise<void>;
	/** SIGKILL (a crash); resolves once it has exited. */
	kill(): Promise<void>;
	/**
	 * Sends `signal` (a graceful stop) and resolves with the exit code once the process has
	 * exited; SIGKILL after `killAfterMs` (40 s) if it has not.
	 */
	terminate(signal?: 'SIGTERM' | 'SIGINT', killAfterMs?: number): Promise<number | null>;
}

const running = new Set<ChildProcess>();
/** The origins of the app servers started here (their answers are held to the API's document). */
const appOrigins = new Set<string>();

/** Whether `url` is an address of an app server these tests started. */
export function isAppOrigin(url: string): boolean {
	try {
		return appOrigins.has(new URL(url).origin);
	} catch {
		return false;
	}
}
const dataDirs = new Set<string>();

process.on('exit', () => {
	for (const child of running) child.kill('SIGKILL');
});

/** A fresh temporary data directory, removed by {@link stopAllServers}. */
export async function makeDataDir(): Promise<string> {
	const dir = await mkdtemp(path.join(tmpdir(), 'ps-server-test-'));
	dataDirs.add(dir);
	return dir;
}

/** A port that was free a moment ago (listen on port 0, read it, close). */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer();
		probe.once('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			probe.close(() => resolve(port));
		});
	});
}

function exited(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => child.once('exit', () => resolve()));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function healthy(url: string, anyAnswer = false): Promise<boolean> {
	try {
		const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(3000) });
		await response.body?.cancel();
		return anyAnswer || response.status === 200;
	} catch {
		return false;
	}
}

/** The scrypt cost of test servers' password hashes (the app's default is 17). */
export const TEST_PASSWORD_COST = '12';

async function startOnce(dataDir: string, options: StartOptions): Promise<TestServer | null> {
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const env: NodeJS.ProcessEnv = { ...process.env };
	for (const name of APP_ENV) delete env[name];
	// Test servers hash passwords at a low cost (a full-cost hash takes half a second of a core
	// here, and the tests make hundreds); a test of the cost itself sets it.
	Object.assign(env, { PASSWORD_HASH_COST: TEST_PASSWORD_COST }, options.env, {
		NODE_ENV: 'production',
		HOST: '127.0.0.1',
		PORT: String(port),
		DATA_DIR: dataDir
	});
	const child = spawn(process.execPath, [SERVE], { cwd: ROOT, env, stdio: 'pipe' });
	running.add(child);
	appOrigins.add(url);
	child.once('exit', () => running.delete(child));
	let out = '';
	let err = '';
	child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
	child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));

	const deadline = Date.now() + (options.readyTimeoutMs ?? 20_000);
	while (!(await healthy(url, options.until === 'answering'))) {
		if (child.exitCode !== null || child.signalCode !== null) {
			// The port may have been taken between the probe and the listen: try another one.
			if (/EADDRINUSE/.test(err)) return null;
			throw new Error(`The server exited before answering (${child.exitCode}):\n${out}\n${err}`);
		}
		if (Date.now() > deadline) {
			child.kill('SIGKILL');
			await exited(child);
			throw new Error(`The server did not answer /api/health in time:\n${out}\n${err}`);
		}
		await sleep(50);
	}

	return {
		url,
		port,
		dataDir,
		stdout: () => out,
		stderr: () => err,
		async stop() {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
			const timer = setTimeout(() => child.kill('SIGKILL'), 8000);
			await exited(child);
			clearTimeout(timer);
		},
		async kill() {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
			await exited(child);
		},
		async terminate(signal = 'SIGTERM', killAfterMs = 40_000) {
			if (child.exitCode === null && child.signalCode === null) child.kill(signal);
			const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
			await exited(child);
			clearTimeout(timer);
			return child.exitCode;
		}
	};
}

/** Starts the built server and waits until `GET /api/health` answers. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
	const dataDir = options.dataDir ?? (await makeDataDir());
	for (let attempt = 0; attempt < 3; attempt++) {
		const server = await startOnce(dataDir, options);
		if (server) return server;
	}
	throw new Error('No free port found for the server after 3 attempts.');
}

/** Stops every server still running (SIGKILL) and removes the temporary data directories. */
export async function stopAllServers(): Promise<void> {
	const children = [...running];
	for (const child of children) child.kill('SIGKILL');
	await Promise.all(children.map(exited));
	const dirs = [...dataDirs];
	dataDirs.clear();
	await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
}

/** A request as the client sends it: `json` is sent as an `application/json` body. */
export interface ClientRequest extends Omit<RequestInit, 'body'> {
	json?: unknown;
	body?: string;
	/** Leave out the same-origin `Origin` header a browser would send. */
	noOrigin?: boolean;
}

/** The fields of the API's JSON answers, all optional (which ones come depends on the route). */
export interface ApiAnswer {
	error?: { code: string; message: string };
	issues?: { code: string; path: (string | number)[]; message: string }[];
	user?: AuthUser & Partial<UserView>;
	users?: UserView[];
	profile?: ProfileView;
	profiles?: ProfileRow[];
	current?: ProfileView;
	yours?: ProfileDocument;
	conflicts?: MergeConflict[];
	merged?: Merged;
	revisions?: Omit<RevisionRow, 'document' | 'secrets'>[];
	from?: number;
	to?: number;
	changes?: FieldChange[];
	entries?: AuditEntry[];
	tokens?: ApiTokenView[];
	token?: string;
	info?: ApiTokenView;
}

/** A parsed answer. */
export interface ClientResponse<T = ApiAnswer> {
	status: number;
	headers: Headers;
	body: T;
	/** The body as received. */
	text: string;
}

function parse(text: string): unknown {
	try {
		const value: unknown = JSON.parse(text);
		return typeof value === 'object' && value !== null ? value : {};
	} catch {
		return {};
	}
}

/**
 * A browser-like client of one server: a cookie jar (the session cookie), a same-origin
 * `Origin` header on every request, and `content-type: application/json` for JSON bodies. With
 * a `token`, it authenticates with `Authorization: Bearer` instead and sends no cookie.
 */
export class Client {
	/** The session cookie's value, when there is one. */
	session: string | undefined;

	constructor(
		readonly server: Pick<TestServer, 'url'>,
		readonly token?: string
	) {}

	/** A client of the same server that authenticates with an API token. */
	withToken(token: string): Client {
		return new Client(this.server, token);
	}

	/** Signs in (`POST /api/session`); the answer's cookie replaces the jar's. */
	async login(email: string, password: string): Promise<ClientResponse> {
		return this.json('/api/session', { method: 'POST', json: { email, password } });
	}

	/** Sends a request with the jar's cookie (or the token) and keeps any new session cookie. */
	async fetch(pathname: string, init: ClientRequest = {}): Promise<Response> {
		const { json, noOrigin, ...rest } = init;
		const headers = new Headers(init.headers);
		if (!noOrigin && !headers.has('origin')) headers.set('origin', new URL(this.server.url).origin);
		if (this.token) headers.set('authorization', `Bearer ${this.token}`);
		else if (this.session) headers.set('cookie', `ps_session=${this.session}`);
		let body = init.body;
		if (json !== undefined) {
			body = JSON.stringify(json);
			if (!headers.has('content-type')) headers.set('content-type', 'application/json');
		}
		const response = await fetch(this.server.url + pathname, {
			redirect: 'manual',
			...rest,
			headers,
			body
		});
		this.keepCookies(response);
		return response;
	}

	/** {@link fetch}, with the body parsed as JSON (`{}` when it is empty or not JSON). */
	async json<T = ApiAnswer>(
		pathname: string,
		init: ClientRequest = {}
	): Promise<ClientResponse<T>> {
		const response = await this.fetch(pathname, init);
		const text = await response.text();
		return { status: response.status, headers: response.headers, body: parse(text) as T, text };
	}

	private keepCookies(response: Response): void {
		for (const line of response.headers.getSetCookie()) {
			const match = /^ps_session=([^;]*)/.exec(line);
			if (!match) continue;
			const expired = /;\s*max-age=0/i.test(line) || match[1] === '';
			this.session = expired ? undefined : match[1];
		}
	}
}
