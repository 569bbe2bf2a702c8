import type { Compilable, CompiledQuery, Kysely, Transaction } from 'kysely';
import { isDeepStrictEqual } from 'node:util';
import type { DialectName, Tables } from '../schema';
import type { AuditEntry } from '../types';

/**
 * What every group of tables shares: the backend the opener gives (`open.ts`), how queries run
 * on it, and the dialects' differences. Groups import this module, never one another: a write
 * that spans groups gets what it needs from the assembler (`kysely.ts`).
 */

/** What the opener of a dialect gives the store. */
export interface Backend {
	dialect: DialectName;
	db: Kysely<Tables>;
	/**
	 * Runs a transaction of high-volume records (test calls, sink requests, pushes and their
	 * audit entries) with relaxed durability: such a record may be lost in a power cut, never
	 * half-written.
	 */
	relaxed<T>(write: (trx: Transaction<Tables>) => Promise<T>): Promise<T>;
	/**
	 * SQLite only (see `open.ts`): runs compiled queries at once, in the caller's turn, where
	 * the connection is free. A query SQLite answers in microseconds then costs about that,
	 * without the builder's chain of promises around it. Absent on PostgreSQL.
	 */
	now?: RunNow;
	/** Closes the connection(s). */
	close(): Promise<void>;
}

/** Runs one compiled query with its parameters; the rows it reads (none for a write). */
export type RunCompiled = (query: CompiledQuery, parameters: readonly unknown[]) => unknown[];

/**
 * Runs `work` at once, its queries through the `run` it is given: on their own (`read`), or in
 * a transaction of their own with relaxed durability, as {@link Backend.relaxed} writes
 * (`relaxed`). `work` must not wait for anything. Null, having run
 * nothing, while the connection is held by a transaction or a relaxed write that waits between
 * its queries: the caller then goes through the builder, which queues behind that holder.
 */
export type RunNow = <T>(
	work: (run: RunCompiled) => T,
	mode: 'read' | 'relaxed'
) => { value: T } | null;

/** How the store is opened beyond its backend. */
export interface StoreOptions {
	/**
	 * The audit stream is on: every audit entry is written with its row in the stream's outbox,
	 * in the same transaction, so an entry is never recorded without being delivered later.
	 */
	auditOutbox?: boolean;
	/** Told after an entry reached the outbox (the stream's worker then looks at once). */
	onAudit?: () => void;
}

export const num = (v: number | string | bigint) => Number(v);
export const numOrNull = (v: number | string | bigint | null | undefined) =>
	v === null || v === undefined ? null : Number(v);

/** A compiled write and its parameters, run with others in one relaxed transaction. */
export interface CompiledWrite {
	query: CompiledQuery;
	params: unknown[];
}

/**
 * Audit entries written inside another group's write (a test call's, in one transaction with
 * it). The audit group makes it (`auditEntryWriter`); the assembler hands it over.
 */
export interface AuditEntryWriter {
	/** The writes of these entries, with their outbox rows when the stream is on. */
	writes(entries: Omit<AuditEntry, 'id'>[]): CompiledWrite[];
	/** Tells the stream, once the writes are done, that these entries reached the outbox. */
	written(entries: Omit<AuditEntry, 'id'>[]): void;
}

/** What each group is given to run its queries. */
export interface Queries {
	db: Kysely<Tables>;
	/** The database is PostgreSQL (else SQLite): where the dialects' SQL differs. */
	pg: boolean;
	options: StoreOptions;
	/** Runs a transaction with relaxed durability (see {@link Backend.relaxed}). */
	relaxed: Backend['relaxed'];
	/**
	 * The query `build` makes, compiled once per `key` (see {@link queries}); `params` are its
	 * parameters in the order the built query has them.
	 */
	compiled<R>(key: string, params: unknown[], build: () => Compilable<R>): CompiledQuery<R>;
	/** The first row of a compiled query; on SQLite at once where the connection is free. */
	first<R>(
		q: Kysely<Tables>,
		key: string,
		params: unknown[],
		build: () => Compilable<R>
	): Promise<R | undefined>;
	/**
	 * Runs compiled writes in one relaxed transaction (see `Backend.relaxed`): on SQLite at once
	 * where the connection is free, else through the builder. Returns the first query's first row.
	 */
	relaxedWrites(writes: CompiledWrite[]): Promise<unknown>;
}

/**
 * How the groups run their queries on a backend.
 *
 * The queries every request makes (its session or token, its user, a profile and revision)
 * and a test call's writes are built and compiled once, then run with new parameters:
 * building and compiling costs more than SQLite running them. `params` are the query's
 * parameters in the order the built query has them (checked when it is compiled); none is
 * undefined, which the builder would have left out of the query.
 */
export function queries(backend: Backend, options: StoreOptions): Queries {
	const { db } = backend;
	const cache = new Map<string, CompiledQuery>();
	function compiled<R>(key: string, params: unknown[], build: () => Compilable<R>) {
		if (params.includes(undefined)) throw new Error(`The query "${key}" lacks a parameter.`);
		let query = cache.get(key);
		if (!query) {
			query = build().compile();
			if (!isDeepStrictEqual(query.parameters, params)) {
				throw new Error(`The query "${key}" takes its parameters in another order.`);
			}
			cache.set(key, query);
		}
		return query as CompiledQuery<R>;
	}
	return {
		db,
		pg: backend.dialect === 'postgres',
		options,
		relaxed: (write) => backend.relaxed(write),
		compiled,
		async first<R>(
			q: Kysely<Tables>,
			key: string,
			params: unknown[],
			build: () => Compilable<R>
		): Promise<R | undefined> {
			const query = compiled(key, params, build);
			if (q === db) {
				const done = backend.now?.((run) => run(query, params)[0] as R | undefined, 'read');
				if (done) return done.value;
			}
			const result = await q.executeQuery<R>({ ...query, parameters: params });
			return result.rows[0];
		},
		async relaxedWrites(writes) {
			const done = backend.now?.(
				(run) => writes.map(({ query, params }) => run(query, params))[0]?.[0],
				'relaxed'
			);
			if (done) return done.value;
			return backend.relaxed(async (trx) => {
				const rows: unknown[][] = [];
				for (const { query, params } of writes) {
					rows.push((await trx.executeQuery({ ...query, parameters: params })).rows);
				}
				return rows[0]?.[0];
			});
		}
	};
}
