import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { PASSWORD_COST } from '../auth/password';
import { parsePolicy } from '../outbound/policy';
import { decodeKey } from './secrets';
import { logger } from './logger';

/**
 * Every environment variable the app reads, as data: what it is, its default, an example, and
 * the rule its value must meet. The app checks them all before it listens (a bad value stops the
 * start with a message naming the variable, what is wrong and an example); a secret can come
 * from a file (`<NAME>_FILE`, as container secrets are mounted); a name one typo from a known
 * one is warned about; docs/configuration.md's table and `provisioning-studio config` are made
 * from this list.
 */

/** Where a variable belongs, for docs/configuration.md's table and `config`'s listing. */
export type SettingGroup = 'server' | 'data' | 'sign-in' | 'outbound' | 'audit';

/** One environment variable of the app. */
export interface Setting {
	name: string;
	group: SettingGroup;
	/** The default as a person reads it (docs/configuration.md), or null when unset means off. */
	default: string | null;
	description: string;
	/** A valid value, shown with a refusal. */
	example: string;
	/** A credential: readable from `<NAME>_FILE`, never shown (masked by `config`). */
	secret?: boolean;
	/**
	 * A URL shown only in part (by `config` and in a refusal): `origin` when its path and query
	 * may hold a key, `url` without a user name or password; a value that is no URL is not shown.
	 */
	shown?: 'origin' | 'url';
	/** Another variable that must be set with this one (each names the other): both or neither. */
	with?: string;
	/**
	 * A knob for the app's own tests (shorter waits), checked like the others but left out of
	 * docs/configuration.md's table and `config`'s listing: operators have no reason to set it.
	 */
	internal?: boolean;
	/** The rule: accepts the raw text, or refuses it with what is wrong. */
	rule: z.ZodType<string>;
}

const text = z.string();

/** A whole number in a range. */
function whole(min: number, max = Number.MAX_SAFE_INTEGER) {
	return text.refine((value) => /^\d+$/.test(value) && +value >= min && +value <= max, {
		message: `must be a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}`
	});
}

/** A number above zero (fractions allowed). */
const positive = text.refine((value) => /^\d+(\.\d+)?$/.test(value) && Number(value) > 0, {
	message: 'must be a number above zero'
});

/** One of a few words. */
function oneOf(...values: string[]) {
	return text.refine((value) => values.includes(value), {
		message: `must be ${values.map((v) => `"${v}"`).join(' or ')}`
	});
}

/** A rule that throws a readable error: its message is the refusal. */
function throwing(check: (value: string) => void) {
	return text.superRefine((value, ctx) => {
		try {
			check(value);
		} catch (error) {
			ctx.addIssue({
				code: 'custom',
				message: (error instanceof Error ? error.message : String(error)).replace(/^[A-Z_]+: /, '')
			});
		}
	});
}

/** The items of a comma-separated list, trimmed, empty ones left out. */
export function groupList(value: string | undefined): string[] {
	return (value ?? '')
		.split(',')
		.map((item) => item.trim())
		.filter((item) => item !== '');
}

/** An HTTP header's name. */
const headerName = text.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be an HTTP header name');

/** The adapter's body size: bytes, with K, M or G, or Infinity. */
const size = text.regex(/^(\d+[KMG]?|Infinity)$/i, 'must be a size such as 512K, 16M or Infinity');

