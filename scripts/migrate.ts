// `npm run migrate`: applies the store's pending migrations to the database the environment
// names (DATABASE_URL for PostgreSQL, else SQLite in DATA_DIR), as the app does at start.
import { readConfig } from '../src/lib/server/platform/config';
import { appliedVersions, migrate } from '../src/lib/server/store/migrations';
import { openBackend } from '../src/lib/server/store/open';

const config = readConfig();
const where = config.databaseUrl
	? `PostgreSQL (${new URL(config.databaseUrl).host})`
	: `SQLite in ${config.dataDir}`;
const backend = openBackend(config);
try {
	const applied = await migrate(backend.db, backend.dialect);
	const versions = await appliedVersions(backend.db);
	console.log(
		`${where}: ${applied === 0 ? 'already up to date' : `applied ${applied} migration(s)`}; ` +
			`schema version ${versions.at(-1) ?? 0}.`
	);
} catch (error) {
	console.error(`${where}: migration failed: ${error instanceof Error ? error.message : error}`);
	process.exitCode = 1;
} finally {
	await backend.close();
}
