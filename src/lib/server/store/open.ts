import Database from 'better-sqlite3';
import {
	Kysely,
	PostgresDialect,
	SqliteDialect,
	sql,
	type LogEvent,
	type Transaction
} from 'kysely';
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import {
	kyselyStore,
	type Backend,
	type RunCompiled,
	type RunNow,
	type StoreOptions
} from './kysely';
import type { Tables } from './schema';
import type { Store } from './types';
import { logger } from '../platform/logger';
import { metrics } from '../platform/metrics.js';
import { postgresDriver } from './pg';

/** The SQLite file in a data directory. */
export const SQLITE_FILE = 'provisioning.db';

/** PostgreSQL's type id of `bigint`: times and ids, read back as numbers (they stay below 2^53). */
const INT8_OID = 20;

/**
 * The SQLite backend: one file in the data directory, WAL mode, every write one transaction
 * with `synchronous = FULL`, so a save that was answered survives a crash.
 */
export function sqliteBackend(dataDir: string): Backend {
	mkdirSync(dataDir, { recursive: true, mode: 0o700 });
	const file = path.join(dataDir, SQLITE_FILE);
	const raw = new Database(file);
	// Password and session hashes live here: readable by the server's user only. SQLite gives
	// the WAL and shared-memory files the database file's mode.
	chmodSync(file, 0o600);
	raw.pragma('journal_mode = WAL');
	raw.pragma('synchronous = FULL');
	raw.pragma('foreign_keys = ON');
	raw.pragma('busy_timeout = 5000');

	// Statements are prepared once per text: preparing costs more than running most of them.
	// The driver runs one query at a time on the connection, so a cached statement is never
	// used by two queries at once.
	const statements = new Map<string, Database.Statement>();
	const database = {
		close: () => raw.close(),
		prepare(text: string) {
			let statement = statements.get(text);
			if (!statement) {
				statement = raw.prepare(text);
				statements.set(text, statement);
			}
			return statement;
		}
	};
	const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database }), log: timed('sqlite') });

	// Relaxed writes through the builder that hold the connection now, between their queries.
	let relaxedHolders = 0;
	// `exec`, not `pragma`: SQLite applies this pragma when it is prepared, and `pragma` would
	// also make a statement object for it, twice per write.
	const relaxedSync = (on: boolean) => raw.exec(`PRAGMA synchronous = ${on ? 'NORMAL' : 'FULL'}`);
	const queries = metrics().queryDuration.labels('sqlite');
	const run: RunCompiled = (query, parameters) => {
		// As the builder's SQLite driver runs a query, on the same statements.
		const started = performance.now();
		const statement = database.prepare(query.sql);
		try {
			if (statement.reader) return statement.all(parameters as unknown[]);
			statement.run(parameters as unknown[]);
			return [];
		} finally {
			queries.observe((performance.now() - started) / 1000);
		}
	};
	const inOwnTransaction = raw.transaction(<T>(work: (run: RunCompiled) => T) => work(run));
	// One connection and one thread: work that runs in one turn cannot interleave with another
	// query. It must not run inside someone else's transaction, though (the builder's awaits
	// between BEGIN and COMMIT leave turns free), nor while a relaxed write holds the connection
	// between its pragma and its transaction.
	const now: RunNow = <T>(work: (run: RunCompiled) => T, mode: 'read' | 'relaxed') => {
		if (raw.inTransaction || relaxedHolders > 0) return null;
		if (mode === 'read') return { value: work(run) };
		relaxedSync(true);
		try {
			return { value: inOwnTransaction(work) as T };
		} finally {
			relaxedSync(false);
		}
	};
	return {
		dialect: 'sqlite',
		db,
		// `synchronous = NORMAL` in WAL mode survives a crash of the app; only a power loss can
		// take the last records. The pragma is per connection: the write holds the connection
		// throughout, so no other query runs relaxed.
		relaxed: (write) =>
			db.connection().execute(async (conn) => {
				relaxedHolders++;
				try {
					relaxedSync(true);
					return await conn.transaction().execute(write);
				} finally {
					// Counted off first: a pragma that fails (a closed database) leaves no hold behind.
					relaxedHolders--;
					relaxedSync(false);
				}
			}),
		now,
		close: () => db.destroy()
	};
}

