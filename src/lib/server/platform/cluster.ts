import { Kysely, PostgresDialect, sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
	RateLimiterMemory,
	RateLimiterPostgres,
	RateLimiterRes,
	type RateLimiterAbstract,
	type IRateLimiterOptions
} from 'rate-limiter-flexible';
import { readConfig } from './config';
import { keepConnectionErrors } from '../store/open';
import { postgresDriver } from '../store/pg';
import { logger } from './logger';

/**
 * What several instances of the app on one PostgreSQL share beyond the store: rate limits (a
 * table of counters) and news of live records and of access changes (LISTEN/NOTIFY). On SQLite
 * there is one process: limits stay in memory, records and news reach their watchers inside it.
 */

/**
 * The NOTIFY channel: a payload names a topic (`sink:<key>`, `sandbox:<id>`, `access:<user id>`),
 * never a record.
 */
export const CHANNEL = 'studio_changes';
/** How often the watchers of a topic look for new records when LISTEN is not possible. */
export const POLL_MS = 1000;
/** How long an instance waits for its own test notification before it decides to poll. */
const PROBE_MS = 3000;
/** The wait before a lost listening connection is opened again. */
const RECONNECT_MS = 2000;
/** The table of shared rate-limit counters (made by the store's migrations, on PostgreSQL). */
export const RATE_LIMIT_TABLE = 'rate_limits';

let settings: { url: string | null; poll: boolean } | undefined;

function read() {
	if (!settings) {
		const config = readConfig();
		settings = { url: config.databaseUrl ?? null, poll: config.liveUpdates === 'poll' };
	}
	return settings;
}

/** The PostgreSQL URL the app runs on, or null on SQLite. */
function postgresUrl(): string | null {
	return read().url;
}

let pool: pg.Pool | undefined;

/** A few connections of its own, so a busy store never delays a limit or a notification. */
function sharedPool(url: string): pg.Pool {
	if (!pool) {
		pool = new (postgresDriver().Pool)({
			connectionString: url,
			max: 4,
			connectionTimeoutMillis: 1000
		});
		// An idle connection broke (the server restarted): the next query opens a new one.
		pool.on('error', () => undefined);
		keepConnectionErrors(pool);
	}
	return pool;
}

let builder: Kysely<object> | undefined;

/** The query builder over the shared connections (no table of the store is read here). */
function sharedDb(url: string): Kysely<object> {
	builder ??= new Kysely<object>({ dialect: new PostgresDialect({ pool: sharedPool(url) }) });
	return builder;
}

/** Sends `payload` on the channel to every instance listening, this one included. */
async function notify(url: string, payload: string): Promise<void> {
	await sharedDb(url)
		.selectNoFrom((eb) => eb.fn('pg_notify', [eb.val(CHANNEL), eb.val(payload)]).as('sent'))
		.execute();
}

function warn(message: string) {
	logger().warn({ component: 'cluster' }, message);
}

// ---------------------------------------------------------------- rate limits

let warnedLimits = false;

/**
 * A rate limiter shared by every instance: on PostgreSQL its counters live in the database (the
 * table comes with the store's migrations, which run at start), and while the database does not
 * answer it counts in this process's memory instead (with a warning once), so a limit is never
 * lifted by an outage, only no longer shared for its length. On SQLite it counts in memory, as
 * one process needs.
 */
export function sharedLimiter(options: IRateLimiterOptions): RateLimiterAbstract {
	const url = postgresUrl();
	if (!url) return new RateLimiterMemory(options);
	const insurance = new RateLimiterMemory(options);
	// The memory limiter stands in when a query fails: note it once per outage.
	const consume = insurance.consume.bind(insurance);
	insurance.consume = (key, points, opts) => {
		if (!warnedLimits) {
			warnedLimits = true;
			warn('The database does not answer: rate limits count in this instance only meanwhile.');
			setTimeout(() => (warnedLimits = false), 60_000).unref();
		}
		return consume(key, points, opts);
	};
	return new RateLimiterPostgres({
		...options,
		storeClient: sharedPool(url),
		storeType: 'pool',
		tableName: RATE_LIMIT_TABLE,
		tableCreated: true,
		clearExpiredByTimeout: true,
		insuranceLimiter: insurance
	});
}

/** Slots of work in flight, counted across the instances (see `sharedSlots`). */
export interface SharedSlots {
	/** Takes a slot for `key`; false when all `max` are taken on all instances together. */
	acquire(key: string): Promise<boolean>;
	/** Gives a slot back. */
	release(key: string): Promise<void>;
}

