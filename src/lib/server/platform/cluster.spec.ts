import pg from 'pg';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startCluster, type Cluster } from '../../../../scripts/postgres-cluster.js';
import { openPostgresStore } from '../store/open';

/**
 * The shared rate limiter on PostgreSQL, against a throw-away cluster this file starts: it
 * counts in the table the migrations made, and while the database does not answer it counts in
 * this process's memory instead, so the limit still holds, with one warning. News of an access
 * change reaches each watcher once, on PostgreSQL as on SQLite.
 */

const WARNING = 'The database does not answer: rate limits count in this instance only meanwhile.';

let cluster: Cluster;
let url: string;

async function counters(): Promise<{ key: string; points: number }[]> {
	const client = new pg.Client({ connectionString: url });
	await client.connect();
	try {
		return (await client.query('SELECT key, points FROM rate_limits ORDER BY key')).rows;
	} finally {
		await client.end();
	}
}

/** Whether `consume` was refused for being over the limit (not for a failed query). */
async function refused(attempt: Promise<unknown>): Promise<boolean> {
	try {
		await attempt;
		return false;
	} catch (error) {
		if (error instanceof RateLimiterRes) return true;
		throw error;
	}
}

beforeAll(async () => {
	cluster = await startCluster();
	url = await cluster.createDatabase('limits');
	// The app migrates at start: that makes the counters' table.
	const store = openPostgresStore(url);
	await store.ready();
	await store.close();
}, 120_000);

afterAll(async () => {
	vi.unstubAllEnvs();
	vi.restoreAllMocks();
	await cluster?.stop();
});

describe('sharedLimiter on PostgreSQL', () => {
	it('keeps the limit in memory while the database does not answer, warning once', async () => {
		vi.stubEnv('DATABASE_URL', url);
		vi.stubEnv('LIVE_UPDATES', 'notify');
		vi.resetModules();
		const { sharedLimiter } = await import('./cluster');
		const { logger } = await import('./logger');
		const warn = vi.spyOn(logger(), 'warn').mockImplementation(() => undefined);
		const limiter = sharedLimiter({ keyPrefix: 'outage', points: 3, duration: 60 });
		const other = sharedLimiter({ keyPrefix: 'outage_other', points: 1, duration: 60 });

		// The database answers: the count is in the table, shared with every instance.
		await limiter.consume('ada');
		expect(await counters()).toEqual([{ key: 'outage:ada', points: 1 }]);
		expect(warn).not.toHaveBeenCalled();

		cluster.stopServer('fast');
		try {
			// Gone: this instance counts alone, from its memory, and the limit still holds.
			for (let i = 0; i < 3; i++) expect(await refused(limiter.consume('ada'))).toBe(false);
			let over: unknown;
			await limiter.consume('ada').catch((error: unknown) => (over = error));
			expect(over).toBeInstanceOf(RateLimiterRes);
			expect((over as RateLimiterRes).msBeforeNext).toBeGreaterThan(0);
			expect((over as RateLimiterRes).consumedPoints).toBe(4);
			// Every limiter does, and another key has its own count.
			expect(await refused(other.consume('bob'))).toBe(false);
			expect(await refused(other.consume('bob'))).toBe(true);
			expect(await refused(limiter.consume('eve'))).toBe(false);
			// Said once for the outage, not per request.
			expect(warn).toHaveBeenCalledTimes(1);
			expect(warn).toHaveBeenCalledWith({ component: 'cluster' }, WARNING);
		} finally {
			cluster.startServer();
		}

		// Back: counting is shared again, in the table (what was counted in memory stays there).
		let back = false;
		for (let i = 0; i < 50 && !back; i++) {
			// Until the pool has a connection again, a count may still be made in memory.
			await limiter.consume('carol').catch(() => undefined);
			back = (await counters().catch(() => [])).some((row) => row.key === 'outage:carol');
			if (!back) await new Promise((resolve) => setTimeout(resolve, 100));
		}
		expect(back).toBe(true);
		expect(await counters()).toContainEqual({ key: 'outage:ada', points: 1 });
	});
});

/** Waits until `done` holds, looking every few milliseconds, for at most `ms`. */
async function until(done: () => boolean, ms: number): Promise<boolean> {
	for (const end = Date.now() + ms; !done() && Date.now() < end;) {
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	return done();
}

/** The news of access changes on an instance of its own (fresh modules) on PostgreSQL. */
async function instance(liveUpdates: 'notify' | 'poll') {
	vi.stubEnv('DATABASE_URL', url);
	vi.stubEnv('LIVE_UPDATES', liveUpdates);
	vi.resetModules();
	const cluster = await import('./cluster');
	const news = await import('../auth/access-news');
	return { ...cluster, ...news };
}

describe('news of access changes', () => {
	it('reaches a watcher on a listening instance once per change', async () => {
		const here = await instance('notify');
		let changed = 0;
		const stop = here.onAccessChange(
			41,
			() => changed++,
			() => undefined
		);
		expect(await until(() => here.liveUpdatesStatus()?.mode === 'notify', 10_000)).toBe(true);
		// Once listening, it asks every watcher to check again (news may have come meanwhile).
		changed = 0;
		here.accessChanged(41);
		expect(await until(() => changed > 0, 2000)).toBe(true);
		// Its own notification comes back to it too: that is the one way it hears.
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(changed).toBe(1);
		stop();
	});

	it('is not poked by polling: a polling instance asks for a check at each poll instead', async () => {
		const here = await instance('poll');
		let changed = 0;
		let polled = 0;
		const stop = here.onAccessChange(
			42,
			() => changed++,
			() => polled++
		);
		expect(await until(() => polled >= 2, 5000)).toBe(true);
		expect(changed).toBe(0);
		// A change made here still reaches it at once, and once.
		here.accessChanged(42);
		expect(changed).toBe(1);
		stop();
		const after = polled;
		await new Promise((resolve) => setTimeout(resolve, here.POLL_MS + 200));
		expect(polled).toBe(after);
	});

	it('reaches a watcher once on SQLite, in this process', async () => {
		vi.stubEnv('DATABASE_URL', undefined);
		vi.resetModules();
		const here = await import('../auth/access-news');
		let changed = 0;
		const stop = here.onAccessChange(
			43,
			() => changed++,
			() => undefined
		);
		here.accessChanged(43);
		here.accessChanged(44);
		expect(changed).toBe(1);
		stop();
		here.accessChanged(43);
		expect(changed).toBe(1);
	});
});
