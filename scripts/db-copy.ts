// `npm run db:copy -- [--from <data dir>] [--to <postgres URL>]`: copies an existing SQLite data
// directory (DATA_DIR by default) into an empty PostgreSQL database (DATABASE_URL by default),
// then compares every row of both. Stop the app first; start it on DATABASE_URL afterwards, with
// the same SECRET_KEY or the data directory's secret key file.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { copyStore } from '../src/lib/server/store/copy';
import {
	isPostgresUrl,
	postgresBackend,
	sqliteBackend,
	SQLITE_FILE
} from '../src/lib/server/store/open';

function fail(message: string): never {
	console.error(message);
	process.exit(1);
}

const { values } = parseArgs({
	options: { from: { type: 'string' }, to: { type: 'string' } },
	allowPositionals: false
});
const from = path.resolve(values.from ?? (process.env.DATA_DIR || './data'));
const to = values.to ?? process.env.DATABASE_URL ?? '';
if (!existsSync(path.join(from, SQLITE_FILE))) {
	fail(
		`No SQLite database in ${from} (looked for ${SQLITE_FILE}); give the data directory with --from.`
	);
}
if (!isPostgresUrl(to)) {
	fail('Give the PostgreSQL database to copy into with --to postgres://… or DATABASE_URL.');
}

const source = sqliteBackend(from);
const target = postgresBackend(to);
try {
	const started = Date.now();
	const report = await copyStore(source, target);
	for (const { table, rows } of report.tables) console.log(`${table.padEnd(16)} ${rows} rows`);
	const total = report.tables.reduce((sum, t) => sum + t.rows, 0);
	console.log(
		`Copied ${total} rows from ${from} into ${new URL(to).host}${new URL(to).pathname} and ` +
			`compared every row: identical (${Date.now() - started} ms).`
	);
} catch (error) {
	console.error(`Copy failed: ${error instanceof Error ? error.message : error}`);
	process.exitCode = 1;
} finally {
	await source.close();
	await target.close();
}