/**
 * At most `max` pieces of work per key running on all instances together, or undefined on
 * SQLite (one process counts its own). A slot an instance never gave back (it stopped mid-way)
 * is forgotten `holdSeconds` after the key's first slot was taken, as are all of the key's
 * slots then: the count starts afresh rather than locking a user out.
 */
export function sharedSlots(
	name: string,
	max: number,
	holdSeconds: number
): SharedSlots | undefined {
	if (!postgresUrl()) return undefined;
	const limiter = sharedLimiter({ keyPrefix: name, points: max, duration: holdSeconds });
	return {
		acquire: (key) =>
			limiter.consume(key).then(
				() => true,
				(error: unknown) => {
					if (error instanceof RateLimiterRes) return false;
					throw error;
				}
			),
		async release(key) {
			const left = await limiter.reward(key).catch(() => undefined);
			// The count started afresh while this one ran: none is left below zero.
			if (left && left.consumedPoints <= 0) await limiter.delete(key).catch(() => undefined);
		}
	};
}

// ---------------------------------------------------------------- live records

/** Watchers by topic; each is poked when records of its topic may be new. */
const pokes = new Map<string, Set<() => void>>();

function poke(topic: string) {
	for (const watcher of pokes.get(topic) ?? []) watcher();
}

/**
 * Watchers of news by topic (`access:<user id>`): told once per change (see `announceNews`). Not
 * poked by polling: there is nothing to read for them (see `onPoll`).
 */
const news = new Map<string, Set<() => void>>();

function tell(topic: string) {
	for (const watcher of news.get(topic) ?? []) watcher();
}

/** Adds `watcher` to the set of `topic` in `map`; returns the unsubscribe. */
function subscribe(map: Map<string, Set<() => void>>, topic: string, watcher: () => void) {
	let watchers = map.get(topic);
	if (!watchers) map.set(topic, (watchers = new Set()));
	watchers.add(watcher);
	return () => {
		watchers.delete(watcher);
		if (watchers.size === 0 && map.get(topic) === watchers) map.delete(topic);
	};
}

type Mode = 'idle' | 'connecting' | 'listening' | 'polling';
let mode: Mode = 'idle';
/** Why the instance polls: asked to (LIVE_UPDATES=poll), or its own notification never came. */
let pollReason: 'configured' | 'notify-lost' | undefined;
let poller: ReturnType<typeof setInterval> | undefined;

function pokeAll() {
	for (const topic of pokes.keys()) poke(topic);
}

/** Watchers of the polls themselves: what cannot be read by topic is checked by them. */
const polls = new Set<() => void>();

function startPolling() {
	poller ??= setInterval(() => {
		for (const watcher of polls) watcher();
		pokeAll();
	}, POLL_MS);
	poller.unref();
}

function stopPolling() {
	if (poller) clearInterval(poller);
	poller = undefined;
}

/**
 * Opens the listening connection. Until it listens (and whenever it is lost) the watchers poll,
 * so a record is at most a second late and never missed: the streams read records by id.
 */
async function listen(url: string): Promise<void> {
	mode = 'connecting';
	startPolling();
	const client = new (postgresDriver().Client)({
		connectionString: url,
		connectionTimeoutMillis: 5000
	});
	let lost = false;
	const probe = `probe:${randomUUID()}`;
	let heard: () => void = () => {};
	const probed = new Promise<boolean>((resolve) => {
		heard = () => resolve(true);
		setTimeout(() => resolve(false), PROBE_MS).unref();
	});
	client.on('notification', (message) => {
		if (message.channel !== CHANNEL || !message.payload) return;
		if (message.payload === probe) heard();
		else {
			poke(message.payload);
			tell(message.payload);
		}
	});
	const reconnect = () => {
		if (lost || mode === 'polling') return;
		lost = true;
		client.end().catch(() => undefined);
		mode = 'connecting';
		startPolling();
		setTimeout(() => void listen(url), RECONNECT_MS).unref();
	};
	client.on('error', reconnect);
	client.on('end', reconnect);
	try {
		await client.connect();
		await client.query(sql`LISTEN ${sql.id(CHANNEL)}`.compile(sharedDb(url)).sql);
		// A pooler in transaction mode accepts LISTEN and delivers nothing: check it does.
		await notify(url, probe);
	} catch {
		reconnect();
		return;
	}
	if (!(await probed)) {
		if (lost) return;
		mode = 'polling';
		pollReason = 'notify-lost';
		client.end().catch(() => undefined);
		warn(
			`LISTEN/NOTIFY does not reach this instance (a connection pooler?): live pages poll ` +
				`the database every ${POLL_MS} ms instead. Point DATABASE_URL at the server itself ` +
				`or a session-mode pooler to avoid it.`
		);
		return;
	}
	// The connection broke while it was being proved: it is being opened again.
	if (lost) return;
	mode = 'listening';
	stopPolling();
	// Records and news may have come while the connection was being opened.
	pokeAll();
	for (const topic of news.keys()) tell(topic);
}

