/**
 * The data layer's one interface. Routes and services use a `Store`; one implementation over a
 * query builder serves both backends, SQLite (the default) and PostgreSQL. Methods are
 * asynchronous for that reason, even where SQLite answers synchronously.
 * Times are milliseconds since the epoch. Each group of tables has its part of the interface
 * beside its rows (implemented in `tables/`); `Store` composes them.
 */

/** A user's role: viewers read, editors also write profiles, admins also manage users. */
export type Role = 'admin' | 'editor' | 'viewer';

/** The roles from least to most privileged. */
export const ROLES: readonly Role[] = ['viewer', 'editor', 'admin'];

/** A user account. `passwordHash` never leaves the server. */
export interface User {
	id: number;
	email: string;
	name: string;
	role: Role;
	active: boolean;
	passwordHash: string;
	createdAt: number;
	updatedAt: number;
}

/** How a session was made: `password` (with a second factor when the account has one). */
export type SessionMethod = 'password' | (string & {});

/** An account's identity at an OpenID Connect provider (issuer and subject). */
export interface UserIdentity {
	issuer: string;
	subject: string;
	userId: number;
	createdAt: number;
	lastSignInAt: number;
}

/** A login session; only the hash of its token is stored. */
export interface Session {
	tokenHash: string;
	userId: number;
	createdAt: number;
	lastSeenAt: number;
	expiresAt: number;
	method: SessionMethod;
}

/** A user's authenticator (TOTP): the secret sealed with the app's key. */
export interface TotpRow {
	userId: number;
	/** The base32 secret, sealed (see `secrets.ts`). */
	secret: string;
	createdAt: number;
	/** When it was turned on; null while it waits for its first code. */
	enabledAt: number | null;
	/** The last time step a code was accepted in; codes of it and before are refused. */
	lastStep: number | null;
}

/** What making an account needs. */
export type NewUser = Omit<User, 'id' | 'createdAt' | 'updatedAt' | 'active'> & { at: number };

/** Accounts, their identities at providers, their sessions and their second factors. */
export interface AccountStore {
	users: {
		count(): Promise<number>;
		create(input: NewUser): Promise<User>;
		findById(id: number): Promise<User | undefined>;
		findByEmail(email: string): Promise<User | undefined>;
		list(): Promise<User[]>;
		/**
		 * Changes an account; undefined when there is none. A demotion or a deactivation that would
		 * leave no active admin is refused (`'last_admin'`) and changes nothing, checked in the
		 * write itself, so two at once cannot both pass.
		 */
		update(
			id: number,
			changes: Partial<Pick<User, 'name' | 'role' | 'active' | 'passwordHash'>> & { at: number }
		): Promise<User | 'last_admin' | undefined>;
	};
	identities: {
		find(issuer: string, subject: string): Promise<UserIdentity | undefined>;
		/**
		 * Makes an account with its identity in one write, so an account made by a sign-in is never
		 * seen without the identity it belongs to.
		 */
		createAccount(
			input: NewUser,
			identity: Pick<UserIdentity, 'issuer' | 'subject'>
		): Promise<User>;
		/**
		 * Links an identity to an account that has none yet, in one write; false when that
		 * identity is linked already, the account has an identity, or there is no such account.
		 */
		link(identity: UserIdentity): Promise<boolean>;
		/** Whether an identity is linked to the account. */
		linked(userId: number): Promise<boolean>;
		touch(issuer: string, subject: string, at: number): Promise<void>;
		/** The ids of the accounts with at least one identity. */
		userIds(): Promise<number[]>;
	};
	sessions: {
		create(
			session: Omit<Session, 'method'> & {
				method?: SessionMethod;
				ip: string | null;
				userAgent: string | null;
			}
		): Promise<void>;
		find(tokenHash: string): Promise<Session | undefined>;
		touch(tokenHash: string, at: number): Promise<void>;
		delete(tokenHash: string): Promise<void>;
		deleteForUser(userId: number): Promise<void>;
		purgeExpired(now: number, idleMs: number): Promise<number>;
	};
	totp: {
		get(userId: number): Promise<TotpRow | undefined>;
		/** Starts an enrolment: a new secret, not on yet (replacing one that was not turned on). */
		begin(userId: number, secret: string, at: number): Promise<void>;
		/**
		 * Turns a waiting secret on with the step of the code that proved it, and replaces the
		 * recovery codes with these hashes, in one write; false when there was none waiting.
		 */
		enable(userId: number, step: number, at: number, codeHashes: string[]): Promise<boolean>;
		/** Accepts a code's step when it is later than the last accepted one; false otherwise. */
		acceptStep(userId: number, step: number): Promise<boolean>;
		/** Uses an unused recovery code; false when there is no such unused code. */
		useRecoveryCode(userId: number, codeHash: string, at: number): Promise<boolean>;
		/** Unused recovery codes left. */
		recoveryCodesLeft(userId: number): Promise<number>;
		/** Removes the authenticator and the recovery codes; false when it was not on. */
		remove(userId: number): Promise<boolean>;
		/** The users whose authenticator is on. */
		enabledUserIds(): Promise<number[]>;
	};
}

