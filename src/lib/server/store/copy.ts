import { sql, type Kysely } from 'kysely';
import { isDeepStrictEqual } from 'node:util';
import type { Backend } from './kysely';
import { migrate } from './migrations';
import { DATA_TABLES, type Tables } from './schema';

/**
 * Moving the data of one store into another (an existing SQLite data directory into
 * PostgreSQL): both are migrated to the latest schema, every row of every table is copied in one
 * transaction of the target, keeping its ids, and then every row is read back from both sides and
 * compared. The target must be empty, so a copy never mixes two histories.
 */

/** Rows read or written at once. */
const PAGE = 1000;

type AnyDb = Kysely<Tables>;
type Row = Record<string, unknown>;

/** What a copy did, table by table. */
export interface CopyReport {
	tables: { table: string; rows: number }[];
}

/** A difference found by {@link compareStores}. */
export interface Difference {
	table: string;
	/** Row counts of source and target. */
	counts: [number, number];
	/** The first row (in key order) that differs, from each side. */
	first?: { source: Row | undefined; target: Row | undefined };
}

/** Every row of a table, page by page, in the order of its key. */
async function* rowsOf(db: AnyDb, table: string, key: string[]): AsyncGenerator<Row[]> {
	for (let offset = 0; ; offset += PAGE) {
		let query = db.selectFrom(table as keyof Tables).selectAll();
		for (const column of key) query = query.orderBy(sql.ref(column));
		const rows = (await query.limit(PAGE).offset(offset).execute()) as Row[];
		if (rows.length) yield rows;
		if (rows.length < PAGE) return;
	}
}

/** The same value on both backends: numbers as numbers (PostgreSQL's bigint is read as one). */
function normal(row: Row | undefined): Row | undefined {
	if (!row) return row;
	return Object.fromEntries(
		Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])
	);
}

/** Compares every row of every data table; answers the tables that differ (none: equal). */
export async function compareStores(source: AnyDb, target: AnyDb): Promise<Difference[]> {
	const differences: Difference[] = [];
	for (const { table, key } of DATA_TABLES) {
		const a = rowsOf(source, table, key);
		const b = rowsOf(target, table, key);
		const counts: [number, number] = [0, 0];
		let first: Difference['first'];
		let pageA: Row[] = [];
		let pageB: Row[] = [];
		let doneA = false;
		let doneB = false;
		while (true) {
			if (!pageA.length && !doneA) {
				const next = await a.next();
				if (next.done) doneA = true;
				else pageA = next.value;
			}
			if (!pageB.length && !doneB) {
				const next = await b.next();
				if (next.done) doneB = true;
				else pageB = next.value;
			}
			if (!pageA.length && !pageB.length) break;
			const rowA = pageA.shift();
			const rowB = pageB.shift();
			if (rowA) counts[0]++;
			if (rowB) counts[1]++;
			if (!first && !isDeepStrictEqual(normal(rowA), normal(rowB))) {
				first = { source: rowA, target: rowB };
			}
		}
		if (first || counts[0] !== counts[1]) differences.push({ table, counts, first });
	}
	return differences;
}

/**
 * Copies every row of `source` into `target` (both migrated first), then compares both. Throws
 * when the target already holds data, or when the comparison finds a difference (the copy is
 * then committed: the error names the table, and the target can be emptied and the copy rerun).
 */
export async function copyStore(source: Backend, target: Backend): Promise<CopyReport> {
	await migrate(source.db, source.dialect);
	await migrate(target.db, target.dialect);
	for (const { table } of DATA_TABLES) {
		const row = await target.db
			.selectFrom(table)
			.select(sql<number>`1`.as('one'))
			.limit(1)
			.executeTakeFirst();
		if (row) {
			throw new Error(
				`The target database already holds data (table ${table} is not empty): copy into an empty database.`
			);
		}
	}
	const report: CopyReport = { tables: [] };
	await target.db.transaction().execute(async (trx) => {
		for (const { table, key, identity } of DATA_TABLES) {
			let rows = 0;
			for await (const page of rowsOf(source.db, table, key)) {
				// Parameters are limited per statement (PostgreSQL: 65535): insert in slices.
				const columns = Object.keys(page[0]).length;
				const slice = Math.max(1, Math.floor(60_000 / columns));
				for (let i = 0; i < page.length; i += slice) {
					await trx
						.insertInto(table)
						.values(page.slice(i, i + slice) as never)
						.execute();
				}
				rows += page.length;
			}
			if (identity && target.dialect === 'postgres') {
				// The next id comes after the copied ones.
				await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'),
					COALESCE((SELECT MAX(id) FROM ${sql.table(table)}), 0) + 1, false)`.execute(trx);
			}
			report.tables.push({ table, rows });
		}
	});
	const differences = await compareStores(source.db, target.db);
	if (differences.length) {
		const names = differences
			.map((d) => `${d.table} (${d.counts[0]} rows in the source, ${d.counts[1]} in the target)`)
			.join(', ');
		throw new Error(`The copy differs from the source in ${names}.`);
	}
	return report;
}
