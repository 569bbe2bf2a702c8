import { createRequire } from 'node:module';
import type Pg from 'pg';

let loaded: typeof Pg | undefined;

/**
 * node-postgres, loaded the first time the app opens a PostgreSQL connection: an app on SQLite
 * (the default) never loads it, which spares every start about 80 ms of compiling its modules.
 */
export function postgresDriver(): typeof Pg {
	loaded ??= createRequire(import.meta.url)('pg') as typeof Pg;
	return loaded;
}