/** Single sign-ons under way: each is finished at most once, on any instance. */
export interface SignInFlowStore {
	signInFlows: {
		/** Records a sign-in started, until `expiresAt`; those expired by `now` go. */
		begin(id: string, expiresAt: number, now: number): Promise<void>;
		/** Takes a sign-in at its callback: true once for one begun and not expired, false after. */
		finish(id: string, now: number): Promise<boolean>;
	};
}

/** An API token for automation; only the hash of its secret is stored. */
export interface ApiToken {
	id: number;
	userId: number;
	name: string;
	/** The first characters of the token, to recognise it in a list. */
	prefix: string;
	tokenHash: string;
	createdAt: number;
	lastUsedAt: number | null;
	revokedAt: number | null;
}

/** API tokens. */
export interface TokenStore {
	tokens: {
		create(input: Omit<ApiToken, 'id' | 'lastUsedAt' | 'revokedAt'>): Promise<ApiToken>;
		findByHash(tokenHash: string): Promise<ApiToken | undefined>;
		listForUser(userId: number): Promise<ApiToken[]>;
		revoke(id: number, userId: number, at: number): Promise<boolean>;
		/** Revokes every active token of a user; answers how many. */
		revokeForUser(userId: number, at: number): Promise<number>;
		touch(id: number, at: number): Promise<void>;
	};
}

/** A profile's metadata; its content is in its revisions. */
export interface ProfileRow {
	id: string;
	name: string;
	createdAt: number;
	createdBy: number | null;
	deletedAt: number | null;
	headRevision: number;
	updatedAt: number;
}

/** One saved revision of a profile. `document` is JSON without secrets; `secrets` is sealed. */
export interface RevisionRow {
	profileId: string;
	revision: number;
	document: string;
	secrets: string | null;
	authorId: number | null;
	authorName: string | null;
	createdAt: number;
	message: string | null;
}

/** What a save needs. */
export interface SaveInput {
	profileId: string;
	baseRevision: number;
	document: string;
	secrets: string | null;
	authorId: number | null;
	message: string | null;
	at: number;
}

/** A save either lands as the next revision or meets a newer head. */
export type SaveResult =
	| { ok: true; revision: RevisionRow }
	| { ok: false; reason: 'conflict'; head: RevisionRow }
	| { ok: false; reason: 'not_found' };

/** Profiles and their revisions. */
export interface ProfileStore {
	profiles: {
		list(options: { deleted: boolean }): Promise<ProfileRow[]>;
		get(id: string): Promise<ProfileRow | undefined>;
		create(input: {
			id: string;
			name: string;
			document: string;
			secrets: string | null;
			authorId: number | null;
			message: string | null;
			at: number;
		}): Promise<{ profile: ProfileRow; revision: RevisionRow }>;
		save(input: SaveInput): Promise<SaveResult>;
		rename(id: string, name: string, at: number): Promise<boolean>;
		setDeleted(id: string, deletedAt: number | null): Promise<boolean>;
		revisions(id: string): Promise<Omit<RevisionRow, 'document' | 'secrets'>[]>;
		revision(id: string, revision: number): Promise<RevisionRow | undefined>;
	};
}

/**
 * One test call as kept in a user's history: `summary` and `record` are JSON (the request with
 * secrets masked, and the outcome), written and read by the test-call module.
 */
export interface TestCallRow {
	id: number;
	userId: number;
	service: string;
	profileId: string | null;
	scenario: string | null;
	at: number;
	summary: string;
	record: string;
}

/** The history of test calls. */
export interface TestCallStore {
	testCalls: {
		/**
		 * Adds a call with the audit entries of its requests, in one write: the call is answered
		 * after it, and the trim ({@link trim}) after the answer. Returns the call's id.
		 */
		add(row: Omit<TestCallRow, 'id'>, audit?: Omit<AuditEntry, 'id'>[]): Promise<number>;
		/** Keeps only the newest `keep` calls of that user and service. */
		trim(userId: number, service: string, keep: number): Promise<void>;
		/** A user's calls of one service (and profile, when given), newest first, without records. */
		list(
			userId: number,
			service: string,
			profileId: string | null,
			limit: number
		): Promise<Omit<TestCallRow, 'record'>[]>;
		get(id: number, userId: number): Promise<TestCallRow | undefined>;
		/**
		 * The newest call of each service of a profile, whoever made it, with the caller's name and
		 * e-mail, without records: one query, for the profile's page.
		 */
		latestOfProfile(
			profileId: string
		): Promise<
			(Omit<TestCallRow, 'record'> & { userName: string | null; userEmail: string | null })[]
		>;
	};
}

