import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, fixture, run, tempDir } from './helpers';

beforeAll(async () => {
	await ensureBuilt();
});

describe('check', () => {
	it('passes a clean profile with exit code 0 and says what it rendered', async () => {
		const result = await run(['check', fixture('clean/acme.xml')]);
		expect(result.stderr).toBe('');
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('tests/cli/fixtures/clean/acme.xml');
		expect(result.stdout).toContain('additional provisioning XML; 2 services, 4 requests');
		expect(result.stdout).toContain('no findings');
		expect(result.stdout).toMatch(
			/✔ 0 errors, 0 warnings, 0 infos in 1 file · 4 requests rendered/
		);
	});

	it('reports findings with file, line, column and key, and fails on errors', async () => {
		const result = await run(['check', fixture('findings/bad.xml')]);
		expect(result.code).toBe(1);
		const out = result.stdout;
		// %sms_too% sits at line 2, column 110 of the file (after a tab and &amp; written out).
		expect(out).toMatch(/ {2}2:110 +warning +%sms_too% is not known to Send Message/);
		expect(out).toMatch(/2:83 +warning +%account\[password\]% is sent in the URL/);
		expect(out).toContain('Send Message · URL (genericSmsSendUrl)');
		expect(out).toMatch(
			/3:2 +error +<genericSmsSendUrll> is not a setting .*did you mean <genericSmsSendUrl>\?/
		);
		expect(out).toContain('1 error, 4 warnings, 1 info');
	});

	it('places findings exactly where the text is in the file', async () => {
		const { readFileSync } = await import('node:fs');
		const lines = readFileSync(path.resolve(fixture('findings/bad.xml')), 'utf8').split('\n');
		expect(lines[1].slice(109, 118)).toBe('%sms_too%');
		expect(lines[1].slice(82, 101)).toBe('%account[password]%');
		expect(lines[2].slice(1, 21)).toBe('<genericSmsSendUrll>');
	});

	it('checks Fetch Messages like the contract services, its keys no longer unknown', async () => {
		const { dir, remove } = tempDir();
		try {
			const file = path.join(dir, 'fetch.xml');
			writeFileSync(
				file,
				'<account>\n<genericSmsFetchUrl>https://x.example.com/fetch?last=%last_known_smsid%</genericSmsFetchUrl>\n<genericSmsFetchPostData>{"sent": "%last_known_sent_sms_id%"}</genericSmsFetchPostData>\n<genericSmsFetchContentType>application/json</genericSmsFetchContentType>\n</account>\n'
			);
			const result = await run(['check', file]);
			expect(result.code).toBe(0);
			expect(result.stdout).toContain('1 service, 1 request');
			expect(result.stdout).toMatch(
				/2:54 +warning +%last_known_smsid% is not known to Fetch Messages.*Did you mean %last_known_sms_id%\?/
			);
			expect(result.stdout).toContain('Fetch Messages · URL (genericSmsFetchUrl)');
			expect(result.stdout).not.toContain('is not a setting');
		} finally {
			remove();
		}
	});

	it('decides the exit code by --fail-on', async () => {
		const none = await run(['check', '--fail-on', 'none', fixture('findings/bad.xml')]);
		expect(none.code).toBe(0);
		const clean = await run(['check', '--fail-on', 'info', fixture('clean/acme.xml')]);
		expect(clean.code).toBe(0);
		const { dir, remove } = tempDir();
		try {
			// Only a warning: passes by default, fails with --fail-on warning.
			const file = path.join(dir, 'warn.xml');
			writeFileSync(
				file,
				'<account>\n<genericSmsSendUrl>https://x.example.com/?to=%sms_too%</genericSmsSendUrl>\n</account>\n'
			);
			expect((await run(['check', file])).code).toBe(0);
			expect((await run(['check', '--fail-on', 'warning', file])).code).toBe(1);
		} finally {
			remove();
		}
	});

	it('reads a directory of profiles recursively, skipping JSON that is not a backup', async () => {
		const { dir, remove } = tempDir();
		try {
			const { mkdirSync, copyFileSync } = await import('node:fs');
			mkdirSync(path.join(dir, 'nested'));
			copyFileSync(path.resolve(fixture('clean/acme.xml')), path.join(dir, 'nested/acme.xml'));
			writeFileSync(path.join(dir, 'package.json'), '{"name": "x"}');
			const result = await run(['check', dir]);
			expect(result.code).toBe(0);
			expect(result.stdout).toContain('nested/acme.xml');
			expect(result.stdout).not.toContain('package.json');
			expect(result.stdout).toContain('in 1 file');
		} finally {
			remove();
		}
	});

	it('checks a JSON backup, placing findings on the line of the setting', async () => {
		const result = await run(['check', fixture('backup/acme-backup.json')]);
		expect(result.code).toBe(1);
		expect(result.stdout).toContain('JSON backup');
		// The unknown placeholder of genericSmsSendUrl is on line 13 of the backup.
		expect(result.stdout).toMatch(/13:\d+ +warning +%sms_too% is not known/);
		expect(result.stdout).toMatch(/16:35 +error +"DELETE" is not a method of Media Reference Send/);
	});
});

