import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION, configurationTable } from '../../../../scripts/settings-table';
import { tableCells } from '../../../../tests/helpers/markdown';
import {
	checkEnvironment,
	ConfigurationError,
	describeEnvironment,
	SETTINGS,
	typoOf
} from './environment';

/** The environment checked, with files from a map instead of the disk. */
function check(env: Record<string, string>, files: Record<string, string> = {}) {
	return checkEnvironment(env, (path) => {
		if (path in files) return files[path];
		throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
	});
}

describe('checkEnvironment', () => {
	it('accepts the defaults (nothing set) and every example', () => {
		expect(check({}).problems).toEqual([]);
		for (const setting of SETTINGS) {
			if (setting.name === 'SECRET_KEY') continue; // its example is a shell command
			// Each on its own: some need others beside them (checked together below).
			const alone = checkEnvironment({ [setting.name]: setting.example }, () => '', false);
			expect(alone.problems, setting.name).toEqual([]);
		}
		expect(check({ SECRET_KEY: Buffer.alloc(32, 1).toString('base64') }).problems).toEqual([]);
	});

	it('names the variable, what is wrong and an example', () => {
		const { problems } = check({
			OUTBOUND_ALLOW: '10.0.0.0/99',
			PORT: '70000',
			LIVE_UPDATES: 'sometimes',
			SESSION_IDLE_MINUTES: '-5',
			ORIGIN: 'https://studio.example.com/app'
		});
		expect(problems.map((p) => p.message)).toEqual([
			'PORT=70000: must be a whole number from 1 to 65535. Example: PORT=3000',
			'ORIGIN=https://studio.example.com/app: must be an origin: http(s)://host[:port], without a path. Example: ORIGIN=https://studio.example.com',
			'LIVE_UPDATES=sometimes: must be "notify" or "poll". Example: LIVE_UPDATES=poll',
			'SESSION_IDLE_MINUTES=-5: must be a number above zero. Example: SESSION_IDLE_MINUTES=720',
			'OUTBOUND_ALLOW=10.0.0.0/99: "10.0.0.0/99" is neither a CIDR, an address nor a host name. Example: OUTBOUND_ALLOW=10.0.0.0/8,*.corp.example'
		]);
		const error = new ConfigurationError(problems);
		expect(error.message.split('\n')[0]).toBe(
			'Provisioning Studio cannot start: 5 settings are wrong.'
		);
	});

	it('never repeats a secret in its message', () => {
		const { problems } = check({
			DATABASE_URL: 'mysql://root:hunter2@db/x',
			SECRET_KEY: 'short-s3cret'
		});
		expect(problems).toHaveLength(2);
		const text = problems.map((p) => p.message).join('\n');
		expect(text).not.toContain('hunter2');
		expect(text).not.toContain('short-s3cret');
		expect(text).toContain('DATABASE_URL: must be a PostgreSQL URL');
		expect(text).toContain('SECRET_KEY: must be 32 random bytes');
	});

	it('reads a secret from <NAME>_FILE, one trailing line break trimmed', () => {
		const key = Buffer.alloc(32, 7).toString('base64');
		const checked = check(
			{ SECRET_KEY_FILE: '/run/secrets/key', ADMIN_PASSWORD_FILE: '/run/secrets/pw' },
			{ '/run/secrets/key': `${key}\n`, '/run/secrets/pw': 'pass phrase \n\n' }
		);
		expect(checked.problems).toEqual([]);
		expect(checked.env.SECRET_KEY).toBe(key);
		expect(checked.env.ADMIN_PASSWORD).toBe('pass phrase \n');
		expect(checked.sources).toEqual({ SECRET_KEY: 'file', ADMIN_PASSWORD: 'file' });
	});

	it('refuses a secret set twice, an unreadable file, and ignores _FILE of what is no secret', () => {
		const checked = check({
			DATABASE_URL: 'postgres://a@b/c',
			DATABASE_URL_FILE: '/run/secrets/db',
			ADMIN_PASSWORD_FILE: '/nowhere',
			PORT_FILE: '/run/port'
		});
		expect(checked.problems.map((p) => p.message)).toEqual([
			'DATABASE_URL and DATABASE_URL_FILE are both set: set one (DATABASE_URL_FILE for a file such as a container secret).',
			'ADMIN_PASSWORD_FILE: cannot read /nowhere (ENOENT).'
		]);
		expect(checked.warnings).toContain(
			'PORT_FILE is ignored: only secrets are read from files; set PORT itself.'
		);
	});

	it("takes the audit stream's URL and secret together, the secret from a file too", () => {
		const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
		const url = 'http://127.0.0.1:9000/audit';
		expect(check({ AUDIT_WEBHOOK_URL: url, AUDIT_WEBHOOK_SECRET: secret }).problems).toEqual([]);
		const fromFile = check(
			{ AUDIT_WEBHOOK_URL: url, AUDIT_WEBHOOK_SECRET_FILE: '/run/secrets/hook' },
			{ '/run/secrets/hook': `${secret}\n` }
		);
		expect(fromFile.problems).toEqual([]);
		expect(fromFile.env.AUDIT_WEBHOOK_SECRET).toBe(secret);
		expect(check({ AUDIT_WEBHOOK_URL: url }).problems.map((p) => p.message)).toEqual([
			'AUDIT_WEBHOOK_URL is set without AUDIT_WEBHOOK_SECRET: set both, or neither.'
		]);
		expect(check({ AUDIT_WEBHOOK_SECRET: secret }).problems.map((p) => p.message)).toEqual([
			'AUDIT_WEBHOOK_SECRET is set without AUDIT_WEBHOOK_URL: set both, or neither.'
		]);
		// A wrong secret is named, never repeated; so is a short one.
		for (const [wrong, said] of [
			['hunter2-not-a-secret', 'must be whsec_ followed by base64'],
			[
				`whsec_${Buffer.alloc(8).toString('base64')}`,
				'holds 8 bytes after whsec_; it needs 24 to 64'
			]
		]) {
			const { problems } = check({ AUDIT_WEBHOOK_URL: url, AUDIT_WEBHOOK_SECRET: wrong });
			expect(problems).toHaveLength(1);
			expect(problems[0].message).toContain(`AUDIT_WEBHOOK_SECRET: ${said}`);
			expect(problems[0].message).not.toContain(wrong);
		}
		const userinfo = check({
			AUDIT_WEBHOOK_URL: 'https://u:p@siem.test/',
			AUDIT_WEBHOOK_SECRET: secret
		});
		expect(userinfo.problems[0].message).toContain('must be an http(s) URL without a user name');
	});

	it('warns of a name one typo from a known one, and of nothing else', () => {
		expect(check({ OUTBOUND_ALOW: '10.0.0.1' }).warnings).toEqual([
			'OUTBOUND_ALOW is not a setting of the app: did you mean OUTBOUND_ALLOW?'
		]);
		expect(typoOf('SECRET_KEY_FIEL')).toBe('SECRET_KEY_FILE');
		expect(typoOf('DATABSE_URL')).toBe('DATABASE_URL');
		for (const other of ['HOME', 'HOSTNAME', 'PATH', 'NODE_ENV', 'npm_config_nodedir', 'PORT']) {
			expect(typoOf(other), other).toBeUndefined();
		}
	});
});

