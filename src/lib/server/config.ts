import path from 'node:path';

/** The server's configuration, read once from the environment (documented in README.md). */
export interface ServerConfig {
	dataDir: string;
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
	return {
		dataDir: path.resolve(env.DATA_DIR || './data'),
		sessionIdleMs: positive('SESSION_IDLE_MINUTES', 12 * 60) * 60_000,
		sessionMaxMs: positive('SESSION_MAX_HOURS', 7 * 24) * 3_600_000,
		adminEmail: env.ADMIN_EMAIL || undefined,
		adminPassword: env.ADMIN_PASSWORD || undefined,
		origin: env.ORIGIN || undefined,
		port: Number(env.PORT || 3000)
	};
}