/**
 * One run of a flow: who ran it, when, whether it went as the contract wants, and `summary` and
 * `record` as JSON (the steps with secrets masked), written and read by the flows module.
 */
export interface FlowRunRow {
	id: number;
	profileId: string | null;
	flow: string;
	userId: number | null;
	/** The email of the user who ran it (read from the users table). */
	userEmail?: string | null;
	at: number;
	ok: boolean;
	summary: string;
	record: string;
}

/** The history of flow runs. */
export interface FlowRunStore {
	flowRuns: {
		/** Adds a run and keeps only the newest `keep` of its profile (or of unsaved documents). */
		add(row: Omit<FlowRunRow, 'id' | 'userEmail'>, keep: number): Promise<FlowRunRow>;
		/** A profile's runs, newest first, without records. */
		list(profileId: string, limit: number): Promise<Omit<FlowRunRow, 'record'>[]>;
		get(id: number): Promise<FlowRunRow | undefined>;
	};
}

/** An echo sink: `answer` is JSON (status, content type, body), set by its users. */
export interface SinkRow {
	key: string;
	name: string;
	createdBy: number | null;
	createdAt: number;
	answer: string;
}

/** A request a sink received; `record` is JSON written and read by the sink module. */
export interface SinkRequestRow {
	id: number;
	sinkKey: string;
	at: number;
	record: string;
}

/** Echo sinks and the requests they received. */
export interface SinkStore {
	sinks: {
		create(row: SinkRow): Promise<SinkRow>;
		list(): Promise<SinkRow[]>;
		get(key: string): Promise<SinkRow | undefined>;
		update(key: string, changes: Partial<Pick<SinkRow, 'name' | 'answer'>>): Promise<boolean>;
		/** Deletes the sink and every request it received. */
		delete(key: string): Promise<boolean>;
		/** Records a request and keeps only the newest `keep` of that sink. */
		addRequest(sinkKey: string, at: number, record: string, keep: number): Promise<SinkRequestRow>;
		/** Requests received after `afterId` (all when 0), newest first, at most `limit`. */
		requests(sinkKey: string, afterId: number, limit: number): Promise<SinkRequestRow[]>;
		clearRequests(sinkKey: string): Promise<void>;
	};
}

/**
 * A push sandbox: `key` is the secret in its address, `keyHash` its SHA-256 (hex) by which a
 * request finds it; `settings` is JSON (the simulated upstream), written and read by the
 * sandbox module.
 */
export interface SandboxRow {
	id: string;
	key: string;
	keyHash: string;
	name: string;
	ownerId: number | null;
	createdAt: number;
	updatedAt: number;
	settings: string;
}

/** A request a sandbox received and answered; `record` is JSON written by the sandbox module. */
export interface SandboxPushRow {
	id: number;
	sandboxId: string;
	at: number;
	record: string;
}

/** Push sandboxes and the pushes they recorded. */
export interface SandboxStore {
	sandboxes: {
		create(row: SandboxRow): Promise<SandboxRow>;
		/** Every sandbox, newest first. */
		list(): Promise<SandboxRow[]>;
		get(id: string): Promise<SandboxRow | undefined>;
		byKeyHash(keyHash: string): Promise<SandboxRow | undefined>;
		update(
			id: string,
			changes: Partial<Pick<SandboxRow, 'name' | 'settings' | 'key' | 'keyHash'>>,
			at: number
		): Promise<boolean>;
		/** Deletes the sandbox and every push it recorded. */
		delete(id: string): Promise<boolean>;
		/**
		 * Records pushes in one transaction, in order, and keeps only the newest `keep` of each
		 * sandbox; returns their ids. A push of a sandbox deleted meanwhile is dropped (id null).
		 */
		addPushes(
			pushes: { sandboxId: string; at: number; record: string }[],
			keep: number
		): Promise<(number | null)[]>;
		/** Pushes recorded after `afterId` (all when 0), newest first, at most `limit`. */
		pushes(sandboxId: string, afterId: number, limit: number): Promise<SandboxPushRow[]>;
	};
}

