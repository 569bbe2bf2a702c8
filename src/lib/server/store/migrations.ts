import { sql, type ColumnDataType, type Kysely } from 'kysely';
import type { DialectName, Tables } from './schema';

/**
 * Versioned schema migrations of the store, one set for SQLite and PostgreSQL, written with the
 * query builder's schema API. Each is applied once, in its own transaction, and recorded in
 * `schema_migrations`. A migration is never edited once released: changes come as a new entry.
 * Where the dialects differ (identity columns, case-insensitive e-mails, triggers), the
 * migration says so; on SQLite the result is the schema the store has always had.
 */
export interface Migration {
	version: number;
	name: string;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration sees the schema of its time
	up(db: Kysely<any>, dialect: DialectName): Promise<void>;
}

/** Column types that differ between the dialects. */
function types(dialect: DialectName) {
	const pg = dialect === 'postgres';
	return {
		/** Times in milliseconds and row ids do not fit PostgreSQL's 32-bit `integer`. */
		int: (pg ? 'bigint' : 'integer') as ColumnDataType,
		/** An auto-numbered key: SQLite's rowid alias, PostgreSQL's identity column. */
		// eslint-disable-next-line @typescript-eslint/no-explicit-any
		id: (col: any) => (pg ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey())
	};
}

