import path from 'node:path';
import { PASSWORD_COST } from '../auth/password';
import { checkedValues } from './environment';

/** The server's configuration, read once from the environment (documented in docs/configuration.md). */
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
	/** Who must have a second factor when they sign in with a password. */
	require2fa: 'off' | 'admins' | 'all';
	/** scrypt's cost (log2 N) for the password hashes made from now on. */
	passwordCost: number;
	adminEmail: string | undefined;
	adminPassword: string | undefined;
	/** The public origin, when set (behind a proxy); used in printed links. */
	origin: string | undefined;
	port: number;
}

const NAMES = [
	'DATA_DIR',
	'DATABASE_URL',
	'LIVE_UPDATES',
	'SESSION_IDLE_MINUTES',
	'SESSION_MAX_HOURS',
	'REQUIRE_2FA',
	'PASSWORD_HASH_COST',
	'ADMIN_EMAIL',
	'ADMIN_PASSWORD',
	'ORIGIN',
	'PORT'
] as const;

/**
 * Reads the configuration from the environment, each variable checked by its rule in the one
 * schema of variables (`environment.ts`); a wrong value throws a `ConfigurationError` naming it.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
	const v = checkedValues(env, NAMES);
	return {
		dataDir: path.resolve(v.DATA_DIR ?? './data'),
		databaseUrl: v.DATABASE_URL,
		liveUpdates: v.LIVE_UPDATES === 'poll' ? 'poll' : 'notify',
		sessionIdleMs: Number(v.SESSION_IDLE_MINUTES ?? 12 * 60) * 60_000,
		sessionMaxMs: Number(v.SESSION_MAX_HOURS ?? 7 * 24) * 3_600_000,
		require2fa: v.REQUIRE_2FA === 'admins' || v.REQUIRE_2FA === 'all' ? v.REQUIRE_2FA : 'off',
		passwordCost: Number(v.PASSWORD_HASH_COST ?? PASSWORD_COST.recommended),
		adminEmail: v.ADMIN_EMAIL,
		adminPassword: v.ADMIN_PASSWORD,
		origin: v.ORIGIN,
		port: Number(v.PORT ?? 3000)
	};
}
