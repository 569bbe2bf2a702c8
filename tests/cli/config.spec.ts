import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, run, tempDir } from './helpers';

/** `provisioning-studio config`: the app's effective configuration, from the one schema. */

let work: { dir: string; remove: () => void };

beforeAll(async () => {
	await ensureBuilt();
	work = tempDir();
});

afterAll(() => work.remove());

describe('config', () => {
	it('prints every variable with its value and source, secrets masked', async () => {
		const keyFile = path.join(work.dir, 'key');
		const key = Buffer.alloc(32, 8).toString('base64');
		writeFileSync(keyFile, `${key}\n`);
		const result = await run(['config'], {
			env: {
				PORT: '8080',
				SECRET_KEY_FILE: keyFile,
				DATABASE_URL: 'postgres://studio:db-pa55@db.internal/studio'
			}
		});
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(/^PORT +8080 {2}\[environment\]$/m);
		expect(result.stdout).toMatch(/^HOST +0\.0\.0\.0 {2}\[default\]$/m);
		expect(result.stdout).toMatch(/^SECRET_KEY +•+ {2}\[file\]$/m);
		expect(result.stdout).toMatch(/^DATABASE_URL +•+ {2}\[environment\]$/m);
		expect(result.stdout).toMatch(/^OUTBOUND_ALLOW +\(unset\) {2}\[unset\]$/m);
		expect(result.stdout + result.stderr).not.toContain('db-pa55');
		expect(result.stdout + result.stderr).not.toContain(key);
	});

	it("shows a URL's origin where its path and query may hold a key, and no URL's credentials", async () => {
		const env = {
			AUDIT_WEBHOOK_URL: 'http://127.0.0.1:9/hook?key=QUERYKEY123',
			AUDIT_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
			OIDC_ISSUER: 'https://login.example.test/realms/corp',
			OIDC_CLIENT_ID: 'studio',
			OIDC_CLIENT_SECRET: 'the-client-secret',
			OIDC_VIEWER_GROUPS: 'viewers',
			ORIGIN: 'https://studio.example.test'
		};
		const result = await run(['config'], { env });
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(
			/^AUDIT_WEBHOOK_URL +http:\/\/127\.0\.0\.1:9 {2}\[environment\]$/m
		);
		expect(result.stdout).toMatch(
			/^OIDC_ISSUER +https:\/\/login\.example\.test\/realms\/corp {2}\[environment\]$/m
		);
		expect(result.stdout).toMatch(/^ORIGIN +https:\/\/studio\.example\.test {2}\[environment\]$/m);
		const json = await run(['config', '--json'], { env });
		expect(JSON.parse(json.stdout).settings).toContainEqual({
			name: 'AUDIT_WEBHOOK_URL',
			value: 'http://127.0.0.1:9',
			source: 'environment'
		});
		// Refused values are named as they may be shown, or not at all.
		const refused = await run(['config'], {
			env: {
				AUDIT_WEBHOOK_URL: 'ftp://127.0.0.1:9/hook?key=QUERYKEY123',
				AUDIT_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
				OIDC_ISSUER: 'https://client:hunter2@login.example.test/realms/corp',
				OIDC_CLIENT_ID: 'studio',
				OIDC_CLIENT_SECRET: 'the-client-secret',
				OIDC_VIEWER_GROUPS: 'viewers'
			}
		});
		expect(refused.code).toBe(1);
		expect(refused.stderr).toContain(
			'error: AUDIT_WEBHOOK_URL=ftp://127.0.0.1:9: must be an http(s) URL without a user name or password.'
		);
		expect(refused.stderr).toContain(
			"error: OIDC_ISSUER=https://login.example.test/realms/corp: must be the issuer's URL"
		);
		for (const output of [result, json, refused]) {
			expect(output.stdout + output.stderr).not.toMatch(/QUERYKEY123|:9\/hook|hunter2/);
		}
	});

	it('says what the server would refuse to start with: exit code 1; --json as data', async () => {
		const env = { SESSION_MAX_HOURS: 'a week', OUTBOUND_PROTS: '8080' };
		const result = await run(['config'], { env });
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(
			'error: SESSION_MAX_HOURS=a week: must be a number above zero. Example: SESSION_MAX_HOURS=168'
		);
		expect(result.stderr).toContain(
			'warning: OUTBOUND_PROTS is not a setting of the app: did you mean OUTBOUND_PORTS?'
		);
		const json = await run(['config', '--json'], { env });
		expect(json.code).toBe(1);
		const report = JSON.parse(json.stdout);
		expect(report.problems).toEqual([
			{
				name: 'SESSION_MAX_HOURS',
				message:
					'SESSION_MAX_HOURS=a week: must be a number above zero. Example: SESSION_MAX_HOURS=168'
			}
		]);
		expect(report.settings.find((s: { name: string }) => s.name === 'SESSION_MAX_HOURS')).toEqual({
			name: 'SESSION_MAX_HOURS',
			value: 'a week',
			source: 'environment'
		});
	});
});