export const MIGRATIONS: readonly Migration[] = [
	{
		version: 1,
		name: 'users, sessions, tokens, profiles, revisions, audit log',
		async up(db, dialect) {
			const { int, id } = types(dialect);
			const pg = dialect === 'postgres';
			await db.schema
				.createTable('users')
				.addColumn('id', pg ? 'bigint' : 'integer', id)
				.addColumn('email', 'text', (c) =>
					pg
						? c.notNull()
						: c
								.notNull()
								.unique()
								.modifyEnd(sql`COLLATE NOCASE`)
				)
				.addColumn('name', 'text', (c) => c.notNull())
				.addColumn('role', 'text', (c) =>
					c.notNull().check(sql`role IN ('admin', 'editor', 'viewer')`)
				)
				.addColumn('password_hash', 'text', (c) => c.notNull())
				.addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
				.addColumn('created_at', int, (c) => c.notNull())
				.addColumn('updated_at', int, (c) => c.notNull())
				.execute();
			if (pg) {
				// E-mails are unique and found without regard to case, as SQLite's NOCASE does.
				await db.schema
					.createIndex('users_email_lower')
					.on('users')
					.unique()
					.expression(sql`lower(email)`)
					.execute();
			}
			await db.schema
				.createTable('sessions')
				.addColumn('token_hash', 'text', (c) => c.primaryKey())
				.addColumn('user_id', int, (c) => c.notNull().references('users.id'))
				.addColumn('created_at', int, (c) => c.notNull())
				.addColumn('last_seen_at', int, (c) => c.notNull())
				.addColumn('expires_at', int, (c) => c.notNull())
				.addColumn('ip', 'text')
				.addColumn('user_agent', 'text')
				.execute();
			await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
			await db.schema
				.createTable('api_tokens')
				.addColumn('id', int, id)
				.addColumn('user_id', int, (c) => c.notNull().references('users.id'))
				.addColumn('name', 'text', (c) => c.notNull())
				.addColumn('prefix', 'text', (c) => c.notNull())
				.addColumn('token_hash', 'text', (c) => c.notNull().unique())
				.addColumn('created_at', int, (c) => c.notNull())
				.addColumn('last_used_at', int)
				.addColumn('revoked_at', int)
				.execute();
			await db.schema
				.createTable('profiles')
				.addColumn('id', 'text', (c) => c.primaryKey())
				.addColumn('name', 'text', (c) => c.notNull())
				.addColumn('created_at', int, (c) => c.notNull())
				.addColumn('created_by', int, (c) => c.references('users.id'))
				.addColumn('deleted_at', int)
				.addColumn('head_revision', 'integer', (c) => c.notNull())
				.addColumn('updated_at', int, (c) => c.notNull())
				.execute();
			await db.schema
				.createTable('revisions')
				.addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id'))
				.addColumn('revision', 'integer', (c) => c.notNull())
				.addColumn('document', 'text', (c) => c.notNull())
				.addColumn('secrets', 'text')
				.addColumn('author_id', int, (c) => c.references('users.id'))
				.addColumn('created_at', int, (c) => c.notNull())
				.addColumn('message', 'text')
				.addPrimaryKeyConstraint('revisions_pkey', ['profile_id', 'revision'])
				.execute();
			await db.schema
				.createTable('audit_log')
				.addColumn('id', int, id)
				.addColumn('at', int, (c) => c.notNull())
				.addColumn('actor_id', int)
				.addColumn('actor', 'text')
				.addColumn('action', 'text', (c) => c.notNull())
				.addColumn('target', 'text')
				.addColumn('ip', 'text')
				.addColumn('details', 'text')
				.execute();
			await db.schema.createIndex('audit_at').on('audit_log').column('at').execute();
			// The audit log is append-only: the database itself refuses to change or remove a row.
			// Triggers have no builder in either dialect, so they are written out per dialect.
			if (pg) {
				await sql`CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
					BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$`.execute(db);
				await sql`CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
					FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(db);
				await sql`CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
					FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`.execute(db);
			} else {
				await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
					BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END`.execute(db);
				await sql`CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
					BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END`.execute(db);
			}
		}
	},
	{
		version: 2,
		name: 'test call history, echo sinks and the requests they received',
		async up(db, dialect) {
			const { int, id } = types(dialect);
			await db.schema
				.createTable('test_calls')
				.addColumn('id', int, id)
				.addColumn('user_id', int, (c) => c.notNull().references('users.id'))
				.addColumn('service', 'text', (c) => c.notNull())
				.addColumn('profile_id', 'text')
				.addColumn('scenario', 'text')
				.addColumn('at', int, (c) => c.notNull())
				.addColumn('summary', 'text', (c) => c.notNull())
				.addColumn('record', 'text', (c) => c.notNull())
				.execute();
			await db.schema
				.createIndex('test_calls_user_service')
				.on('test_calls')
				.columns(['user_id', 'service', 'id'])
				.execute();
			await db.schema
				.createTable('sinks')
				.addColumn('key', 'text', (c) => c.primaryKey())
				.addColumn('name', 'text', (c) => c.notNull())
				.addColumn('created_by', int, (c) => c.references('users.id'))
				.addColumn('created_at', int, (c) => c.notNull())
				.addColumn('answer', 'text', (c) => c.notNull())
				.execute();
			await db.schema
				.createTable('sink_requests')
				.addColumn('id', int, id)
				.addColumn('sink_key', 'text', (c) =>
					c.notNull().references('sinks.key').onDelete('cascade')
				)
				.addColumn('at', int, (c) => c.notNull())
				.addColumn('record', 'text', (c) => c.notNull())
				.execute();
			await db.schema
				.createIndex('sink_requests_sink')
				.on('sink_requests')
				.columns(['sink_key', 'id'])
				.execute();
		}
	},
	{
		version: 3,
		name: 'push sandboxes and the pushes they received',
		async up(db, dialect) {
			const { int, id } = types(dialect);
			await db.schema
				.createTable('sandboxes')
				.addColumn('id', 'text', (c) => c.primaryKey())
				.addColumn('key', 'text', (c) => c.notNull())
				.addColumn('key_hash', 'text', (c) => c.notNull().unique())
				.addColumn('name', 'text', (c) => c.notNull())
				.addColumn('owner_id', int, (c) => c.references('users.id'))
				.addColumn('created_at', int, (c) => c.notNull())
				.addColumn('updated_at', int, (c) => c.notNull())
				.addColumn('settings', 'text', (c) => c.notNull())
				.execute();
			await db.schema
				.createTable('sandbox_pushes')
				.addColumn('id', int, id)
				.addColumn('sandbox_id', 'text', (c) =>
					c.notNull().references('sandboxes.id').onDelete('cascade')
				)
				.addColumn('at', int, (c) => c.notNull())
				.addColumn('record', 'text', (c) => c.notNull())
				.execute();
			await db.schema
				.createIndex('sandbox_pushes_sandbox')
				.on('sandbox_pushes')
				.columns(['sandbox_id', 'id'])
				.execute();
		}
	},
	{
		version: 4,
		name: 'flow runs kept per profile',
		async up(db, dialect) {
			const { int, id } = types(dialect);
			await db.schema
				.createTable('flow_runs')
				.addColumn('id', int, id)
				.addColumn('profile_id', 'text')
				.addColumn('flow', 'text', (c) => c.notNull())
				.addColumn('user_id', int, (c) => c.references('users.id'))
				.addColumn('at', int, (c) => c.notNull())
				.addColumn('ok', 'integer', (c) => c.notNull())
				.addColumn('summary', 'text', (c) => c.notNull())
				.addColumn('record', 'text', (c) => c.notNull())
				.execute();
			await db.schema
				.createIndex('flow_runs_profile')
				.on('flow_runs')
				.columns(['profile_id', 'id'])
				.execute();
		}
	},
	{
		version: 5,
		name: 'rate-limit counters shared by the instances',
		async up(db, dialect) {
			// On SQLite there is one process: its limits count in memory, and no table is needed.
			if (dialect !== 'postgres') return;
			// The shape rate-limiter-flexible reads and writes. Instances of earlier versions made
			// the same table themselves when they first counted: an existing one is kept with its
			// counters.
			await db.schema
				.createTable('rate_limits')
				.ifNotExists()
				.addColumn('key', 'varchar(255)', (c) => c.primaryKey())
				.addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
				.addColumn('expire', 'bigint')
				.execute();
		}
	},
	{
		version: 6,
		name: 'test calls found by profile',
		async up(db) {
			// A profile's page shows the newest call of each of its services, whoever made it.
			await db.schema
				.createIndex('test_calls_profile_service')
				.on('test_calls')
				.columns(['profile_id', 'service', 'id'])
				.execute();
		}
	},
	{
		version: 7,
		name: 'the audit stream: its outbox and its state',
		async up(db, dialect) {
			const { int } = types(dialect);
			// One row per audit entry still to be delivered to the audit webhook, written in the
			// entry's own transaction. `available_at` is when it may be claimed next: while an
			// instance holds it (`claimed_by`) the end of its lease, after a failure the time of
			// the next attempt.
			await db.schema
				.createTable('audit_outbox')
				// No foreign key: the log is append-only, its rows never go, and on PostgreSQL a
				// reference would answer an attempt to truncate the log before its trigger does.
				.addColumn('audit_id', int, (c) => c.primaryKey())
				.addColumn('available_at', int, (c) => c.notNull())
				.addColumn('claimed_by', 'text')
				.addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
				.addColumn('last_error', 'text')
				.execute();
			// What the audit page shows of the stream, whichever instance delivered: one row.
			await db.schema
				.createTable('audit_stream')
				.addColumn('id', 'integer', (c) => c.primaryKey())
				.addColumn('delivered_at', int)
				.addColumn('delivered_id', int)
				.addColumn('error', 'text')
				.addColumn('error_at', int)
				.execute();
			await db.insertInto('audit_stream').values({ id: 1 }).execute();
		}
	},
	{
		version: 8,
		name: 'sign-in identities at OpenID Connect providers',
		async up(db, dialect) {
			const { int } = types(dialect);
			// An account is found by its identity provider's issuer and subject, never by e-mail:
			// the subject is the one value a provider promises never to give to anyone else.
			await db.schema
				.createTable('user_identities')
				.addColumn('issuer', 'text', (c) => c.notNull())
				.addColumn('subject', 'text', (c) => c.notNull())
				.addColumn('user_id', int, (c) => c.notNull().references('users.id'))
				.addColumn('created_at', int, (c) => c.notNull())
				.addColumn('last_sign_in_at', int, (c) => c.notNull())
				.addPrimaryKeyConstraint('user_identities_pkey', ['issuer', 'subject'])
				.execute();
			await db.schema
				.createIndex('user_identities_user')
				.on('user_identities')
				.column('user_id')
				.execute();
		}
	},
	{
		version: 9,
		name: 'second factor (TOTP) with recovery codes; how each session was made',
		async up(db, dialect) {
			const { int } = types(dialect);
			// One authenticator per user: its secret sealed with the app's key, whether it is on yet,
			// and the last time step a code was accepted in (a code is never accepted twice).
			await db.schema
				.createTable('user_totp')
				.addColumn('user_id', int, (c) => c.primaryKey().references('users.id'))
				.addColumn('secret', 'text', (c) => c.notNull())
				.addColumn('created_at', int, (c) => c.notNull())
				.addColumn('enabled_at', int)
				.addColumn('last_step', int)
				.execute();
			// Only hashes of the codes; a used one keeps its row with the time it was used.
			await db.schema
				.createTable('recovery_codes')
				.addColumn('user_id', int, (c) => c.notNull().references('users.id'))
				.addColumn('code_hash', 'text', (c) => c.notNull())
				.addColumn('used_at', int)
				.addPrimaryKeyConstraint('recovery_codes_pkey', ['user_id', 'code_hash'])
				.execute();
			// Sessions made before this one were all made with a password.
			await db.schema
				.alterTable('sessions')
				.addColumn('method', 'text', (c) => c.notNull().defaultTo('password'))
				.execute();
		}
	},
	{
		version: 10,
		name: 'single sign-ons under way, each finished once',
		async up(db, dialect) {
			const { int } = types(dialect);
			// A row from a sign-in's start until its callback takes it (or it expires): a sign-in's
			// cookie finishes one sign-in, whichever instance its callback reaches.
			await db.schema
				.createTable('sign_in_flows')
				.addColumn('id', 'text', (c) => c.primaryKey())
				.addColumn('expires_at', int, (c) => c.notNull())
				.execute();
			await db.schema
				.createIndex('sign_in_flows_expires')
				.on('sign_in_flows')
				.column('expires_at')
				.execute();
		}
	},
	{
		version: 11,
		name: 'messaging runs followed live, read on every instance',
		async up(db, dialect) {
			const { int, id } = types(dialect);
			// One row per key a user follows a run by: the last item's number, the bytes its items
			// hold and when it was last written, so limits and expiry read a row per key.
			await db.schema
				.createTable('live_keys')
				.addColumn('id', int, id)
				.addColumn('user_id', int, (c) => c.notNull().references('users.id'))
				.addColumn('live_key', 'text', (c) => c.notNull())
				.addColumn('last_seq', int, (c) => c.notNull())
				.addColumn('bytes', int, (c) => c.notNull())
				.addColumn('touched_at', int, (c) => c.notNull())
				.addUniqueConstraint('live_keys_user_key', ['user_id', 'live_key'])
				.execute();
			await db.schema
				.createIndex('live_keys_touched')
				.on('live_keys')
				.column('touched_at')
				.execute();
			await db.schema
				.createTable('live_items')
				.addColumn('key_id', int, (c) => c.notNull().references('live_keys.id').onDelete('cascade'))
				.addColumn('seq', int, (c) => c.notNull())
				.addColumn('size', int, (c) => c.notNull())
				.addColumn('item', 'text', (c) => c.notNull())
				.addPrimaryKeyConstraint('live_items_pkey', ['key_id', 'seq'])
				.execute();
		}
	}
];