/** What the store keeps of runs followed live, on all instances together. */
export interface LiveLimits {
	/** Items per key; the oldest go first beyond it. */
	items: number;
	/** Keys per user, and keys in all; the oldest go first beyond them. */
	keysPerUser: number;
	keys: number;
	/** Bytes of items of all keys; the oldest keys' oldest items go first beyond it. */
	bytes: number;
	/** How long a key is kept after its last item. */
	ttlMs: number;
}

/** An item of a followed run: its number within its key and its text (JSON). */
export interface LiveItemRow {
	seq: number;
	item: string;
}

/**
 * Runs followed live: items kept under a user's key, numbered from 1 in the order written, read
 * by that user's streams on any instance.
 */
export interface LiveItemStore {
	liveItems: {
		/** Keeps an item as the next of `userId`'s key and holds the limits; answers its number. */
		add(userId: number, key: string, item: string, at: number, limits: LiveLimits): Promise<number>;
		/**
		 * The items of `userId`'s key after number `after`, newest first, at most `limit`; none of
		 * a key last written before `since` (expired).
		 */
		after(
			userId: number,
			key: string,
			after: number,
			since: number,
			limit: number
		): Promise<LiveItemRow[]>;
	};
}

/** An audit log entry (append-only). */
export interface AuditEntry {
	id: number;
	at: number;
	actorId: number | null;
	actor: string | null;
	action: string;
	target: string | null;
	ip: string | null;
	details: Record<string, unknown> | null;
}

/** An audit entry claimed from the outbox for delivery, with the attempts made before. */
export interface OutboxEntry {
	entry: AuditEntry;
	attempts: number;
}

/** The audit stream as the database knows it, whichever instance delivered. */
export interface AuditStreamState {
	/** Entries waiting in the outbox. */
	backlog: number;
	lastDeliveredAt: number | null;
	lastDeliveredId: number | null;
	lastError: string | null;
	lastErrorAt: number | null;
}

/** Filters of the audit log listing. */
export interface AuditFilter {
	action?: string;
	actor?: string;
	since?: number;
	until?: number;
	limit?: number;
	beforeId?: number;
	/** Entries after this id (with `oldestFirst`, the next page of an export). */
	afterId?: number;
	/** Oldest first (by id) instead of newest first. */
	oldestFirst?: boolean;
}

/** The audit log and its stream's outbox. */
export interface AuditStore {
	audit: {
		append(entry: Omit<AuditEntry, 'id'>): Promise<void>;
		list(filter: AuditFilter): Promise<AuditEntry[]>;
	};
	/**
	 * The audit stream's outbox: with the stream on (see `StoreOptions`), every audit entry is
	 * written with a row here, in the same transaction; the stream's worker claims rows, delivers
	 * their entries and removes them.
	 */
	auditOutbox: {
		/**
		 * Claims for `owner` up to `limit` entries due at `now`, oldest first, for `leaseMs`: rows no
		 * instance holds, or whose holder's lease ran out (it crashed). None newer than an entry
		 * waiting for its next attempt, so the stream keeps its order while the receiver fails.
		 * On PostgreSQL rows another instance is claiming are skipped (`FOR UPDATE SKIP LOCKED`).
		 */
		claim(owner: string, now: number, leaseMs: number, limit: number): Promise<OutboxEntry[]>;
		/** An entry was delivered: its row goes, and the stream's last delivery is noted. */
		delivered(auditId: number, at: number): Promise<void>;
		/**
		 * A delivery failed: these rows (the failed entry first, then those claimed after it) wait
		 * until `retryAt`, no instance holding them; the first counts an attempt and keeps the error.
		 */
		failed(auditIds: number[], error: string, at: number, retryAt: number): Promise<void>;
		/**
		 * Gives back the rows `owner` holds (every holder's when null), due at once; answers how
		 * many. A stopping instance gives its claims back; on SQLite, the one process at its start.
		 */
		release(owner: string | null, now: number): Promise<number>;
		state(): Promise<AuditStreamState>;
	};
}

/** The data layer. */
export interface Store
	extends
		AccountStore,
		SignInFlowStore,
		TokenStore,
		ProfileStore,
		TestCallStore,
		FlowRunStore,
		SinkStore,
		SandboxStore,
		LiveItemStore,
		AuditStore {
	/** Which database holds the data. */
	backend: 'sqlite' | 'postgres';
	/** Resolves once the schema is migrated (every other method waits for it as well). */
	ready(): Promise<void>;
	/** Resolves when the database answers a query; rejects with its error when it does not. */
	ping(): Promise<void>;
	close(): Promise<void>;
}