/** Kysely's log of every query it runs, as the metrics' query durations. */
function timed(backend: 'sqlite' | 'postgres'): (event: LogEvent) => void {
	const queries = metrics().queryDuration.labels(backend);
	return (event) => queries.observe(event.queryDurationMillis / 1000);
}

/** The pool's connections (idle, busy) and the clients waiting for one, kept as gauges. */
function watchPool(pool: pg.Pool): void {
	const gauge = metrics().poolConnections;
	const update = () => {
		gauge.set({ state: 'idle' }, pool.idleCount);
		gauge.set({ state: 'busy' }, pool.totalCount - pool.idleCount);
		gauge.set({ state: 'waiting' }, pool.waitingCount);
	};
	for (const event of ['connect', 'acquire', 'release', 'remove'] as const) pool.on(event, update);
	update();
}

/** Options of the PostgreSQL backend. */
export interface PostgresOptions {
	/** Most connections open at once; 10 by default. */
	max?: number;
	/** How long a query waits for a connection before failing; 5 s by default. */
	connectTimeoutMs?: number;
	/** Told about errors of idle connections (the server went away); they are not fatal. */
	onIdleError?: (error: Error) => void;
}

/**
 * Gives every connection of `pool` a listener for its errors for its whole life. The pool
 * listens only while a connection is idle: one that breaks while lent out (the server stopped
 * with requests in flight) and between two queries would otherwise throw an unhandled error and
 * end the process. Such an error needs nothing here: the query that was running, or the next
 * one, fails with it (an outage, answered 503), and the pool drops the connection when it is
 * given back.
 */
export function keepConnectionErrors(pool: pg.Pool): void {
	pool.on('connect', (client) => {
		client.on('error', () => undefined);
	});
}

/**
 * The PostgreSQL backend: a connection pool. A connection that breaks (the server restarted)
 * is dropped and a new one opened for the next query, so the app recovers by itself.
 */
export function postgresBackend(url: string, options: PostgresOptions = {}): Backend {
	const { Pool, types } = postgresDriver();
	const pool = new Pool({
		connectionString: url,
		max: options.max ?? 10,
		connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
		types: {
			getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
				oid === INT8_OID && format !== 'binary'
					? (value: string) => Number(value)
					: types.getTypeParser(oid, format)) as typeof types.getTypeParser
		}
	});
	pool.on('error', (error) => {
		(
			options.onIdleError ??
			((e: Error) => logger().error({ component: 'postgres' }, `PostgreSQL: ${e.message}`))
		)(error);
	});
	keepConnectionErrors(pool);
	watchPool(pool);
	const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }), log: timed('postgres') });
	return {
		dialect: 'postgres',
		db,
		// Committed without waiting for the write-ahead log to reach the disk: a crash of the
		// server can lose the last of these, never half of one.
		relaxed: <T>(write: (trx: Transaction<Tables>) => Promise<T>) =>
			db.transaction().execute(async (trx) => {
				await sql`SET LOCAL synchronous_commit = off`.execute(trx);
				return write(trx);
			}),
		close: () => db.destroy()
	};
}

/** Opens (creating and migrating when needed) the SQLite store in `dataDir/provisioning.db`. */
export function openSqliteStore(dataDir: string): Store {
	return kyselyStore(sqliteBackend(dataDir));
}

/** Opens the PostgreSQL store at `url` (`postgres://user:password@host:port/database`). */
export function openPostgresStore(url: string, options?: PostgresOptions): Store {
	return kyselyStore(postgresBackend(url, options));
}

/** Whether a database URL names PostgreSQL. */
export function isPostgresUrl(url: string): boolean {
	return /^postgres(ql)?:\/\//i.test(url);
}

/** Where the data lives: PostgreSQL when `databaseUrl` is set, else SQLite in `dataDir`. */
export interface StoreLocation {
	dataDir: string;
	databaseUrl?: string;
}

/** The backend the configuration asks for (for tools that work below the store: migrate, copy). */
export function openBackend(config: StoreLocation): Backend {
	if (config.databaseUrl) return postgresBackend(config.databaseUrl);
	return sqliteBackend(config.dataDir);
}

/** The store the configuration asks for: PostgreSQL when `databaseUrl` is set, else SQLite. */
export function openStore(config: StoreLocation, options?: StoreOptions): Store {
	return kyselyStore(openBackend(config), options);
}
