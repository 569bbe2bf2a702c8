import type { Generated } from 'kysely';

/**
 * The tables of the store as the query builder sees them (column names as in the database).
 * Times are milliseconds since the epoch: `INTEGER` on SQLite, `BIGINT` on PostgreSQL (read back
 * as numbers). Flags are integers 0/1 on both, so both dialects read the same values.
 */

/** The SQL dialects the store runs on. */
export type DialectName = 'sqlite' | 'postgres';

export interface UsersTable {
	id: Generated<number>;
	email: string;
	name: string;
	role: string;
	password_hash: string;
	active: Generated<number>;
	created_at: number;
	updated_at: number;
}

export interface SessionsTable {
	token_hash: string;
	user_id: number;
	created_at: number;
	last_seen_at: number;
	expires_at: number;
	ip: string | null;
	user_agent: string | null;
	method: Generated<string>;
}

export interface ApiTokensTable {
	id: Generated<number>;
	user_id: number;
	name: string;
	prefix: string;
	token_hash: string;
	created_at: number;
	last_used_at: number | null;
	revoked_at: number | null;
}

export interface ProfilesTable {
	id: string;
	name: string;
	created_at: number;
	created_by: number | null;
	deleted_at: number | null;
	head_revision: number;
	updated_at: number;
}

export interface RevisionsTable {
	profile_id: string;
	revision: number;
	document: string;
	secrets: string | null;
	author_id: number | null;
	created_at: number;
	message: string | null;
}

export interface AuditLogTable {
	id: Generated<number>;
	at: number;
	actor_id: number | null;
	actor: string | null;
	action: string;
	target: string | null;
	ip: string | null;
	details: string | null;
}

export interface TestCallsTable {
	id: Generated<number>;
	user_id: number;
	service: string;
	profile_id: string | null;
	scenario: string | null;
	at: number;
	summary: string;
	record: string;
}

export interface SinksTable {
	key: string;
	name: string;
	created_by: number | null;
	created_at: number;
	answer: string;
}

export interface SinkRequestsTable {
	id: Generated<number>;
	sink_key: string;
	at: number;
	record: string;
}

export interface SandboxesTable {
	id: string;
	key: string;
	key_hash: string;
	name: string;
	owner_id: number | null;
	created_at: number;
	updated_at: number;
	settings: string;
}

export interface SandboxPushesTable {
	id: Generated<number>;
	sandbox_id: string;
	at: number;
	record: string;
}

export interface FlowRunsTable {
	id: Generated<number>;
	profile_id: string | null;
	flow: string;
	user_id: number | null;
	at: number;
	ok: number;
	summary: string;
	record: string;
}

/** An audit entry still to be streamed (see migration 7). */
export interface AuditOutboxTable {
	audit_id: number;
	available_at: number;
	claimed_by: string | null;
	attempts: Generated<number>;
	last_error: string | null;
}

/** The audit stream's last delivery and last error: one row, id 1. */
export interface AuditStreamTable {
	id: number;
	delivered_at: number | null;
	delivered_id: number | null;
	error: string | null;
	error_at: number | null;
}

export interface UserTotpTable {
	user_id: number;
	secret: string;
	created_at: number;
	enabled_at: number | null;
	last_step: number | null;
}

export interface RecoveryCodesTable {
	user_id: number;
	code_hash: string;
	used_at: number | null;
}

/** An account's identity at an OpenID Connect provider: its issuer and subject. */
export interface UserIdentitiesTable {
	issuer: string;
	subject: string;
	user_id: number;
	created_at: number;
	last_sign_in_at: number;
}

/** A single sign-on under way, from its start until its callback takes it or it expires. */
export interface SignInFlowsTable {
	id: string;
	expires_at: number;
}

/** A key a user follows a messaging run by (see migration 11). */
export interface LiveKeysTable {
	id: Generated<number>;
	user_id: number;
	live_key: string;
	/** The number of the key's last item: the next one is one more. */
	last_seq: number;
	/** The bytes of the key's items kept. */
	bytes: number;
	touched_at: number;
}

/** One item of a followed run, as its stream sends it (JSON), numbered within its key. */
export interface LiveItemsTable {
	key_id: number;
	seq: number;
	size: number;
	item: string;
}

/** The migrations applied, one row each (see `migrations.ts`). */
export interface SchemaMigrationsTable {
	version: number;
	name: string;
	applied_at: number;
}

/** Every table of the store. */
export interface Tables {
	users: UsersTable;
	sessions: SessionsTable;
	api_tokens: ApiTokensTable;
	profiles: ProfilesTable;
	revisions: RevisionsTable;
	audit_log: AuditLogTable;
	audit_outbox: AuditOutboxTable;
	audit_stream: AuditStreamTable;
	test_calls: TestCallsTable;
	sinks: SinksTable;
	sink_requests: SinkRequestsTable;
	sandboxes: SandboxesTable;
	sandbox_pushes: SandboxPushesTable;
	flow_runs: FlowRunsTable;
	user_totp: UserTotpTable;
	recovery_codes: RecoveryCodesTable;
	user_identities: UserIdentitiesTable;
	sign_in_flows: SignInFlowsTable;
	live_keys: LiveKeysTable;
	live_items: LiveItemsTable;
	schema_migrations: SchemaMigrationsTable;
}

/**
 * The data tables in an order where every table comes after those it references (the order a
 * copy inserts them in), each with its key columns (the order rows are compared in). Entries
 * waiting in the audit stream's outbox are copied with the log; the stream's last delivery and
 * error (`audit_stream`) describe the old installation and are not, nor are single sign-ons under
 * way (`sign_in_flows`) and runs followed live (`live_keys`, `live_items`), minutes long.
 */
export const DATA_TABLES: readonly {
	table: Exclude<
		keyof Tables,
		'schema_migrations' | 'audit_stream' | 'sign_in_flows' | 'live_keys' | 'live_items'
	>;
	key: string[];
	identity: boolean;
}[] = [
	{ table: 'users', key: ['id'], identity: true },
	{ table: 'sessions', key: ['token_hash'], identity: false },
	{ table: 'api_tokens', key: ['id'], identity: true },
	{ table: 'profiles', key: ['id'], identity: false },
	{ table: 'revisions', key: ['profile_id', 'revision'], identity: false },
	{ table: 'audit_log', key: ['id'], identity: true },
	{ table: 'audit_outbox', key: ['audit_id'], identity: false },
	{ table: 'test_calls', key: ['id'], identity: true },
	{ table: 'sinks', key: ['key'], identity: false },
	{ table: 'sink_requests', key: ['id'], identity: true },
	{ table: 'sandboxes', key: ['id'], identity: false },
	{ table: 'sandbox_pushes', key: ['id'], identity: true },
	{ table: 'flow_runs', key: ['id'], identity: true },
	{ table: 'user_totp', key: ['user_id'], identity: false },
	{ table: 'recovery_codes', key: ['user_id', 'code_hash'], identity: false },
	{ table: 'user_identities', key: ['issuer', 'subject'], identity: false }
];
