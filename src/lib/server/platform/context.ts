import { mkdirSync } from 'node:fs';
import { AuditStream, readAuditStreamConfig } from '../audit/stream';
import { withAccessNews } from '../auth/access-news';
import { setPasswordCost } from '../auth/password';
import { readConfig, type ServerConfig } from './config';
import { loadSecretKey } from './secrets';
import { openStore } from '../store/open';
import type { Store } from '../store/types';

/** What every request handler needs: configuration, the store and the secret key. */
export interface ServerContext {
	config: ServerConfig;
	store: Store;
	secretKey: Buffer;
	/** The audit stream's worker, when `AUDIT_WEBHOOK_URL` is set (started by the server's init). */
	auditStream: AuditStream | null;
}

let context: ServerContext | undefined;

/**
 * Opens the store (PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR), loads the key
 * and makes the audit stream's worker once; later calls return the same context.
 */
export function serverContext(): ServerContext {
	if (!context) {
		const config = readConfig();
		setPasswordCost(config.passwordCost);
		const streamConfig = readAuditStreamConfig();
		// The secret key's file lives in the data directory whichever database holds the data.
		mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
		// With the stream on, every audit entry is queued for it as it is written.
		let auditStream: AuditStream | null = null;
		// Every ending of a user's access is told to their open streams, whichever code ends it.
		const store = withAccessNews(
			openStore(config, {
				auditOutbox: streamConfig !== null,
				onAudit: () => auditStream?.wake()
			})
		);
		if (streamConfig) auditStream = new AuditStream(store, streamConfig);
		context = { config, store, secretKey: loadSecretKey(config.dataDir), auditStream };
	}
	return context;
}