/** Serialises migrations of several instances starting at once on one PostgreSQL. */
const MIGRATION_LOCK = 7_331_017;

/**
 * Applies the migrations (`MIGRATIONS` unless told otherwise) the database has not recorded yet,
 * in order, each in its own transaction together with its record; answers how many it applied.
 * One that fails is rolled back whole and left unrecorded, and its error thrown: those before it
 * stay applied, and the next start tries it again. A SQLite database made before migrations were
 * recorded (its version was `PRAGMA user_version`) is adopted: the versions it already has are
 * recorded, not re-run. On SQLite `user_version` keeps following the latest version, so the file
 * still says which schema it has.
 */
export async function migrate(
	db: Kysely<Tables>,
	dialect: DialectName,
	migrations: readonly Migration[] = MIGRATIONS
): Promise<number> {
	const lock = async (trx: Kysely<Tables>) => {
		if (dialect === 'postgres')
			await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx);
	};
	await db.transaction().execute(async (trx) => {
		await lock(trx);
		await trx.schema
			.createTable('schema_migrations')
			.ifNotExists()
			.addColumn('version', 'integer', (c) => c.primaryKey())
			.addColumn('name', 'text', (c) => c.notNull())
			.addColumn('applied_at', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
			.execute();
		if (dialect !== 'sqlite') return;
		const recorded = await trx.selectFrom('schema_migrations').select('version').execute();
		const { rows } = await sql<{ user_version: number }>`PRAGMA user_version`.execute(trx);
		const legacy = rows[0]?.user_version ?? 0;
		if (recorded.length || !legacy) return;
		const at = Date.now();
		for (const m of migrations.filter((m) => m.version <= legacy)) {
			await trx
				.insertInto('schema_migrations')
				.values({ version: m.version, name: m.name, applied_at: at })
				.execute();
		}
	});
	let applied = 0;
	for (const migration of migrations) {
		const done = await db.transaction().execute(async (trx) => {
			await lock(trx);
			const seen = await trx
				.selectFrom('schema_migrations')
				.select('version')
				.where('version', '=', migration.version)
				.executeTakeFirst();
			if (seen) return false;
			await migration.up(trx, dialect);
			await trx
				.insertInto('schema_migrations')
				.values({ version: migration.version, name: migration.name, applied_at: Date.now() })
				.execute();
			if (dialect === 'sqlite') {
				await sql`PRAGMA user_version = ${sql.lit(migration.version)}`.execute(trx);
			}
			return true;
		});
		if (done) applied++;
	}
	return applied;
}

/** The versions recorded as applied, in order. */
export async function appliedVersions(db: Kysely<Tables>): Promise<number[]> {
	const rows = await db
		.selectFrom('schema_migrations')
		.select('version')
		.orderBy('version')
		.execute();
	return rows.map((r) => Number(r.version));
}
