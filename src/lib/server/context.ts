import { readConfig, type ServerConfig } from './config';
import { loadSecretKey } from './secrets';
import { openSqliteStore } from './store/sqlite';
import type { Store } from './store/types';

/** What every request handler needs: configuration, the store and the secret key. */
export interface ServerContext {
	config: ServerConfig;
	store: Store;
	secretKey: Buffer;
}

let context: ServerContext | undefined;

/** Opens the store and loads the key once; later calls return the same context. */
export function serverContext(): ServerContext {
	if (!context) {
		const config = readConfig();
		const store = openSqliteStore(config.dataDir);
		context = { config, store, secretKey: loadSecretKey(config.dataDir) };
	}
	return context;
}