describe('describeEnvironment', () => {
	it('shows each value with its source, secrets masked', () => {
		const checked = check(
			{ PORT: '8080', SECRET_KEY_FILE: '/k' },
			{ '/k': Buffer.alloc(32, 3).toString('hex') }
		);
		const rows = describeEnvironment(checked, '••••••••');
		expect(rows.find((r) => r.name === 'PORT')).toEqual({
			name: 'PORT',
			value: '8080',
			source: 'environment'
		});
		expect(rows.find((r) => r.name === 'SECRET_KEY')).toEqual({
			name: 'SECRET_KEY',
			value: '••••••••',
			source: 'file'
		});
		expect(rows.find((r) => r.name === 'HOST')).toMatchObject({
			value: '0.0.0.0',
			source: 'default'
		});
		expect(rows.find((r) => r.name === 'DATABASE_URL')).toMatchObject({ source: 'unset' });
	});
});

describe("docs/configuration.md's table of variables", () => {
	it('is the one made from the schema (npm run docs:settings writes it)', () => {
		const doc = readFileSync(CONFIGURATION, 'utf8');
		const block = /<!-- settings:start -->([\s\S]*?)<!-- settings:end -->/.exec(doc);
		expect(block, 'docs/configuration.md has the settings markers').not.toBeNull();
		expect(tableCells(block![1])).toEqual(tableCells(configurationTable()));
	});
});

