import { mkdirSync } from 'node:fs';
import { readConfig, type ServerConfig } from './config';
import { loadSecretKey } from './secrets';
import { openStore } from './store/open';
import type { Store } from './store/types';

/** What every request handler needs: configuration, the store and the secret key. */
export interface ServerContext {
	config: ServerConfig;
	store: Store;
	secretKey: Buffer;
}

let context: ServerContext | undefined;

/**
 * Opens the store (PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR) and loads the
 * key once; later calls return the same context.
 */
export function serverContext(): ServerContext {
	if (!context) {
		const config = readConfig();
		// The secret key's file lives in the data directory whichever database holds the data.
		mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
		const store = openStore(config);
		context = { config, store, secretKey: loadSecretKey(config.dataDir) };
	}
	return context;
}
