/**
 * Versioned schema migrations of the SQLite store, applied in order at start. A migration is
 * never edited once released: changes come as a new entry.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
	{
		version: 1,
		name: 'users, sessions, tokens, profiles, revisions, audit log',
		sql: `
CREATE TABLE users (
	id INTEGER PRIMARY KEY,
	email TEXT NOT NULL UNIQUE COLLATE NOCASE,
	name TEXT NOT NULL,
	role TEXT NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
	password_hash TEXT NOT NULL,
	active INTEGER NOT NULL DEFAULT 1,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);
CREATE TABLE sessions (
	token_hash TEXT PRIMARY KEY,
	user_id INTEGER NOT NULL REFERENCES users(id),
	created_at INTEGER NOT NULL,
	last_seen_at INTEGER NOT NULL,
	expires_at INTEGER NOT NULL,
	ip TEXT,
	user_agent TEXT
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE TABLE api_tokens (
	id INTEGER PRIMARY KEY,
	user_id INTEGER NOT NULL REFERENCES users(id),
	name TEXT NOT NULL,
	prefix TEXT NOT NULL,
	token_hash TEXT NOT NULL UNIQUE,
	created_at INTEGER NOT NULL,
	last_used_at INTEGER,
	revoked_at INTEGER
);
CREATE TABLE profiles (
	id TEXT PRIMARY KEY,
	name TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	created_by INTEGER REFERENCES users(id),
	deleted_at INTEGER,
	head_revision INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);
CREATE TABLE revisions (
	profile_id TEXT NOT NULL REFERENCES profiles(id),
	revision INTEGER NOT NULL,
	document TEXT NOT NULL,
	secrets TEXT,
	author_id INTEGER REFERENCES users(id),
	created_at INTEGER NOT NULL,
	message TEXT,
	PRIMARY KEY (profile_id, revision)
);
CREATE TABLE audit_log (
	id INTEGER PRIMARY KEY,
	at INTEGER NOT NULL,
	actor_id INTEGER,
	actor TEXT,
	action TEXT NOT NULL,
	target TEXT,
	ip TEXT,
	details TEXT
);
CREATE INDEX audit_at ON audit_log(at);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
	BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
	BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
`
	},
	{
		version: 2,
		name: 'test call history, echo sinks and the requests they received',
		sql: `
CREATE TABLE test_calls (
	id INTEGER PRIMARY KEY,
	user_id INTEGER NOT NULL REFERENCES users(id),
	service TEXT NOT NULL,
	profile_id TEXT,
	scenario TEXT,
	at INTEGER NOT NULL,
	summary TEXT NOT NULL,
	record TEXT NOT NULL
);
CREATE INDEX test_calls_user_service ON test_calls(user_id, service, id);
CREATE TABLE sinks (
	key TEXT PRIMARY KEY,
	name TEXT NOT NULL,
	created_by INTEGER REFERENCES users(id),
	created_at INTEGER NOT NULL,
	answer TEXT NOT NULL
);
CREATE TABLE sink_requests (
	id INTEGER PRIMARY KEY,
	sink_key TEXT NOT NULL REFERENCES sinks(key) ON DELETE CASCADE,
	at INTEGER NOT NULL,
	record TEXT NOT NULL
);
CREATE INDEX sink_requests_sink ON sink_requests(sink_key, id);
`
	},
	{
		version: 3,
		name: 'push sandboxes and the pushes they received',
		sql: `
CREATE TABLE sandboxes (
	id TEXT PRIMARY KEY,
	key TEXT NOT NULL,
	key_hash TEXT NOT NULL UNIQUE,
	name TEXT NOT NULL,
	owner_id INTEGER REFERENCES users(id),
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	settings TEXT NOT NULL
);
CREATE TABLE sandbox_pushes (
	id INTEGER PRIMARY KEY,
	sandbox_id TEXT NOT NULL REFERENCES sandboxes(id) ON DELETE CASCADE,
	at INTEGER NOT NULL,
	record TEXT NOT NULL
);
CREATE INDEX sandbox_pushes_sandbox ON sandbox_pushes(sandbox_id, id);
`
	},
	{
		version: 4,
		name: 'flow runs kept per profile',
		sql: `
CREATE TABLE flow_runs (
	id INTEGER PRIMARY KEY,
	profile_id TEXT,
	flow TEXT NOT NULL,
	user_id INTEGER REFERENCES users(id),
	at INTEGER NOT NULL,
	ok INTEGER NOT NULL,
	summary TEXT NOT NULL,
	record TEXT NOT NULL
);
CREATE INDEX flow_runs_profile ON flow_runs(profile_id, id);
`
	}
];
