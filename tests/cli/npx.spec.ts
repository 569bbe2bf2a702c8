import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, fixture, ROOT, run, type Run } from './helpers';

/**
 * The program as a user runs it from a checkout: `npx provisioning-studio …` in the project
 * directory, which npm resolves through the package's `bin` entry. npm works offline here: the
 * program is the checkout's own, and nothing may be fetched in its place.
 */

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	version: string;
	bin: Record<string, string>;
};

/** Runs `npx provisioning-studio <args>` in the project directory. */
function npx(args: string[]): Promise<Run> {
	return new Promise((resolve) => {
		execFile(
			'npx',
			['provisioning-studio', ...args],
			{
				cwd: ROOT,
				env: {
					PATH: process.env.PATH ?? '',
					HOME: process.env.HOME ?? '',
					npm_config_offline: 'true',
					npm_config_update_notifier: 'false'
				}
			},
			(error, stdout, stderr) => {
				const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
				resolve({ code, stdout, stderr });
			}
		);
	});
}

/** stderr without npm's own warnings about the machine's npm configuration. */
function programStderr(result: Run): string {
	return result.stderr
		.split('\n')
		.filter((line) => !line.startsWith('npm warn'))
		.join('\n')
		.trim();
}

beforeAll(async () => {
	await ensureBuilt();
});

describe('npx provisioning-studio, from a checkout', () => {
	it('is the bin entry of the package', () => {
		expect(pkg.bin).toEqual({ 'provisioning-studio': 'bin/provisioning-studio.js' });
	});

	it('--version prints the version of the package', async () => {
		const result = await npx(['--version']);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe(`${pkg.version}\n`);
		expect(programStderr(result)).toBe('');
	});

	it('check <file> reports a clean profile and exits 0, as the program run directly does', async () => {
		const result = await npx(['check', fixture('clean/acme.xml')]);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain(
			'tests/cli/fixtures/clean/acme.xml (additional provisioning XML; 2 services, 4 requests)\n  no findings\n'
		);
		expect(result.stdout).toContain(
			'✔ 0 errors, 0 warnings, 0 infos in 1 file · 4 requests rendered'
		);
		expect(programStderr(result)).toBe('');
		expect(result.stdout).toBe((await run(['check', fixture('clean/acme.xml')])).stdout);
	});

	it('check <file> with an error exits 1 and says where', async () => {
		const result = await npx(['check', fixture('findings/bad.xml')]);
		expect(result.code).toBe(1);
		expect(result.stdout).toMatch(/^ {2}3:2 +error +<genericSmsSendUrll> is not a setting/m);
		expect(result.stdout).toContain('✖ 1 error, 4 warnings, 1 info in 1 file');
		expect(programStderr(result)).toBe('');
	});
});
