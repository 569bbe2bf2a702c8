import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, fixture, ROOT, run, tempDir } from './helpers';

beforeAll(async () => {
	await ensureBuilt();
});

const SECRET = 's3cr3t-Pa55&x';
const env = { PROV_PASS: SECRET };
const secretArgs = ['--secret', 'account[password]=PROV_PASS'];

let cleanup: (() => void)[] = [];
afterEach(() => {
	for (const remove of cleanup) remove();
	cleanup = [];
});

function temp(): string {
	const { dir, remove } = tempDir();
	cleanup.push(remove);
	return dir;
}

/** Every file under a folder, recursively. */
async function allFiles(dir: string): Promise<string[]> {
	const { readdirSync } = await import('node:fs');
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile())
		.map((e) => path.join(e.parentPath, e.name));
}

describe('snapshots', () => {
	it('writes one .http file per service and scenario with the exact request, secrets masked', async () => {
		const snapshots = temp();
		const written = await run(
			[
				'check',
				fixture('clean/acme.xml'),
				'--snapshots',
				snapshots,
				'--update-snapshots',
				...secretArgs
			],
			{ env }
		);
		expect(written.code).toBe(0);
		expect(written.stdout).toContain('snapshots: 3 written');
		const folder = path.join(snapshots, 'tests/cli/fixtures/clean/acme');
		const hello = readFileSync(path.join(folder, 'sendMessage/hello.http'), 'utf8');
		expect(hello).toBe(
			'POST https://sms.example.com/send?from=alice&to=%2B447911000000\n' +
				'Content-Type: application/json\n' +
				'\n' +
				'{"to": "+447911000000", "body": "Hello & welcome", "password": "••••••••"}'
		);
		const two = readFileSync(path.join(folder, 'sendMessage/two-recipients.http'), 'utf8');
		expect(two).toContain(
			'### recipient 5551234567\nPOST https://sms.example.com/send?from=alice&to=5551234567'
		);
		expect(existsSync(path.join(folder, 'pushTokenReporter/samples.http'))).toBe(true);
		for (const file of await allFiles(snapshots)) {
			expect(readFileSync(file, 'utf8')).not.toContain('s3cr3t');
		}

		const again = await run(
			['check', fixture('clean/acme.xml'), '--snapshots', snapshots, ...secretArgs],
			{
				env
			}
		);
		expect(again.code).toBe(0);
		expect(again.stdout).toContain('snapshots: 3 match');
	});

	it('fails with a readable diff when a request changed, and --update-snapshots accepts it', async () => {
		const snapshots = temp();
		const work = temp();
		const file = path.join(work, 'acme.xml');
		const original = readFileSync(path.join(ROOT, fixture('clean/acme.xml')), 'utf8');
		writeFileSync(file, original);
		writeFileSync(
			path.join(work, 'acme.scenarios.json'),
			readFileSync(path.join(ROOT, fixture('clean/acme.scenarios.json')))
		);
		const args = ['check', 'acme.xml', '--snapshots', snapshots];
		expect((await run([...args, '--update-snapshots'], { cwd: work })).code).toBe(0);
		writeFileSync(file, original.replace('"body": "%sms_body%"', '"text": "%sms_body%"'));
		const changed = await run(args, { cwd: work });
		expect(changed.code).toBe(1);
		expect(changed.stdout).toMatch(
			/error +The request of sendMessage with "Hello" differs from its snapshot/
		);
		expect(changed.stdout).toContain(
			'-    4 | {"to": "+447911000000", "body": "Hello & welcome", "password": "••••••••"}'
		);
		expect(changed.stdout).toContain(
			'+    4 | {"to": "+447911000000", "text": "Hello & welcome", "password": "••••••••"}'
		);
		expect(changed.stdout).toContain('(line 4 differs from column 26)');
		expect(changed.stdout).toContain('snapshots: 1 match, 2 differs');
		// The snapshot failure fails the run whatever --fail-on says.
		expect((await run([...args, '--fail-on', 'none'], { cwd: work })).code).toBe(1);
		expect((await run([...args, '--update-snapshots'], { cwd: work })).code).toBe(0);
		expect((await run(args, { cwd: work })).code).toBe(0);
	});

	it('says which snapshots are missing and which no rendering has any more', async () => {
		const snapshots = temp();
		const missing = await run(['check', fixture('clean/acme.xml'), '--snapshots', snapshots]);
		expect(missing.code).toBe(1);
		expect(missing.stdout).toContain('No stored snapshot of sendMessage with "Hello"');
		expect(missing.stdout).toContain('run with --update-snapshots to write it');
		await run(['check', fixture('clean/acme.xml'), '--snapshots', snapshots, '--update-snapshots']);
		const stale = path.join(snapshots, 'tests/cli/fixtures/clean/acme/sendMessage/gone.http');
		writeFileSync(stale, 'GET https://old.example.com/\n');
		const obsolete = await run(['check', fixture('clean/acme.xml'), '--snapshots', snapshots]);
		expect(obsolete.code).toBe(0);
		expect(obsolete.stdout).toMatch(
			/warning +.*gone\.http matches no service and scenario any more/
		);
		await run(['check', fixture('clean/acme.xml'), '--snapshots', snapshots, '--update-snapshots']);
		expect(existsSync(stale)).toBe(false);
	});

	it('masks a secret in every output and report, wherever the template puts it', async () => {
		const work = temp();
		// The secret lands in the URL (encoded), in a header and in the body; the lint quotes the URL.
		writeFileSync(
			path.join(work, 'leaky.xml'),
			'<account>\n<genericSmsSendUrl>https://sms.example.com/?p=%account[password]%</genericSmsSendUrl>\n' +
				'<genericSmsSendPostData>%account[password]%</genericSmsSendPostData>\n' +
				'<genericSmsSendContentType>text/plain</genericSmsSendContentType>\n</account>\n'
		);
		const snapshots = path.join(work, 'snaps');
		for (const reporter of ['text', 'json', 'junit', 'sarif', 'github']) {
			const out = path.join(work, `report.${reporter}`);
			const result = await run(
				[
					'check',
					'leaky.xml',
					'--reporter',
					reporter,
					'--output',
					out,
					'--snapshots',
					snapshots,
					'--update-snapshots',
					...secretArgs
				],
				{ cwd: work, env }
			);
			expect(result.code, reporter).toBe(0);
			for (const text of [result.stdout, result.stderr, readFileSync(out, 'utf8')]) {
				expect(text).not.toContain('s3cr3t');
				expect(text).not.toContain(encodeURIComponent(SECRET));
			}
		}
		const files = await allFiles(snapshots);
		expect(files.length).toBeGreaterThan(0);
		for (const file of files) {
			const text = readFileSync(file, 'utf8');
			expect(text).not.toContain('s3cr3t');
			expect(text).toContain('••••••••');
		}
		const render = await run(
			['render', 'leaky.xml', '--service', 'sendMessage', '--curl', ...secretArgs],
			{
				cwd: work,
				env
			}
		);
		expect(render.stdout).toContain('curl');
		expect(render.stdout + render.stderr).not.toContain('s3cr3t');
	});
});
