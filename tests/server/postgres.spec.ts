import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../scripts/postgres-cluster.js';
import type { FlowRunView } from '../../src/lib/server/flows';
import { MIGRATIONS } from '../../src/lib/server/store/migrations';
import {
	ADMIN,
	ADMIN_ENV,
	createProfile,
	createUser,
	profileDocument,
	sleep
} from '../helpers/fixtures';
import { afterEnding, openFeed } from '../helpers/feeds';
import { providerProfile, startProvider, type Provider } from '../helpers/provider';
import { Client, startServer, stopAllServers, type TestServer } from '../helpers/server';
import { sse, type StreamEvent } from '../helpers/sse';

/**
 * The app on PostgreSQL (DATABASE_URL), against a throw-away cluster this file starts: the
 * health check names the database; two app processes on one database let exactly one of two
 * saves on the same base land; secrets reach the database sealed; the audit log refuses changes;
 * and an outage of the database (the server stopped with requests inside it, and started again)
 * answers 503 on the health check and clean errors elsewhere, in flight too, loses nothing
 * saved before, and heals by itself. The two processes behave as one app: a session or an API
 * token made on one works on the other, a live stream served by one shows what the other
 * recorded (A listening for notifications, B polling) and ends when its caller's access ends
 * through the other (a quiet one too, on the news or B's poll alone), and the sign-in limit, a sandbox's push
 * limit and the test calls in flight count on both together; the health check says how each hears of the other's live records. A messaging
 * run on one is followed live on either, from the first item or resumed, by its user alone. Starting while
 * the database is down and a pooler that swallows notifications: postgres-start.spec.ts. The
 * rest of the server tests run on SQLite; the store's own tests cover both.
 */

const SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
const PASSWORD = 'a-secret-cloud-password-4711';

let cluster: Cluster;
let url: string;
let a: TestServer;
let b: TestServer;
let adminA: Client;
let adminB: Client;
let sql: pg.Client | undefined;
const providers: Provider[] = [];

async function query(text: string, values: unknown[] = []) {
	if (!sql) {
		sql = new pg.Client({ connectionString: url });
		await sql.connect();
	}
	return (await sql.query(text, values)).rows;
}

beforeAll(async () => {
	cluster = await startCluster();
	url = await cluster.createDatabase('studio');
	const env = {
		...ADMIN_ENV,
		DATABASE_URL: url,
		SECRET_KEY,
		// Test calls may reach this file's upstream on 127.0.0.1, two at a time per user.
		OUTBOUND_ALLOW: '127.0.0.1/32',
		OUTBOUND_PORTS: '1024-65535',
		OUTBOUND_MAX_IN_FLIGHT: '2'
	};
	// One after the other: the first creates the admin.
	a = await startServer({ env });
	// B polls for live records, as behind a pooler in transaction mode; A listens.
	b = await startServer({ env: { ...env, LIVE_UPDATES: 'poll' } });
	adminA = new Client(a);
	adminB = new Client(b);
	expect((await adminA.login(ADMIN.email, ADMIN.password)).status).toBe(200);
	expect((await adminB.login(ADMIN.email, ADMIN.password)).status).toBe(200);
}, 120_000);

afterAll(async () => {
	await Promise.all(providers.map((p) => p.stop()));
	await sql?.end().catch(() => undefined);
	await stopAllServers();
	await cluster?.stop();
});

/**
 * A new editor's live feeds: a sink's on A (listening) with an API token, and one of `kind` on B
 * (polling) with a session there; `revokeThroughB` revokes the token through B.
 */
async function feedsOnBoth(email: string, kind: 'sink' | 'sandbox') {
	const user = await createUser(adminA, 'editor', email);
	const onB = new Client(b);
	expect((await onB.login(user.email, user.password)).status).toBe(200);
	const made = await user.client.json('/api/tokens', { method: 'POST', json: { name: 'feed' } });
	expect(made.status).toBe(201);
	const onA = await openFeed('sink', adminA, user.client.withToken(made.body.token!));
	const polled = await openFeed(kind, adminB, onB);
	async function revokeThroughB() {
		const revoked = await onB.fetch(`/api/tokens/${made.body.info!.id}`, { method: 'DELETE' });
		expect(revoked.status).toBe(204);
	}
	return { user, onA, polled, revokeThroughB };
}