describe('sign-in settings checked together', () => {
	const OIDC = {
		OIDC_ISSUER: 'https://login.example.com/realms/corp',
		OIDC_CLIENT_ID: 'studio',
		OIDC_CLIENT_SECRET: 'secret',
		OIDC_VIEWER_GROUPS: 'studio-viewers'
	};

	it('accept a complete OpenID Connect client', () => {
		expect(check(OIDC)).toMatchObject({ problems: [], warnings: [] });
		expect(check({ ...OIDC, PASSWORD_SIGN_IN: 'off' }).problems).toEqual([]);
	});

	it('refuse password sign-in off without OpenID Connect, naming both variables', () => {
		const [problem] = check({ PASSWORD_SIGN_IN: 'off' }).problems;
		expect(problem.message).toMatch(/PASSWORD_SIGN_IN=off needs OIDC_ISSUER/);
	});

	it('refuse an issuer without its client or any group to map', () => {
		const messages = check({ OIDC_ISSUER: OIDC.OIDC_ISSUER }).problems.map((p) => p.message);
		expect(messages).toEqual([
			expect.stringContaining('OIDC_CLIENT_ID'),
			expect.stringContaining('OIDC_CLIENT_SECRET'),
			expect.stringContaining('OIDC_ADMIN_GROUPS, OIDC_EDITOR_GROUPS, OIDC_VIEWER_GROUPS')
		]);
	});

	it('read the client secret from a file', () => {
		const { problems, env } = check(
			{
				OIDC_ISSUER: OIDC.OIDC_ISSUER,
				OIDC_CLIENT_ID: OIDC.OIDC_CLIENT_ID,
				OIDC_CLIENT_SECRET_FILE: '/run/secrets/oidc',
				OIDC_VIEWER_GROUPS: OIDC.OIDC_VIEWER_GROUPS
			},
			{ '/run/secrets/oidc': 'from-file\n' }
		);
		expect(problems).toEqual([]);
		expect(env.OIDC_CLIENT_SECRET).toBe('from-file');
	});

	it('refuse an http issuer unless allowed, and warn when it is', () => {
		const http = { ...OIDC, OIDC_ISSUER: 'http://127.0.0.1:8080' };
		expect(check(http).problems[0].message).toMatch(
			/must be an https URL.*OIDC_ALLOW_INSECURE_HTTP=1/
		);
		const allowed = check({ ...http, OIDC_ALLOW_INSECURE_HTTP: '1' });
		expect(allowed.problems).toEqual([]);
		expect(allowed.warnings).toEqual([expect.stringContaining('plain http')]);
	});

	it('warn of password hashes below the recommended cost, and refuse a cost out of range', () => {
		expect(check({ PASSWORD_HASH_COST: '17' }).warnings).toEqual([]);
		expect(check({ PASSWORD_HASH_COST: '18' }).warnings).toEqual([]);
		expect(check({ PASSWORD_HASH_COST: '12' }).warnings).toEqual([
			expect.stringMatching(/PASSWORD_HASH_COST=12: .*below the recommended 17.*test servers only/)
		]);
		for (const wrong of ['9', '19', 'high']) {
			expect(check({ PASSWORD_HASH_COST: wrong }).problems).toEqual([
				{ name: 'PASSWORD_HASH_COST', message: expect.stringContaining('from 10 to 18') }
			]);
		}
	});

	it('warn of OIDC settings without an issuer', () => {
		expect(check({ OIDC_CLIENT_ID: 'studio' }).warnings).toEqual([
			'OIDC_CLIENT_ID ignored: OIDC_ISSUER is not set.'
		]);
	});
});