/** Every variable, in the order docs/configuration.md lists them. */
export const SETTINGS: readonly Setting[] = [
	{
		name: 'PORT',
		group: 'server',
		default: '`3000`',
		description: 'port the app listens on',
		example: '3000',
		rule: whole(1, 65535)
	},
	{
		name: 'HOST',
		group: 'server',
		default: '`0.0.0.0`',
		description: 'address the app listens on',
		example: '127.0.0.1',
		rule: text.regex(/^\S+$/, 'must be an address or a host name')
	},
	{
		name: 'ORIGIN',
		group: 'server',
		default: "the request's own",
		description:
			'the public origin, when the app runs behind a reverse proxy (e.g. `https://studio.example.com`)',
		example: 'https://studio.example.com',
		shown: 'url',
		rule: text.refine(
			(value) =>
				URL.canParse(value) &&
				/^https?:$/.test(new URL(value).protocol) &&
				new URL(value).origin === value.replace(/\/$/, ''),
			{ message: 'must be an origin: http(s)://host[:port], without a path' }
		)
	},
	{
		name: 'TRUST_PROXY',
		group: 'server',
		default: null,
		description:
			"`1`: take the scheme from the proxy's `X-Forwarded-Proto` instead of setting `ORIGIN`",
		example: '1',
		rule: oneOf('0', '1')
	},
	{
		name: 'PROTOCOL_HEADER',
		group: 'server',
		default: '`x-forwarded-proto`',
		description: 'with `TRUST_PROXY=1`: the header that carries the scheme',
		example: 'x-forwarded-proto',
		rule: headerName
	},
	{
		name: 'ADDRESS_HEADER',
		group: 'server',
		default: null,
		description:
			"behind a proxy: the header with the client's address (`X-Forwarded-For`), for the audit log and the sign-in limits",
		example: 'x-forwarded-for',
		rule: headerName
	},
	{
		name: 'XFF_DEPTH',
		group: 'server',
		default: '`1`',
		description: 'with `ADDRESS_HEADER=x-forwarded-for`: how many proxies stand in front',
		example: '1',
		rule: whole(1)
	},
	{
		name: 'HOST_HEADER',
		group: 'server',
		default: '`host`',
		description: "behind a proxy: the header with the request's host (`X-Forwarded-Host`)",
		example: 'x-forwarded-host',
		rule: headerName
	},
	{
		name: 'PORT_HEADER',
		group: 'server',
		default: null,
		description: "behind a proxy: the header with the request's port (`X-Forwarded-Port`)",
		example: 'x-forwarded-port',
		rule: headerName
	},
	{
		name: 'BODY_SIZE_LIMIT',
		group: 'server',
		default: '`16M`',
		description: 'largest request body (imports and backups carry megabyte templates)',
		example: '16M',
		rule: size
	},
	{
		name: 'SHUTDOWN_TIMEOUT_SECONDS',
		group: 'server',
		default: '`25`',
		description:
			'on SIGTERM or SIGINT, how long the requests in flight may take to finish (readiness answers 503 at once)',
		example: '25',
		rule: positive
	},
	{
		name: 'LOG_FORMAT',
		group: 'server',
		default: '`pretty` on a terminal, else `json`',
		description:
			'`json`: one JSON object a line (request id, route, status, duration, user, client address for each request); `pretty`: readable lines',
		example: 'json',
		rule: oneOf('json', 'pretty')
	},
	{
		name: 'LOG_LEVEL',
		group: 'server',
		default: '`info`',
		description:
			'`trace`, `debug`, `info`, `warn`, `error`, `fatal` or `silent`; warnings and errors go to stderr, the rest to stdout',
		example: 'warn',
		rule: oneOf('trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent')
	},
	{
		name: 'METRICS_TOKEN',
		group: 'server',
		default: null,
		description:
			'turns on `GET /metrics` (Prometheus text format), for requests that send it as `Authorization: Bearer <token>`; unset, the path answers 404',
		example: '$(openssl rand -hex 32)',
		secret: true,
		rule: text.min(16, 'must be at least 16 characters (e.g. openssl rand -hex 32)')
	},
	{
		name: 'DATA_DIR',
		group: 'data',
		default: '`./data`',
		description:
			'where the SQLite database (and the secret key file) live; created and migrated at start',
		example: '/var/lib/provisioning-studio',
		rule: text.min(1, 'must be a directory')
	},
	{
		name: 'DATABASE_URL',
		group: 'data',
		default: null,
		description:
			'`postgres://user:password@host:5432/database`: keep the data in PostgreSQL instead (see [Running on PostgreSQL](#running-on-postgresql))',
		example: 'postgres://studio:password@db.internal:5432/studio',
		secret: true,
		// As the driver reads it: a URL, or one without a host (`@/`) that names a socket instead.
		rule: text.refine(
			(value) =>
				/^postgres(ql)?:\/\/\S+$/i.test(value) &&
				(URL.canParse(value) || URL.canParse(value.replace('@/', '@localhost/'))),
			{ message: 'must be a PostgreSQL URL (postgres://…)' }
		)
	},
	{
		name: 'LIVE_UPDATES',
		group: 'data',
		default: '`notify`',
		description:
			"on PostgreSQL: how instances hear of each other's live records, `notify` (`LISTEN`/`NOTIFY`) or `poll` (every second, for a pooler in transaction mode)",
		example: 'poll',
		rule: oneOf('notify', 'poll')
	},
	{
		name: 'SECRET_KEY',
		group: 'data',
		default: 'key file `DATA_DIR/secret.key` (made at first start, mode 0600)',
		description:
			'32 random bytes as base64 or 64 hex digits (`openssl rand -base64 32`); encrypts secret sample values at rest',
		example: '$(openssl rand -base64 32)',
		secret: true,
		rule: throwing((value) => decodeKey(value))
	},
	{
		name: 'ADMIN_EMAIL',
		group: 'sign-in',
		default: null,
		description:
			'with no users yet, create the first admin from this and `ADMIN_PASSWORD`; otherwise the server prints a one-time setup link (valid one hour) on stdout',
		example: 'admin@example.com',
		rule: text.regex(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address')
	},
	{
		name: 'ADMIN_PASSWORD',
		group: 'sign-in',
		default: null,
		description: "the first admin's password, with `ADMIN_EMAIL`",
		example: 'a long passphrase',
		secret: true,
		rule: text.min(1)
	},
	{
		name: 'SESSION_IDLE_MINUTES',
		group: 'sign-in',
		default: '`720`',
		description: 'a session ends after this long unused',
		example: '720',
		rule: positive
	},
	{
		name: 'SESSION_MAX_HOURS',
		group: 'sign-in',
		default: '`168`',
		description: 'a session ends this long after sign-in',
		example: '168',
		rule: positive
	},
	{
		name: 'REQUIRE_2FA',
		group: 'sign-in',
		default: '`off`',
		description:
			'`admins` or `all`: those who sign in with a password must set up a second factor (an authenticator app) before they can do anything else',
		example: 'admins',
		rule: oneOf('off', 'admins', 'all')
	},
	{
		name: 'PASSWORD_HASH_COST',
		group: 'sign-in',
		default: '`17`',
		description:
			"scrypt's cost for password hashes, as a power of two: 17 is OWASP's recommendation (128 MiB and a good fraction of a second of a core per password). Lower values are for test servers only and are warned about at start; a hash keeps the cost it was made with",
		example: '17',
		rule: whole(PASSWORD_COST.min, PASSWORD_COST.max)
	},
	{
		name: 'PASSWORD_SIGN_IN',
		group: 'sign-in',
		default: '`all`',
		description:
			'who may sign in with a password: `all`, `admins` (everyone else through `OIDC_ISSUER`) or `off` (needs `OIDC_ISSUER`); API tokens work either way',
		example: 'admins',
		rule: oneOf('all', 'admins', 'off')
	},
	{
		name: 'OIDC_ISSUER',
		group: 'sign-in',
		default: null,
		description:
			'sign-in through OpenID Connect: the issuer, whose `/.well-known/openid-configuration` is read (see [docs/sign-in.md](docs/sign-in.md)); the redirect URI is `<ORIGIN>/auth/oidc/callback`',
		example: 'https://login.example.com/realms/corp',
		shown: 'url',
		// An issuer identifier has no credentials, query or fragment (OpenID Connect Discovery 1.0).
		rule: text.refine(
			(value) => {
				if (!URL.canParse(value)) return false;
				const url = new URL(value);
				return (
					/^https?:$/.test(url.protocol) &&
					url.username === '' &&
					url.password === '' &&
					!/[?#]/.test(value)
				);
			},
			{ message: "must be the issuer's URL (https://…), without a user name, password or query" }
		)
	},
	{
		name: 'OIDC_CLIENT_ID',
		group: 'sign-in',
		default: null,
		description: "with `OIDC_ISSUER`: the app's client id at the identity provider",
		example: 'provisioning-studio',
		rule: text.regex(/^\S+$/, 'must be a client id without spaces')
	},
	{
		name: 'OIDC_CLIENT_SECRET',
		group: 'sign-in',
		default: null,
		description: "with `OIDC_ISSUER`: the client's secret (a confidential client)",
		example: 'the secret the identity provider made',
		secret: true,
		rule: text.min(1)
	},
	{
		name: 'OIDC_NAME',
		group: 'sign-in',
		default: '`single sign-on`',
		description: 'the sign-in button says "Sign in with <OIDC_NAME>"',
		example: 'Corp SSO',
		rule: text.max(60, 'must be at most 60 characters')
	},
	{
		name: 'OIDC_SCOPES',
		group: 'sign-in',
		default: '`openid email profile`',
		description: 'scopes asked for, separated by spaces (`openid` is required)',
		example: 'openid email profile groups',
		rule: text.refine((value) => value.split(/\s+/).includes('openid'), {
			message: 'must include openid'
		})
	},
	{
		name: 'OIDC_ROLES_CLAIM',
		group: 'sign-in',
		default: '`groups`',
		description:
			'the claim holding the groups or roles, from the ID token or else userinfo; a dotted path reads a nested one (`realm_access.roles`)',
		example: 'realm_access.roles',
		rule: text.regex(/^[^\s.]+(\.[^\s.]+)*$/, 'must be a claim name or a dotted path')
	},
	...(
		[
			['OIDC_ADMIN_GROUPS', 'admin', 'studio-admins'],
			['OIDC_EDITOR_GROUPS', 'editor', 'studio-editors,/corp/dev'],
			['OIDC_VIEWER_GROUPS', 'viewer', 'studio-viewers']
		] as const
	).map(([name, role, example]): Setting => ({
		name,
		group: 'sign-in',
		default: null,
		description: `groups (values of \`OIDC_ROLES_CLAIM\`, compared exactly) whose members get the ${role} role, comma-separated; the highest role matched wins, no match is refused`,
		example,
		rule: text.refine((value) => groupList(value).length > 0, {
			message: 'must be group names separated by commas'
		})
	})),
	{
		name: 'OIDC_ALLOWED_DOMAINS',
		group: 'sign-in',
		default: null,
		description:
			'only users whose verified e-mail is in one of these domains may sign in through OpenID Connect, comma-separated',
		example: 'example.com,example.org',
		rule: text.refine(
			(value) => groupList(value).every((d) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(d)),
			{ message: 'must be domain names separated by commas' }
		)
	},
	{
		name: 'OIDC_ALLOW_INSECURE_HTTP',
		group: 'sign-in',
		default: null,
		description:
			'`1`: accept an `http:` issuer (a test identity provider only; warned about at start)',
		example: '1',
		rule: oneOf('0', '1')
	},
	{
		name: 'OIDC_LOGOUT',
		group: 'sign-in',
		default: null,
		description:
			"`1`: signing out of a session made through OpenID Connect also ends the provider's session (RP-initiated logout, when the provider offers an `end_session_endpoint`), then comes back to the sign-in page",
		example: '1',
		rule: oneOf('0', '1')
	},
	{
		name: 'OUTBOUND_ALLOW',
		group: 'outbound',
		default: null,
		description:
			'test calls: CIDRs, addresses and host names (`*.corp.example`) reachable although private, loopback or link-local; comma-separated',
		example: '10.0.0.0/8,*.corp.example',
		rule: throwing((value) => parsePolicy(value, ''))
	},
	{
		name: 'OUTBOUND_PORTS',
		group: 'outbound',
		default: null,
		description:
			'test calls: ports and ranges (`8000-8999`) reachable besides 80, 443, 8080, 8443; `*` for all',
		example: '8000-8999,9443',
		rule: throwing((value) => parsePolicy('', value))
	},
	...(
		[
			['OUTBOUND_CONNECT_TIMEOUT_MS', '5000', 'test calls: time to resolve and connect'],
			['OUTBOUND_HEADERS_TIMEOUT_MS', '10000', 'test calls: time until the response headers'],
			['OUTBOUND_BODY_TIMEOUT_MS', '10000', 'test calls: longest pause while the body arrives'],
			['OUTBOUND_TOTAL_TIMEOUT_MS', '15000', 'test calls: time for the whole call'],
			['OUTBOUND_MAX_RAW_BYTES', '2097152', 'test calls: bytes read from the network at most'],
			[
				'OUTBOUND_MAX_BODY_BYTES',
				'1048576',
				'test calls: bytes of body kept after decoding gzip, deflate or br'
			],
			['OUTBOUND_MAX_IN_FLIGHT', '4', 'test calls one user may have running at once (more get 429)']
		] as const
	).map(([name, fallback, description]): Setting => ({
		name,
		group: 'outbound',
		default: `\`${fallback}\``,
		description,
		example: fallback,
		rule: whole(1)
	})),
	{
		name: 'AUDIT_WEBHOOK_URL',
		group: 'audit',
		default: null,
		description:
			'with `AUDIT_WEBHOOK_SECRET`: where every audit entry is sent as a signed Standard Webhooks message (see [Audit stream](#audit-stream)); may be private or loopback; the `OUTBOUND_*` limits apply',
		example: 'https://siem.example.com/hooks/studio',
		shown: 'origin',
		with: 'AUDIT_WEBHOOK_SECRET',
		rule: text.refine(
			(value) => {
				if (!URL.canParse(value)) return false;
				const url = new URL(value);
				return /^https?:$/.test(url.protocol) && url.username === '' && url.password === '';
			},
			{ message: 'must be an http(s) URL without a user name or password' }
		)
	},
	{
		name: 'AUDIT_WEBHOOK_SECRET',
		group: 'audit',
		default: null,
		description:
			'with `AUDIT_WEBHOOK_URL`: the signing secret, `whsec_` and 24 to 64 random bytes as base64 (`echo whsec_$(openssl rand -base64 32)`)',
		example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
		secret: true,
		with: 'AUDIT_WEBHOOK_URL',
		rule: throwing((value) => webhookSecretBytes(value))
	},
	...(
		[
			['AUDIT_STREAM_RETRY_MS', '1000', 'the first wait before a failed delivery is sent again'],
			['AUDIT_STREAM_RETRY_MAX_MS', '300000', 'the longest wait between two attempts'],
			['AUDIT_STREAM_POLL_MS', '1000', 'how often the outbox is read for new entries'],
			['AUDIT_STREAM_LEASE_MS', '60000', 'how long a claim holds before others take it over']
		] as const
	).map(([name, fallback, description]): Setting => ({
		name,
		group: 'audit',
		default: `\`${fallback}\``,
		description,
		example: fallback,
		internal: true,
		rule: whole(1)
	}))
];

/**
 * The bytes of a Standard Webhooks signing secret (`whsec_` and base64 of 24 to 64 bytes, as
 * the specification has it); throws with what is wrong.
 */
export function webhookSecretBytes(value: string): Buffer {
	const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(value);
	if (!match || match[1].length % 4 === 1) {
		throw new Error('must be whsec_ followed by base64 (echo whsec_$(openssl rand -base64 32))');
	}
	const bytes = Buffer.from(match[1], 'base64');
	if (bytes.length < 24 || bytes.length > 64) {
		throw new Error(`holds ${bytes.length} bytes after whsec_; it needs 24 to 64`);
	}
	return bytes;
}

const BY_NAME = new Map(SETTINGS.map((s) => [s.name, s]));

/** The suffix that reads a secret from a file. */
const FILE_SUFFIX = '_FILE';

/** What is wrong with one variable. */
export interface SettingProblem {
	name: string;
	message: string;
}

/**
 * A value as messages and `config` may show it, or null when it must not be shown: a secret
 * never (a database URL carries a password), a URL only in part (see {@link Setting.shown}).
 */
function shownValue(setting: Setting, value: string): string | null {
	if (setting.secret) return null;
	if (!setting.shown) return value;
	if (!URL.canParse(value)) return null;
	const url = new URL(value);
	if (setting.shown === 'origin') return url.origin === 'null' ? null : url.origin;
	if (url.username === '' && url.password === '') return value;
	url.username = '';
	url.password = '';
	return url.href;
}

/**
 * The refusal of a setting's value: the variable, its value where it may be shown, what is
 * wrong (`said`, never a part of a secret) and an example.
 */
export function settingRefusal(name: string, value: string, said: string): SettingProblem {
	const setting = BY_NAME.get(name);
	if (!setting) throw new Error(`${name} is not a setting of the app`);
	const shown = shownValue(setting, value);
	return {
		name,
		message: `${shown === null ? name : `${name}=${shown}`}: ${said}. Example: ${name}=${setting.example}`
	};
}

/** The environment as checked: the values to run with, what is wrong, what looks mistaken. */
export interface CheckedEnvironment {
	/** The environment with every `<NAME>_FILE` read into `<NAME>`. */
	env: Record<string, string | undefined>;
	/** Where each secret came from, when it was set. */
	sources: Record<string, 'environment' | 'file'>;
	problems: SettingProblem[];
	warnings: string[];
}

/** Edit distance (insertions, deletions, substitutions), at most `limit + 1`. */
function distance(a: string, b: string, limit: number): number {
	if (Math.abs(a.length - b.length) > limit) return limit + 1;
	let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
	for (let i = 1; i <= a.length; i++) {
		const row = [i];
		for (let j = 1; j <= b.length; j++) {
			row[j] = Math.min(
				previous[j] + 1,
				row[j - 1] + 1,
				previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)
			);
		}
		previous = row;
	}
	return previous[b.length];
}

/** The known variable a name is a typo of, if any (names of 8 characters or more, 2 edits). */
export function typoOf(name: string): string | undefined {
	if (BY_NAME.has(name) || name.length < 8) return undefined;
	let best: { name: string; d: number } | undefined;
	for (const known of BY_NAME.keys()) {
		for (const candidate of [known, `${known}${FILE_SUFFIX}`]) {
			if (candidate === name) return undefined;
			const d = distance(name, candidate, 2);
			if (d <= 2 && (!best || d < best.d)) best = { name: candidate, d };
		}
	}
	return best?.name;
}

/**
 * Checks every variable of `env` against its rule, reading secrets from their `<NAME>_FILE`
 * (one trailing line break trimmed), and, `together`, the variables against each other (not
 * when a module reads a few of its own). Nothing is thrown: the caller says what is wrong.
 */
export function checkEnvironment(
	env: Record<string, string | undefined>,
	readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
	together = true
): CheckedEnvironment {
	const resolved = { ...env };
	const sources: CheckedEnvironment['sources'] = {};
	const problems: SettingProblem[] = [];
	const warnings: string[] = [];
	for (const [key, value] of Object.entries(env)) {
		if (value === undefined || !key.endsWith(FILE_SUFFIX)) continue;
		const name = key.slice(0, -FILE_SUFFIX.length);
		const setting = BY_NAME.get(name);
		if (!setting) continue;
		if (!setting.secret) {
			warnings.push(`${key} is ignored: only secrets are read from files; set ${name} itself.`);
			continue;
		}
		if (env[name] !== undefined && env[name] !== '') {
			problems.push({
				name: key,
				message: `${name} and ${key} are both set: set one (${key} for a file such as a container secret).`
			});
			continue;
		}
		try {
			resolved[name] = readFile(value).replace(/\r?\n$/, '');
			sources[name] = 'file';
		} catch (error) {
			const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
			problems.push({ name: key, message: `${key}: cannot read ${value} (${reason}).` });
		}
	}
	for (const setting of SETTINGS) {
		const value = resolved[setting.name];
		if (value === undefined || value === '') continue;
		if (setting.secret) sources[setting.name] ??= 'environment';
		const checked = setting.rule.safeParse(value);
		if (checked.success) continue;
		const said = checked.error.issues[0].message
			.replace(new RegExp(`^${setting.name}:? `), '')
			.replace(/\.$/, '');
		problems.push(settingRefusal(setting.name, value, said));
	}
	for (const setting of SETTINGS) {
		// A pair is checked with the whole environment, or when both were asked about.
		if (!setting.with || !(together || setting.with in env)) continue;
		const set = (name: string) => resolved[name] !== undefined && resolved[name] !== '';
		// Said once, by the one that is set.
		if (set(setting.name) && !set(setting.with)) {
			problems.push({
				name: setting.with,
				message: `${setting.name} is set without ${setting.with}: set both, or neither.`
			});
		}
	}
	if (together) {
		const combined = combinedProblems(resolved);
		problems.push(...combined.problems);
		warnings.push(...combined.warnings);
	}
	for (const key of Object.keys(env)) {
		const meant = typoOf(key);
		if (meant) warnings.push(`${key} is not a setting of the app: did you mean ${meant}?`);
	}
	return { env: resolved, sources, problems, warnings };
}

/**
 * What is wrong with variables together, each right on its own: sign-in through OpenID Connect
 * needs its client and at least one group to map, an `http:` issuer needs the explicit allowance,
 * and password sign-in can only be off when there is another way in.
 */
function combinedProblems(env: Record<string, string | undefined>): {
	problems: SettingProblem[];
	warnings: string[];
} {
	const problems: SettingProblem[] = [];
	const warnings: string[] = [];
	const set = (name: string) => env[name] !== undefined && env[name] !== '';
	const cost = env.PASSWORD_HASH_COST;
	if (cost && /^\d+$/.test(cost) && +cost < PASSWORD_COST.recommended) {
		warnings.push(
			`PASSWORD_HASH_COST=${cost}: passwords are hashed below the recommended ${PASSWORD_COST.recommended}, so stolen hashes are cheaper to guess. Use it for test servers only.`
		);
	}
	const issuer = env.OIDC_ISSUER;
	if (env.PASSWORD_SIGN_IN === 'off' && !set('OIDC_ISSUER')) {
		problems.push({
			name: 'PASSWORD_SIGN_IN',
			message:
				'PASSWORD_SIGN_IN=off needs OIDC_ISSUER: without either no one could sign in. Set OIDC_ISSUER (with its client), or PASSWORD_SIGN_IN=admins.'
		});
	}
	if (!issuer || !URL.canParse(issuer)) {
		const stray = SETTINGS.filter((s) => s.name.startsWith('OIDC_') && set(s.name));
		if (!issuer && stray.length > 0) {
			warnings.push(`${stray.map((s) => s.name).join(', ')} ignored: OIDC_ISSUER is not set.`);
		}
		return { problems, warnings };
	}
	for (const name of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET']) {
		if (!set(name)) {
			problems.push({ name, message: `OIDC_ISSUER needs ${name} as well (or ${name}_FILE).` });
		}
	}
	if (!['OIDC_ADMIN_GROUPS', 'OIDC_EDITOR_GROUPS', 'OIDC_VIEWER_GROUPS'].some(set)) {
		problems.push({
			name: 'OIDC_ISSUER',
			message:
				'OIDC_ISSUER needs at least one of OIDC_ADMIN_GROUPS, OIDC_EDITOR_GROUPS, OIDC_VIEWER_GROUPS: a user no group maps is refused. Example: OIDC_VIEWER_GROUPS=studio-viewers'
		});
	}
	const shown = shownValue(BY_NAME.get('OIDC_ISSUER')!, issuer);
	if (new URL(issuer).protocol === 'http:') {
		if (env.OIDC_ALLOW_INSECURE_HTTP === '1') {
			warnings.push(
				`OIDC_ALLOW_INSECURE_HTTP=1: the identity provider ${shown} is reached over plain http; tokens can be read and changed on the way. Use it for tests only.`
			);
		} else {
			problems.push({
				name: 'OIDC_ISSUER',
				message: `OIDC_ISSUER=${shown}: must be an https URL (OIDC_ALLOW_INSECURE_HTTP=1 allows http for a test identity provider).`
			});
		}
	}
	return { problems, warnings };
}

/** Thrown at start when a variable is wrong: the message lists every problem, one a line. */
export class ConfigurationError extends Error {
	override readonly name = 'ConfigurationError';
	constructor(readonly problems: SettingProblem[]) {
		super(
			`Provisioning Studio cannot start: ${problems.length === 1 ? 'a setting is' : `${problems.length} settings are`} wrong.\n` +
				problems.map((p) => `  ${p.message}`).join('\n')
		);
	}
}

/**
 * Checks the process's environment once, before the app opens its database or listens: a
 * problem throws {@link ConfigurationError}; warnings are logged; secrets read from files are
 * put into the environment, where the rest of the app reads them.
 */
export function applyEnvironment(
	log: (line: string) => void = (line) => logger().warn(line)
): void {
	const checked = checkEnvironment(process.env);
	for (const warning of checked.warnings) log(warning);
	if (checked.problems.length > 0) throw new ConfigurationError(checked.problems);
	for (const [name, source] of Object.entries(checked.sources)) {
		if (source === 'file') process.env[name] = checked.env[name];
	}
}

/**
 * The values of some variables, each checked against its rule: what a module reads its own
 * variables through. Throws {@link ConfigurationError} naming every wrong one; unset and empty
 * values are left out.
 */
export function checkedValues(
	env: Record<string, string | undefined>,
	names: readonly string[]
): Record<string, string> {
	const own = Object.fromEntries(names.map((name) => [name, env[name]]));
	const { problems } = checkEnvironment(own, () => '', false);
	if (problems.length > 0) throw new ConfigurationError(problems);
	return Object.fromEntries(
		Object.entries(own).filter((entry): entry is [string, string] => !!entry[1])
	);
}

/** The effective configuration, secrets masked: each variable with its value and where it came from. */
export function describeEnvironment(
	checked: CheckedEnvironment,
	mask: string
): { name: string; value: string; source: 'environment' | 'file' | 'default' | 'unset' }[] {
	return SETTINGS.filter((setting) => !setting.internal).map((setting) => {
		const value = checked.env[setting.name];
		if (value !== undefined && value !== '') {
			return {
				name: setting.name,
				value: shownValue(setting, value) ?? mask,
				source: checked.sources[setting.name] ?? 'environment'
			};
		}
		return setting.default === null
			? { name: setting.name, value: '', source: 'unset' }
			: { name: setting.name, value: setting.default.replace(/`/g, ''), source: 'default' };
	});
}

/**
 * The table of variables, made from {@link SETTINGS} (`npm run docs:settings` writes it into
 * docs/configuration.md; a test keeps the two equal).
 */
export function settingsTable(): string {
	const rows = SETTINGS.filter((s) => !s.internal).map((s) => [
		`\`${s.name}\`${s.secret ? ` (or \`${s.name}${FILE_SUFFIX}\`)` : ''}`,
		s.default ?? 'unset',
		s.description
	]);
	return [
		'| variable | default | meaning |',
		'| --- | --- | --- |',
		...rows.map((cells) => `| ${cells.join(' | ')} |`)
	].join('\n');
}