describe('the app on PostgreSQL', () => {
	it('reports the database in its health check', async () => {
		const health = await fetch(`${a.url}/api/health`);
		expect(health.status).toBe(200);
		expect(await health.json()).toMatchObject({
			ok: true,
			database: { backend: 'postgres', ok: true }
		});
	});

	it('says in its health check how live records of the other instance reach it', async () => {
		// A proves at start that it hears its own notification; B was told to poll.
		let live: unknown;
		for (let i = 0; i < 100; i++) {
			live = ((await (await fetch(`${a.url}/api/health`)).json()) as { liveUpdates: unknown })
				.liveUpdates;
			if ((live as { mode: string }).mode !== 'connecting') break;
			await sleep(100);
		}
		expect(live).toEqual({ mode: 'notify' });
		expect(await (await fetch(`${b.url}/api/health`)).json()).toMatchObject({
			ok: true,
			liveUpdates: {
				mode: 'poll',
				message: 'LIVE_UPDATES=poll: live pages ask the database every 1000 ms.'
			}
		});
		expect(b.stderr()).not.toMatch(/does not reach this instance/);
	});

	it('keeps its data in PostgreSQL, with the migrations recorded once', async () => {
		expect(await query('SELECT email FROM users')).toEqual([{ email: ADMIN.email }]);
		expect((await query('SELECT version FROM schema_migrations ORDER BY version')).length).toBe(
			MIGRATIONS.length
		);
	});

	it('lands exactly one of two saves on the same base made through two app processes', async () => {
		const id = await createProfile(adminA, 'Contended');
		for (let base = 1; base <= 5; base++) {
			const answers = await Promise.all(
				[adminA, adminB].map((client, i) =>
					client.json(`/api/profiles/${id}`, {
						method: 'PUT',
						json: {
							baseRevision: base,
							document: profileDocument({ sms_body: `base ${base} from ${i}` })
						}
					})
				)
			);
			expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
			const lost = answers.find((x) => x.status === 409)!;
			expect(lost.body.error?.code).toBe('conflict');
			expect(lost.body.current).toMatchObject({ revision: base + 1 });
		}
		const revisions = await query('SELECT revision FROM revisions WHERE profile_id = $1', [id]);
		expect(revisions).toHaveLength(6);
	});

	it('seals secrets before they reach the database', async () => {
		const document = profileDocument({ 'account[cloud_password]': PASSWORD });
		const id = await createProfile(adminB, 'With a password', document);
		const rows = await query('SELECT document, secrets FROM revisions WHERE profile_id = $1', [id]);
		expect(rows).toHaveLength(1);
		expect(rows[0].document).not.toContain(PASSWORD);
		expect(rows[0].secrets).toMatch(/^v1\./);
		expect(rows[0].secrets).not.toContain(PASSWORD);
		// Both processes open it with the shared key, and answer it masked.
		const seen = await adminA.json(`/api/profiles/${id}`);
		expect(seen.status).toBe(200);
		expect(seen.text).not.toContain(PASSWORD);
	});

	it('keeps the audit log append-only in the database', async () => {
		const [{ n }] = await query('SELECT COUNT(*)::int AS n FROM audit_log');
		expect(n).toBeGreaterThan(0);
		await expect(query("UPDATE audit_log SET action = 'x'")).rejects.toThrow(/append-only/);
		await expect(query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
		await expect(query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
	});

	it('takes a session and an API token made on one process on the other, and ends them on both', async () => {
		const onA = new Client(a);
		expect((await onA.login(ADMIN.email, ADMIN.password)).status).toBe(200);
		const onB = new Client(b);
		onB.session = onA.session;
		const me = await onB.json('/api/session');
		expect(me.status).toBe(200);
		expect(me.body.user).toMatchObject({ email: ADMIN.email });

		const created = await onB.json('/api/tokens', { method: 'POST', json: { name: 'ci' } });
		expect(created.status).toBe(201);
		const token = created.body.token!;
		expect((await onA.withToken(token).json('/api/profiles')).status).toBe(200);
		expect((await onB.withToken(token).json('/api/profiles')).status).toBe(200);

		// Revoked on A: refused on B too; signed out on B: refused on A.
		expect(
			(await onA.json(`/api/tokens/${created.body.info!.id}`, { method: 'DELETE' })).status
		).toBe(204);
		expect((await onB.withToken(token).json('/api/profiles')).status).toBe(401);
		expect((await onB.json('/api/session', { method: 'DELETE' })).status).toBe(204);
		expect((await onA.json('/api/profiles')).status).toBe(401);
	});

	it('counts sign-in attempts made on both processes against one limit', async () => {
		const email = 'guessing@example.test';
		const wrong = (client: Client) => client.login(email, 'not-the-password');
		// Five wrong passwords, two at a time: one on each process.
		const statuses = [];
		for (const servers of [[a, b], [a, b], [a]]) {
			const answers = await Promise.all(servers.map((server) => wrong(new Client(server))));
			statuses.push(...answers.map((answer) => answer.status));
		}
		expect(statuses).toEqual([401, 401, 401, 401, 401]);
		// The sixth is refused whichever process gets it.
		for (const server of [a, b]) {
			const refused = await wrong(new Client(server));
			expect(refused.status).toBe(429);
			expect(refused.body.error?.code).toBe('rate_limited');
			expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
		}
		const [{ n }] = await query(
			"SELECT COUNT(*)::int AS n FROM rate_limits WHERE key LIKE 'login_user_ip:guessing@%'"
		);
		expect(n).toBe(1);
	});

	it("counts pushes to a sandbox sent through both processes against the sandbox's one limit", async () => {
		// Four a second: two through each process is the limit, which neither reaches alone.
		const created = await adminA.json<{ sandbox: { id: string; pushUrl: string } }>(
			'/api/sandboxes',
			{ method: 'POST', json: { name: 'Limited', rateLimit: 4 } }
		);
		expect(created.status).toBe(201);
		const { id, pushUrl } = created.body.sandbox;
		const push = (server: TestServer) =>
			fetch(`${server.url}${new URL(pushUrl).pathname}/pnm2/send`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					verb: 'NotifyGenericTextMessage',
					AppId: 'com.provider.app',
					DeviceToken: 'token-limited',
					Message: 'Counted'
				})
			});
		// The limit is per second: a round that took longer than that (a very busy machine) spans
		// two counts and proves nothing, so it is run again once that second is over.
		let accepted: number[] = [];
		let over: Response[] = [];
		let answered = 0;
		for (let round = 0; round < 3; round++) {
			const started = Date.now();
			accepted = [];
			for (let pair = 0; pair < 2; pair++) {
				const answers = await Promise.all([a, b].map(push));
				accepted.push(...answers.map((answer) => answer.status));
			}
			over = [await push(a), await push(b)];
			answered += [...accepted, ...over.map((r) => r.status)].filter((s) => s === 200).length;
			if (Date.now() - started < 1000) break;
			await sleep(1100);
		}
		expect(accepted).toEqual([200, 200, 200, 200]);
		// The fifth and sixth are refused whichever process gets them.
		for (const refused of over) {
			expect(refused.status).toBe(429);
			expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
			expect(await refused.text()).toContain('this sandbox accepts 4 per second');
		}
		const [{ points }] = await query('SELECT points FROM rate_limits WHERE key = $1', [
			`sandbox_4:${id}`
		]);
		expect(points).toBe(6);
		// Refused pushes are not recorded: the sandbox keeps only those it answered 200.
		const [{ n }] = await query(
			'SELECT COUNT(*)::int AS n FROM sandbox_pushes WHERE sandbox_id = $1',
			[id]
		);
		expect(n).toBe(answered);
	});

	it("counts a user's test calls running on both processes against one limit", async () => {
		// An upstream that holds every request until told to answer.
		const held: ServerResponse[] = [];
		const upstream = createServer((_request, response) => void held.push(response));
		await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
		const { port } = upstream.address() as AddressInfo;
		const call = (client: Client) =>
			client.json('/api/test-calls', {
				method: 'POST',
				json: {
					service: 'pushTokenReporter',
					settings: { pushTokenReporterUrl: `http://127.0.0.1:${port}/hold` }
				}
			});
		const heldCount = async (n: number) => {
			while (held.length < n) await sleep(20);
		};
		try {
			const first = call(adminA);
			await heldCount(1);
			const second = call(adminB);
			await heldCount(2);
			// A runs one call: alone it would take another, but B runs the user's second.
			const third = await call(adminA);
			expect(third.status).toBe(429);
			expect(third.body.error?.code).toBe('too_many_calls');
			for (const response of held.splice(0)) response.end('ok');
			expect((await first).status).toBe(200);
			expect((await second).status).toBe(200);
			// The slots came back: the next call runs.
			const again = call(adminB);
			await heldCount(1);
			held.splice(0).forEach((response) => response.end('ok'));
			expect((await again).status).toBe(200);
		} finally {
			for (const response of held) response.end();
			upstream.closeAllConnections();
			await new Promise((resolve) => upstream.close(resolve));
		}
	});

	it('shows a request a sink received through one process live on the other', async () => {
		const sink = await adminA.json<{ sink: { key: string } }>('/api/sinks', {
			method: 'POST',
			json: { name: 'Across' }
		});
		expect(sink.status).toBe(201);
		const key = sink.body.sink.key;
		const stream = await adminB.fetch(`/api/sinks/${key}/events`);
		expect(stream.status).toBe(200);
		const events = sse(stream);
		await events.comment('connected');
		const sent = await fetch(`${a.url}/sink/${key}/hook`, { method: 'POST', body: 'first' });
		expect(sent.status).toBe(200);
		const first = await events.next('request');
		expect(first.data).toMatchObject({ method: 'POST', path: expect.stringContaining('/hook') });
		expect(first.data).toMatchObject({ body: 'first' });
		// One through B as well: it arrives once, after the first.
		await fetch(`${b.url}/sink/${key}/hook`, { method: 'POST', body: 'second' });
		const second = await events.next('request');
		expect(second.data).toMatchObject({ body: 'second' });
		expect(second.id).toBeGreaterThan(first.id);
		await events.close();

		// A browser that reconnects to B after the first gets the second, none twice.
		const resumed = sse(
			await adminB.fetch(`/api/sinks/${key}/events`, {
				headers: { 'last-event-id': String(first.id) }
			})
		);
		expect((await resumed.next('request')).id).toBe(second.id);
		await resumed.close();
	});

	it('shows a push a sandbox recorded through one process live on the other', async () => {
		const created = await adminA.json<{ sandbox: { id: string; pushUrl: string } }>(
			'/api/sandboxes',
			{ method: 'POST', json: { name: 'Gateway' } }
		);
		expect(created.status).toBe(201);
		const { id, pushUrl } = created.body.sandbox;
		const stream = sse(await adminA.fetch(`/api/sandboxes/${id}/events`));
		await stream.comment('connected');
		const path = new URL(pushUrl).pathname;
		const pushed = await fetch(`${b.url}${path}/pnm2/send`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				verb: 'NotifyGenericTextMessage',
				AppId: 'com.provider.app',
				DeviceToken: 'token-b',
				Message: 'Across instances'
			})
		});
		expect(pushed.status).toBe(200);
		const push = await stream.next('push');
		expect(JSON.stringify(push.data)).toContain('Across instances');
		await stream.close();
		// A heard of it through LISTEN on a connection of its own, not by polling.
		const listening = await query(
			'SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE query = $1',
			['LISTEN "studio_changes"']
		);
		expect(listening).toEqual([{ n: 1 }]);
		expect(a.stderr()).not.toMatch(/poll the database/);
	});

	it('ends a live feed on one process when its caller’s access ends through the other', async () => {
		const { user, onA, polled, revokeThroughB } = await feedsOnBoth(
			'feed-watcher@example.test',
			'sink'
		);
		// A listens for notifications: the token is revoked through B.
		await revokeThroughB();
		await onA.fire('after', b);
		expect(await afterEnding(onA)).toMatchObject({
			ended: true,
			delivered: [],
			endedBecause: 'token_revoked'
		});
		expect(await onA.recorded(adminA)).toContain('after');

		// B polls: the account is lowered below the sinks' role through A.
		const changed = await adminA.json(`/api/users/${user.id}`, {
			method: 'PATCH',
			json: { role: 'viewer' }
		});
		expect(changed.status).toBe(200);
		await polled.fire('after', a);
		expect(await afterEnding(polled)).toMatchObject({
			ended: true,
			delivered: [],
			endedBecause: 'role_changed'
		});
	});

	it('ends a quiet live feed on either process on the news alone when access ends through the other', async () => {
		const { user, onA, polled, revokeThroughB } = await feedsOnBoth(
			'quiet-watcher@example.test',
			'sandbox'
		);
		// Nothing is recorded for either: well before the 25-second keep-alive, the news ends
		// the one on A (listening), then a check on B's poll ends the one on B.
		await revokeThroughB();
		expect(await afterEnding(onA)).toMatchObject({ ended: true, endedBecause: 'token_revoked' });
		const changed = await adminA.json(`/api/users/${user.id}`, {
			method: 'PATCH',
			json: { active: false }
		});
		expect(changed.status).toBe(200);
		expect(await afterEnding(polled)).toMatchObject({ ended: true, endedBecause: 'deactivated' });
	});

	it('answers 503 while the database is gone, fails other requests cleanly, and heals', async () => {
		const id = await createProfile(adminA, 'Before the outage');
		const saved = await adminA.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: { baseRevision: 1, document: profileDocument({ sms_body: 'kept' }) }
		});
		expect(saved.status).toBe(200);
		const revisions = 'SELECT profile_id, revision, document FROM revisions ORDER BY 1, 2';
		const before = await query(revisions);

		// Requests in flight when the database stops: another connection holds the profiles
		// table, so these are inside the database, waiting, at the moment it goes. It goes at
		// once, as in a crash: a fast stop ends the holder first, and a waiting statement could
		// then still finish before its own connection is ended (a success, but not this test).
		const holder = new pg.Client({ connectionString: url });
		holder.on('error', () => undefined);
		await holder.connect();
		await holder.query('BEGIN');
		await holder.query('LOCK TABLE profiles IN ACCESS EXCLUSIVE MODE');
		const inFlight = [
			adminA.json(`/api/profiles/${id}`),
			adminB.json(`/api/profiles/${id}`, {
				method: 'PUT',
				json: { baseRevision: 2, document: profileDocument({ sms_body: 'in flight' }) }
			}),
			adminA.json('/api/profiles', {
				method: 'POST',
				json: { name: 'Created in flight', document: profileDocument() }
			}),
			adminB.json('/api/profiles')
		];
		const pageInFlight = adminB.fetch('/profiles');
		const [{ pid }] = (await holder.query('SELECT pg_backend_pid() AS pid')).rows;
		const waiting = () =>
			query(
				'SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
				[pid]
			).then((rows) => rows[0].n as number);
		while ((await waiting()) < 5) await sleep(20);
		await sql?.end();
		sql = undefined;

		cluster.stopServer('immediate');
		try {
			// Each ends with the outage's answer: no hang, no 500, no stack.
			for (const answer of await Promise.all(inFlight)) {
				expect(answer.status).toBe(503);
				expect(answer.headers.get('retry-after')).toBe('5');
				expect(answer.body.error).toEqual({
					code: 'database_unavailable',
					message: expect.stringMatching(/^The database does not answer/)
				});
			}
			const shown = await pageInFlight;
			expect(shown.status).toBe(503);
			const html = await shown.text();
			expect(html).toContain('The database does not answer');
			expect(html).not.toMatch(/\bat .*\.js:\d+/);
			await holder.end().catch(() => undefined);

			const health = await fetch(`${a.url}/api/health`);
			expect(health.status).toBe(503);
			expect(await health.json()).toEqual({
				ok: false,
				database: { backend: 'postgres', ok: false, message: 'The database does not answer.' },
				liveUpdates: { mode: expect.any(String) }
			});
			for (const client of [adminA, adminB]) {
				const read = await client.json(`/api/profiles/${id}`);
				expect(read.status).toBe(503);
				expect(read.headers.get('retry-after')).toBe('5');
				expect(read.body.error).toEqual({
					code: 'database_unavailable',
					message: expect.stringMatching(/^The database does not answer/)
				});
			}
			const write = await adminB.json(`/api/profiles/${id}`, {
				method: 'PUT',
				json: { baseRevision: 2, document: profileDocument({ sms_body: 'during the outage' }) }
			});
			expect(write.status).toBe(503);
			// An endpoint that reaches the database itself (no session to look up first) too.
			const signIn = await new Client(b).login(ADMIN.email, ADMIN.password);
			expect(signIn.status).toBe(503);
			expect(signIn.body.error?.code).toBe('database_unavailable');
			const page = await adminA.fetch('/profiles');
			expect(page.status).toBe(503);
			expect(await page.text()).toContain('The database does not answer');
		} finally {
			cluster.startServer();
		}

		// Both processes heal by themselves: no restart.
		for (const server of [a, b]) {
			let status = 0;
			for (let i = 0; i < 100 && status !== 200; i++) {
				status = (await fetch(`${server.url}/api/health`)).status;
				if (status !== 200) await sleep(100);
			}
			expect(status).toBe(200);
		}
		const after = await adminB.json(`/api/profiles/${id}`);
		expect(after.status).toBe(200);
		expect(after.body.profile).toMatchObject({
			revision: 2,
			document: profileDocument({ sms_body: 'kept' })
		});
		// Nothing saved before was lost, and nothing of the requests in flight was half-written.
		expect(await query(revisions)).toEqual(before);
		expect(await query("SELECT id FROM profiles WHERE name = 'Created in flight'")).toEqual([]);
		const next = await adminA.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: { baseRevision: 2, document: profileDocument({ sms_body: 'after' }) }
		});
		expect(next.status).toBe(200);
		expect(a.stderr() + b.stderr()).toMatch(/database does not answer/);
		expect(a.stderr() + b.stderr()).not.toMatch(/^\s+at /m);
	});
});

