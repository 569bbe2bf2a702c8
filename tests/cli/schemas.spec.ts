import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../helpers/upstream';
import { ensureBuilt, fixture, ROOT, run, tempDir } from './helpers';
import { junitErrors, sarifErrors } from './schemas';

/**
 * The JUnit and SARIF reports of the real program, validated against their schemas: SARIF
 * against the official SARIF 2.1.0 JSON schema (OASIS, as shipped by @microsoft/jest-sarif),
 * JUnit against the schema of the format Ant writes and Jenkins reads (fixtures/schemas).
 * Each report comes from a real run: clean, with findings of every level, of several files,
 * with an unreadable file, a snapshot that differs, and live answers that fail.
 */

let upstream: Upstream;
let work: { dir: string; remove: () => void };
let closedPort: number;

/** A port nothing listens on: taken from the system, then closed. */
async function freedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return port;
}

beforeAll(async () => {
	await ensureBuilt();
	upstream = await startUpstream({
		otherwise: {
			status: 500,
			headers: { 'content-type': 'application/json' },
			body: '{"error": "down <for> \\"maintenance\\" & more"}'
		}
	});
	closedPort = await freedPort();
	work = tempDir();
});

afterAll(async () => {
	await upstream.stop();
	work.remove();
});

/** A Send Message profile sending to `url`. */
function liveProfile(name: string, url: string): string {
	const file = path.join(work.dir, `${name}.xml`);
	writeFileSync(
		file,
		'<account>\n' +
			`<genericSmsSendUrl>${url}</genericSmsSendUrl>\n` +
			'<genericSmsSendPostData>{"to": "%sms_to%", "body": "%sms_body%"}</genericSmsSendPostData>\n' +
			'<genericSmsSendContentType>application/json</genericSmsSendContentType>\n' +
			'</account>\n'
	);
	return file;
}

/** A copy of the clean fixture whose snapshots were written, then a changed body. */
async function changedAgainstSnapshots(): Promise<string[]> {
	const file = path.join(work.dir, 'acme.xml');
	const original = readFileSync(path.join(ROOT, fixture('clean/acme.xml')), 'utf8');
	writeFileSync(file, original);
	writeFileSync(
		path.join(work.dir, 'acme.scenarios.json'),
		readFileSync(path.join(ROOT, fixture('clean/acme.scenarios.json')))
	);
	const snapshots = path.join(work.dir, 'snapshots');
	const args = ['check', file, '--snapshots', snapshots];
	expect((await run([...args, '--update-snapshots'])).code).toBe(0);
	writeFileSync(file, original.replace('"body": "%sms_body%"', '"text":\t"%sms_body%"  '));
	return args;
}

/** The runs whose reports are validated: name, arguments, environment, expected exit code. */
async function runs(): Promise<
	{ name: string; args: string[]; env?: Record<string, string>; code: number }[]
> {
	return [
		{ name: 'a clean profile', args: ['check', fixture('clean/acme.xml')], code: 0 },
		{
			name: 'findings of every level (error, warning, info)',
			args: ['check', '--fail-on', 'warning', fixture('findings/bad.xml')],
			code: 1
		},
		{
			name: 'several files, one unreadable, and a backup',
			args: [
				'check',
				fixture('findings/bad.xml'),
				fixture('broken'),
				fixture('clean/acme.xml'),
				fixture('backup/acme-backup.json')
			],
			code: 3
		},
		{ name: 'a directory with no profiles', args: ['check', fixture('empty-dir')], code: 3 },
		{ name: 'a snapshot that differs', args: await changedAgainstSnapshots(), code: 1 },
		{
			name: 'live answers that fail, and a server that does not answer',
			args: [
				'check',
				'--live',
				liveProfile('answers-500', `${upstream.url}/send`),
				liveProfile('closed', `http://127.0.0.1:${closedPort}/send`)
			],
			env: { OUTBOUND_ALLOW: '127.0.0.1', OUTBOUND_PORTS: '*' },
			code: 4
		}
	];
}

describe('SARIF 2.1.0: the official JSON schema', () => {
	it('every report validates, with findings of every level among them', async () => {
		const levels = new Set<string>();
		for (const { name, args, env, code } of await runs()) {
			const result = await run([...args, '--reporter', 'sarif'], { env });
			expect(result.code, name).toBe(code);
			const log = JSON.parse(result.stdout) as {
				runs: { results: { level: string; locations: unknown[] }[] }[];
			};
			expect(sarifErrors(log), `${name}: ${result.stdout}`).toEqual([]);
			expect(log.runs).toHaveLength(1);
			if (code === 0) expect(log.runs[0].results).toEqual([]);
			else expect(log.runs[0].results.length, name).toBeGreaterThan(0);
			for (const r of log.runs[0].results) levels.add(r.level);
		}
		expect([...levels].sort()).toEqual(['error', 'note', 'warning']);
	});

	it('the schema refuses what is not SARIF 2.1.0 (so the validation can fail)', async () => {
		const result = await run(['check', '--reporter', 'sarif', fixture('findings/bad.xml')]);
		const log = JSON.parse(result.stdout) as {
			version: string;
			runs: { results: Record<string, unknown>[]; tool: { driver: Record<string, unknown> } }[];
		};
		expect(sarifErrors(log)).toEqual([]);
		const wrongLevel = structuredClone(log);
		wrongLevel.runs[0].results[0].level = 'info';
		expect(sarifErrors(wrongLevel).join('\n')).toMatch(/level/);
		const noDriverName = structuredClone(log);
		delete noDriverName.runs[0].tool.driver.name;
		expect(sarifErrors(noDriverName).join('\n')).toMatch(/name/);
		expect(sarifErrors({ ...log, version: '2.0.0' })).not.toEqual([]);
	});
});

describe('JUnit XML: the format Ant writes and Jenkins reads', () => {
	it('every report validates against the schema', async () => {
		for (const { name, args, env, code } of await runs()) {
			const result = await run([...args, '--reporter', 'junit'], { env });
			expect(result.code, name).toBe(code);
			expect(await junitErrors(result.stdout), `${name}:\n${result.stdout}`).toEqual([]);
			if (code !== 0) expect(result.stdout, name).toMatch(/<(failure|error) /);
		}
	});

	it('the schema refuses a document out of the format (so the validation can fail)', async () => {
		const result = await run(['check', '--reporter', 'junit', fixture('findings/bad.xml')]);
		expect(await junitErrors(result.stdout)).toEqual([]);
		const wrong = {
			'a count that is not a number': result.stdout.replace(/tests="\d+"/, 'tests="many"'),
			'a test case without a name': result.stdout.replace(/<testcase name="[^"]*"/, '<testcase'),
			'a failure outside a test case': result.stdout.replace(
				/(<testsuite [^>]*>)/,
				'$1\n<failure message="x" type="y">z</failure>'
			),
			'a result after the output': result.stdout.replace(
				/<\/system-out>/,
				'</system-out><failure message="late"/>'
			),
			'an element the format does not have': result.stdout.replace(
				'</testsuites>',
				'<summary/></testsuites>'
			)
		};
		for (const [what, xml] of Object.entries(wrong)) {
			expect(xml, what).not.toBe(result.stdout);
			const errors = await junitErrors(xml);
			expect(errors.length, what).toBeGreaterThan(0);
		}
	});
});