/**
 * Tells every instance that records of `topic` are new. On SQLite it does nothing: the watchers
 * in this process hear of records directly.
 */
export function announce(topic: string): void {
	const url = postgresUrl();
	if (!url) return;
	notify(url, topic).catch(() => {
		// The database is gone: the watchers poll until it is back.
	});
}

/**
 * Calls `watcher` whenever records of `topic` may have been recorded by any instance (at most a
 * second late); returns the unsubscribe, or undefined on SQLite (one process: its watchers hear
 * of its records directly).
 */
export function onAnnounce(topic: string, watcher: () => void): (() => void) | undefined {
	const url = postgresUrl();
	if (!url) return undefined;
	startLiveUpdates();
	return subscribe(pokes, topic, watcher);
}

/**
 * Tells the watchers of `topic` on every instance, this one included, once: on SQLite in this
 * process; on PostgreSQL by NOTIFY, which a listening instance hears as the others do. An
 * instance that does not listen (or could not send it) tells its own watchers directly.
 */
export function announceNews(topic: string): void {
	const url = postgresUrl();
	if (!url) return tell(topic);
	const hearsItself = mode === 'listening';
	if (!hearsItself) tell(topic);
	notify(url, topic).catch(() => {
		// Not sent: the watchers here hear of it all the same; elsewhere, streams check again
		// before they send.
		if (hearsItself) tell(topic);
	});
}

/** Calls `watcher` at each news of `topic` (see {@link announceNews}); returns the unsubscribe. */
export function onNews(topic: string, watcher: () => void): () => void {
	if (postgresUrl()) startLiveUpdates();
	return subscribe(news, topic, watcher);
}

/**
 * Calls `watcher` every {@link POLL_MS} while this instance polls (news from the others cannot
 * reach it then); returns the unsubscribe, or undefined on SQLite.
 */
export function onPoll(watcher: () => void): (() => void) | undefined {
	if (!postgresUrl()) return undefined;
	startLiveUpdates();
	polls.add(watcher);
	return () => polls.delete(watcher);
}

/**
 * Opens the listening connection and proves it hears its own notification (or starts polling,
 * with LIVE_UPDATES=poll), once; at start, so that a connection pooler that swallows
 * notifications is found out and logged before anyone opens a live page. Nothing on SQLite.
 */
export function startLiveUpdates(): void {
	const url = postgresUrl();
	if (!url || mode !== 'idle') return;
	if (read().poll) {
		mode = 'polling';
		pollReason = 'configured';
		startPolling();
	} else void listen(url);
}

/** How live records reach this instance, as the health check reports it (PostgreSQL only). */
export interface LiveUpdatesStatus {
	/**
	 * `notify`: by LISTEN/NOTIFY, at once; `poll`: by asking the database every second;
	 * `connecting`: the listening connection is being opened or proved (polling meanwhile).
	 */
	mode: 'notify' | 'poll' | 'connecting';
	/** Why the instance polls, when it does. */
	message?: string;
}

/** How live records reach this instance now, or undefined on SQLite (one process). */
export function liveUpdatesStatus(): LiveUpdatesStatus | undefined {
	if (!postgresUrl()) return undefined;
	if (mode === 'listening') return { mode: 'notify' };
	if (mode === 'polling') {
		return {
			mode: 'poll',
			message:
				pollReason === 'configured'
					? `LIVE_UPDATES=poll: live pages ask the database every ${POLL_MS} ms.`
					: `LISTEN/NOTIFY does not reach this instance (a connection pooler in transaction ` +
						`mode?): live pages ask the database every ${POLL_MS} ms instead.`
		};
	}
	return { mode: 'connecting' };
}
