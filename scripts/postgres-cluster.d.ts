/** A throw-away PostgreSQL cluster (see postgres-cluster.js). */
export interface Cluster {
	port: number;
	dir: string;
	/** The `postgres` database, as superuser `postgres` without a password. */
	url: string;
	urlOf(database: string): string;
	createDatabase(name: string): Promise<string>;
	/** Stops the server, keeping its data (an outage). */
	stopServer(mode?: 'fast' | 'immediate'): void;
	/** Starts the server again on the same port. */
	startServer(): void;
	destroySync(): void;
	/** Stops the server and removes the cluster. */
	stop(): Promise<void>;
}

/** The directory of PostgreSQL's programs, installing Debian's package first when missing. */
export function ensurePostgres(): string;

/** Starts a throw-away cluster on 127.0.0.1 and a free port. */
export function startCluster(): Promise<Cluster>;
