import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, freePort, startServer, stopAllServers } from '../helpers/server';

/**
 * The configuration is checked before the app listens: the built server (`scripts/serve.js`)
 * with a wrong variable exits 1 with what is wrong and never answers; secrets come from files.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'ps-config-'));

afterAll(async () => {
	await stopAllServers();
	rmSync(work, { recursive: true, force: true });
});

/** Starts the server with `env` and waits for it to exit (10 s at most): its code and output. */
function startExpectingExit(env: Record<string, string>, port: number) {
	return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
		const child = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.js')], {
			cwd: ROOT,
			env: {
				PATH: process.env.PATH ?? '',
				NODE_ENV: 'production',
				HOST: '127.0.0.1',
				PORT: String(port),
				DATA_DIR: path.join(work, 'data'),
				...env
			}
		});
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
		const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
		child.once('exit', (code) => {
			clearTimeout(timer);
			resolve({ code, stdout, stderr });
		});
	});
}

/** The messages of the log's lines (JSON, as stderr is no terminal here). */
function said(stderr: string): string {
	return stderr
		.split('\n')
		.filter((line) => line !== '')
		.map((line) => (JSON.parse(line) as { msg: string }).msg)
		.join('\n');
}

describe('configuration checked at start', () => {
	it('a wrong value stops the start before it listens, naming the variable, what is wrong and an example', async () => {
		const port = await freePort();
		const result = await startExpectingExit(
			{
				OUTBOUND_ALLOW: '10.0.0.0/99',
				DATABASE_URL: 'mysql://root:hunter2@db/studio',
				OUTBOUND_ALOW: '10.0.0.1'
			},
			port
		);
		expect(result.code).toBe(1);
		// The log's lines (JSON, as stdout and stderr are no terminal here), their messages.
		const said = result.stderr
			.split('\n')
			.filter((line) => line !== '')
			.map((line) => (JSON.parse(line) as { msg: string }).msg)
			.join('\n');
		expect(said).toContain('Provisioning Studio cannot start: 2 settings are wrong.');
		expect(said).toContain(
			'OUTBOUND_ALLOW=10.0.0.0/99: "10.0.0.0/99" is neither a CIDR, an address nor a host name. Example: OUTBOUND_ALLOW=10.0.0.0/8,*.corp.example'
		);
		expect(said).toContain('DATABASE_URL: must be a PostgreSQL URL');
		expect(said).toContain(
			'OUTBOUND_ALOW is not a setting of the app: did you mean OUTBOUND_ALLOW?'
		);
		// A secret is never repeated, and nothing was listening.
		expect(result.stderr + result.stdout).not.toContain('hunter2');
		expect(result.stdout).not.toContain('Listening');
		expect(result.stderr).not.toMatch(/\n\s+at /);
	});

	it("the audit stream's secret: a wrong one, or the URL alone, stops the start naming the variable", async () => {
		const url = 'https://siem.example.test/hooks/studio';
		const wrong = await startExpectingExit(
			{ AUDIT_WEBHOOK_URL: url, AUDIT_WEBHOOK_SECRET: 'not-a-whsec-value' },
			await freePort()
		);
		expect(wrong.code).toBe(1);
		expect(said(wrong.stderr)).toContain(
			'AUDIT_WEBHOOK_SECRET: must be whsec_ followed by base64 (echo whsec_$(openssl rand -base64 32)).'
		);
		expect(wrong.stderr + wrong.stdout).not.toContain('not-a-whsec-value');
		const alone = await startExpectingExit({ AUDIT_WEBHOOK_URL: url }, await freePort());
		expect(alone.code).toBe(1);
		expect(said(alone.stderr)).toContain(
			'AUDIT_WEBHOOK_URL is set without AUDIT_WEBHOOK_SECRET: set both, or neither.'
		);
		expect(alone.stdout).not.toContain('Listening');
	});

	it('a refused secret setting is one configuration error naming the variable and the rule, never its value', async () => {
		const cases: { env: Record<string, string>; says: string; never: RegExp }[] = [
			{
				env: { ADMIN_EMAIL: 'root@example.test', ADMIN_PASSWORD: 'Zq9#Kp2!Zq9#Kp2!Zq9#Kp2!' },
				says: 'ADMIN_PASSWORD: must not repeat one part over and over',
				never: /zq9|kp2/i
			},
			{
				env: { ADMIN_EMAIL: 'root@example.test', ADMIN_PASSWORD: 'Root@Example.test' },
				says: "ADMIN_PASSWORD: must not be the account's e-mail address",
				never: /Root@Example/
			},
			{
				env: { DATABASE_URL: 'postgres://studio:hunter2@db.internal:99999/studio' },
				says: 'DATABASE_URL: must be a PostgreSQL URL',
				never: /hunter2|REDACTED/
			},
			{
				env: { SECRET_KEY: 'hunter2-not-a-key' },
				says: 'SECRET_KEY: must be 32 random bytes',
				never: /hunter2/
			},
			{
				env: { METRICS_TOKEN: 'hunter2-short' },
				says: 'METRICS_TOKEN: must be at least 16 characters',
				never: /hunter2/
			}
		];
		for (const { env, says, never } of cases) {
			const result = await startExpectingExit(env, await freePort());
			expect(result.code).toBe(1);
			expect(result.stderr).toMatch(/^\{"level":"fatal"/m);
			expect(said(result.stderr)).toContain(says);
			expect(result.stderr + result.stdout).not.toMatch(never);
			expect(result.stderr).not.toMatch(/\n\s+at /);
			expect(result.stdout).not.toContain('Listening');
		}
	});

	it('reads secrets from <NAME>_FILE: the first admin signs in with the password in the file', async () => {
		const passwordFile = path.join(work, 'admin-password');
		writeFileSync(passwordFile, 'from-a-file-passw0rd\n');
		const keyFile = path.join(work, 'secret-key');
		writeFileSync(keyFile, `${Buffer.alloc(32, 4).toString('base64')}\n`);
		const server = await startServer({
			env: {
				ADMIN_EMAIL: 'file-admin@example.test',
				ADMIN_PASSWORD_FILE: passwordFile,
				SECRET_KEY_FILE: keyFile
			}
		});
		const client = new Client(server);
		expect((await client.login('file-admin@example.test', 'from-a-file-passw0rd')).status).toBe(
			200
		);
		// Set both ways: refused, naming both.
		const both = await startExpectingExit(
			{ SECRET_KEY: Buffer.alloc(32, 4).toString('base64'), SECRET_KEY_FILE: keyFile },
			await freePort()
		);
		expect(both.code).toBe(1);
		expect(both.stderr).toContain('SECRET_KEY and SECRET_KEY_FILE are both set');
		expect(both.stderr).toMatch(/^\{"level":"fatal"/);
	});
});
