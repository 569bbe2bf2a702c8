import path from 'node:path';

/** The server's configuration, read once from the environment (documented in README.md). */
export interface ServerConfig {
	dataDir: string;
	/** `postgres://…` when the data lives in PostgreSQL; SQLite in `dataDir` otherwise. */
	databaseUrl: string | undefined;
	/**
	 * How instances on one PostgreSQL hear of each other's live records: `notify` (LISTEN/NOTIFY,
	 * polling only when that fails) or `poll` (every second, for a pooler in transaction mode).
	 */
	liveUpdates: 'notify' | 'poll';
	/** Idle time after which a session ends. */
	sessionIdleMs: number;
	/** Time after login after which a session ends, however active. */
	sessionMaxMs: number;
	adminEmail: string | undefined;
	adminPassword: string | undefined;
	/** The public origin, when set (behind a proxy); used in printed links. */
	origin: string | undefined;
	port: number;
}

function positive(name: string, fallback: number): number {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return fallback;
	const value = Number(raw);
	if (!Number.isFinite(value) || value <= 0) {
		throw new Error(`${name} must be a positive number, not "${raw}".`);
	}
	return value;
}

/** Reads the configuration from the environment. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
	const databaseUrl = env.DATABASE_URL || undefined;
	if (databaseUrl && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
		throw new Error(
			'DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:5432/database); ' +
				'leave it unset to keep the data in SQLite in DATA_DIR.'
		);
	}
	const liveUpdates = env.LIVE_UPDATES || 'notify';
	if (liveUpdates !== 'notify' && liveUpdates !== 'poll') {
		throw new Error(`LIVE_UPDATES must be "notify" or "poll", not "${liveUpdates}".`);
	}
	return {
		dataDir: path.resolve(env.DATA_DIR || './data'),
		databaseUrl,
		liveUpdates,
		sessionIdleMs: positive('SESSION_IDLE_MINUTES', 12 * 60) * 60_000,
		sessionMaxMs: positive('SESSION_MAX_HOURS', 7 * 24) * 3_600_000,
		adminEmail: env.ADMIN_EMAIL || undefined,
		adminPassword: env.ADMIN_PASSWORD || undefined,
		origin: env.ORIGIN || undefined,
		port: Number(env.PORT || 3000)
	};
}