describe('bad input', () => {
	it('unreadable XML: exit code 3, with the file, line and column', async () => {
		const result = await run(['check', fixture('broken/bad-ampersand.xml')]);
		expect(result.code).toBe(3);
		expect(result.stdout).toContain('tests/cli/fixtures/broken/bad-ampersand.xml');
		expect(result.stdout).toMatch(
			/2:47 +error +Not well-formed XML: a “&” that starts no reference/
		);
	});

	it('an unreadable file does not hide the findings of the others', async () => {
		const result = await run([
			'check',
			fixture('broken/bad-ampersand.xml'),
			fixture('findings/bad.xml')
		]);
		expect(result.code).toBe(3);
		expect(result.stdout).toContain('did you mean <genericSmsSendUrl>?');
	});

	it('a missing file or a directory with no profiles: exit code 3 with the path', async () => {
		const missing = await run(['check', 'no/such/file.xml']);
		expect(missing.code).toBe(3);
		expect(missing.stdout).toContain('no/such/file.xml');
		expect(missing.stdout).toContain('No such file or directory.');
		const empty = await run(['check', fixture('empty-dir')]);
		expect(empty.code).toBe(3);
		expect(empty.stdout).toContain('tests/cli/fixtures/empty-dir');
		expect(empty.stdout).toContain('No profiles in this directory');
	});

	it('a missing or invalid scenario file: exit code 3, naming it and the place', async () => {
		const missing = await run([
			'check',
			'--scenarios',
			'nope.scenarios.json',
			fixture('clean/acme.xml')
		]);
		expect(missing.code).toBe(3);
		expect(missing.stdout).toMatch(/nope\.scenarios\.json[\s\S]*No such file or directory/);
		const { dir, remove } = tempDir();
		try {
			const file = path.join(dir, 'bad.scenarios.json');
			writeFileSync(file, '{\n  "scenarios": [\n    { "name": "x", }\n  ]\n}\n');
			const invalid = await run(['check', '--scenarios', file, fixture('clean/acme.xml')]);
			expect(invalid.code).toBe(3);
			expect(invalid.stdout).toMatch(/3:\d+ +error +The scenario file is not valid JSON/);
			writeFileSync(file, '{"scenarios": [{"name": "x", "values": {"sms_to": 5}}]}');
			const wrong = await run(['check', '--scenarios', file, fixture('clean/acme.xml')]);
			expect(wrong.code).toBe(3);
			expect(wrong.stdout).toContain('Not a scenario file (scenarios.0.values.sms_to:');
		} finally {
			remove();
		}
	});

	it('usage errors: exit code 2 with a message on stderr', async () => {
		for (const args of [
			['check'],
			['check', '--nope', 'x.xml'],
			['check', '--fail-on', 'loud', 'x.xml'],
			['check', '--reporter', 'xml', 'x.xml'],
			['check', '--update-snapshots', 'x.xml'],
			['check', '--expect', 'sendMessage:status=200', 'x.xml'],
			['check', '--secret', 'account[password]=NOT_SET_ANYWHERE', fixture('clean/acme.xml')],
			['frobnicate'],
			[]
		]) {
			const result = await run(args);
			expect(result.code, args.join(' ')).toBe(2);
		}
		const unknown = await run(['check', '--nope', 'x.xml']);
		expect(unknown.stderr).toContain("Unknown option '--nope'");
		const secret = await run(['check', '--secret', 'account[password]=NOT_SET_ANYWHERE', 'x.xml']);
		expect(secret.stderr).toContain('the environment variable NOT_SET_ANYWHERE is not set');
	});

	it('--help for every command and --version', async () => {
		const main = await run(['--help']);
		expect(main.code).toBe(0);
		expect(main.stdout).toMatch(/Commands:[\s\S]*check[\s\S]*render[\s\S]*export/);
		for (const command of ['check', 'render', 'export']) {
			const help = await run([command, '--help']);
			expect(help.code).toBe(0);
			expect(help.stdout).toContain(`Usage: provisioning-studio ${command}`);
		}
		const version = await run(['--version']);
		const { readFileSync } = await import('node:fs');
		const pkg = JSON.parse(readFileSync(path.resolve('package.json'), 'utf8'));
		expect(version.stdout).toBe(`${pkg.version}\n`);
	});
});

describe('colour', () => {
	it('is off when not on a terminal, on with FORCE_COLOR, and NO_COLOR wins', async () => {
		const plain = await run(['check', fixture('findings/bad.xml')]);
		expect(plain.stdout).not.toContain('\u001b[');
		const forced = await run(['check', fixture('findings/bad.xml')], { env: { FORCE_COLOR: '1' } });
		expect(forced.stdout).toContain('\u001b[31merror');
		const both = await run(['check', fixture('findings/bad.xml')], {
			env: { FORCE_COLOR: '1', NO_COLOR: '1' }
		});
		expect(both.stdout).not.toContain('\u001b[');
	});
});