describe('a messaging run on one process, followed on the other', () => {
	let editor: Awaited<ReturnType<typeof createUser>>;
	/** The editor's session on B. */
	let editorB: Client;
	let runs = 0;

	beforeAll(async () => {
		editor = await createUser(adminA, 'editor', 'phones-across@example.test');
		editorB = new Client(b);
		editorB.session = editor.client.session;
	});

	/** A sandbox made on A, a provider pushing to it through `pushesTo`, a profile over both. */
	async function setup(pushesTo: TestServer = a) {
		const created = await editor.client.json<{ sandbox: { id: string; pushUrl: string } }>(
			'/api/sandboxes',
			{ method: 'POST', json: { name: `Phones ${++runs}` } }
		);
		expect(created.status).toBe(201);
		const { id: sandboxId, pushUrl } = created.body.sandbox;
		const provider = await startProvider(`${pushesTo.url}${new URL(pushUrl).pathname}`);
		providers.push(provider);
		const name = `Messaging across ${runs}`;
		const profileId = await createProfile(
			editor.client,
			name,
			providerProfile(provider.url, pushUrl)
		);
		// Behind a load balancer both have one origin; here each has its own, so the sandbox is named.
		return { provider, run: { profileId, sandboxId } };
	}

	function run(client: Client, on: { profileId: string; sandboxId: string }, live?: string) {
		const n = ++runs;
		return client.json<FlowRunView>('/api/flows/messaging', {
			method: 'POST',
			json: {
				...on,
				...(live && { live }),
				values: {
					sender: { username: `alice${n}`, password: `alice-secret-${n}` },
					recipient: { username: `bob${n}`, password: `bob-secret-${n}` },
					sms_body: 'Across instances',
					secondDevice: true
				}
			}
		});
	}

	const stream = (client: Client, key: string, after?: number) =>
		client.fetch(`/api/flows/messaging/live/${key}`, {
			headers: after === undefined ? {} : { 'last-event-id': String(after) }
		});

	/** The `journey` events of a stream up to and with the kept run. */
	async function untilDone(response: Response): Promise<StreamEvent[]> {
		expect(response.status).toBe(200);
		const events = sse(response);
		const seen: StreamEvent[] = [];
		while (seen.at(-1)?.data.kind !== 'done') seen.push(await events.next('journey'));
		await events.close();
		return seen;
	}

	it('streams every item, in order and with the same ids, on both; late and resumed ones too', async () => {
		const { run: on } = await setup();
		const key = `across-${runs}-0123456789abcdef`;
		const onA = untilDone(await stream(editor.client, key));
		const onB = untilDone(await stream(editorB, key));
		// A browser on B that drops its stream after the first items and reconnects there.
		const dropping = (async () => {
			const first = sse(await stream(editorB, key));
			const before = [await first.next('journey'), await first.next('journey')];
			await first.close();
			return [...before, ...(await untilDone(await stream(editorB, key, before[1].id)))];
		})();
		const answer = await run(editor.client, on, key);
		expect(answer.status).toBe(200);
		const seen = await onB;
		expect(seen.map((e) => e.id)).toEqual(seen.map((_, i) => i + 1));
		const steps = seen.filter((e) => e.data.kind === 'step');
		expect(steps.map((e) => (e.data.step as { service: string }).service)).toEqual(
			answer.body.steps.map((s) => s.service)
		);
		expect(seen.some((e) => e.data.kind === 'state')).toBe(true);
		expect((seen.at(-1)!.data.run as { id: number }).id).toBe(answer.body.id);
		expect(JSON.stringify(seen)).not.toMatch(/alice-secret|bob-secret/);
		expect(await onA).toEqual(seen);
		expect(await dropping).toEqual(seen);

		// Opened on B after the run ended: everything, from the first.
		expect(await untilDone(await stream(editorB, key))).toEqual(seen);
		// Reconnected to B half-way: the rest, once each.
		const half = seen[Math.floor(seen.length / 2)].id;
		expect(await untilDone(await stream(editorB, key, half))).toEqual(seen.slice(half));
	});

	it("gives another user's stream on the same key nothing of the editor's run", async () => {
		const { run: on } = await setup();
		const key = `owned-${runs}-0123456789abcdef`;
		const other = await createUser(adminB, 'editor', 'phones-other-across@example.test');
		// The other user's stream on A reads from the first item: had it been given the editor's
		// run, made first, that run would be the first it ended with.
		const otherA = new Client(a);
		otherA.session = other.client.session;
		const theirs = untilDone(await stream(otherA, key));
		const editors = await run(editorB, on, key);
		expect(editors.status).toBe(200);
		const own = await run(other.client, on, key);
		expect(own.status).toBe(200);
		const seen = await theirs;
		expect(seen.map((e) => e.id)).toEqual(seen.map((_, i) => i + 1));
		expect((seen.at(-1)!.data.run as { id: number }).id).toBe(own.body.id);
	});

	it("sees the provider's push that lands on the other process's gateway", async () => {
		const { provider, run: on } = await setup(b);
		const answer = await run(editor.client, on);
		expect(answer.status).toBe(200);
		expect(answer.body.result).toMatchObject({ findings: [] });
		expect(answer.body.ok).toBe(true);
		expect(answer.body.steps.find((s) => s.service === 'pushReceived')?.decision.status).toBe('ok');
		expect(provider.pushes.map((p) => p.status)).toContain(200);
		expect(provider.gatewayUrl.startsWith(b.url)).toBe(true);
	});
});
