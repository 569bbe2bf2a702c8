import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, fixture, ROOT, run, tempDir } from './helpers';

/**
 * Bad input, from real files on disk: each gets a clear message naming the file and the place
 * (line and column) and the documented exit code, in `check`'s report and on `render`'s and
 * `export`'s stderr.
 */

let work: { dir: string; remove: () => void };

beforeAll(async () => {
	await ensureBuilt();
	work = tempDir();
});

afterAll(() => work.remove());

/** Writes a file of the test's folder (text, or bytes as written). */
/** A path as the program names it: relative to its working directory (the project). */
function shown(file: string): string {
	return path.relative(ROOT, file);
}

function file(name: string, content: string | Buffer): string {
	const full = path.join(work.dir, name);
	mkdirSync(path.dirname(full), { recursive: true });
	writeFileSync(full, content);
	return full;
}

interface Report {
	exitCode: number;
	files: {
		file: string;
		unreadable?: boolean;
		findings: {
			file: string;
			code: string;
			severity: string;
			message: string;
			place?: { line: number; column: number };
			key?: string;
		}[];
	}[];
}

async function checkJson(args: string[]): Promise<{ code: number; report: Report }> {
	const result = await run(['check', '--reporter', 'json', ...args]);
	return { code: result.code, report: JSON.parse(result.stdout) as Report };
}

const SEND = 'https://sms.example.com/send?to=%sms_to%';

describe('unreadable XML', () => {
	const cases: { name: string; content: string | Buffer; place: string; says: RegExp }[] = [
		{
			name: 'doctype.xml',
			content: `<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x "y">]>\n<account><genericSmsSendUrl>&x;</genericSmsSendUrl></account>\n`,
			place: '2:1',
			says: /DOCTYPE declarations are not accepted/
		},
		{
			name: 'latin1.xml',
			content: Buffer.concat([
				Buffer.from('<account>\n  <genericSmsSendUrl>https://a.example.com/?q=caf'),
				Buffer.from([0xe9]),
				Buffer.from('</genericSmsSendUrl>\n</account>\n')
			]),
			place: '2:50',
			says: /not valid UTF-8: byte 0xE9.*Save the file as UTF-8/
		},
		{
			name: 'truncated.xml',
			content: `<account>\n  <genericSmsSendUrl>${SEND}\n`,
			place: '2:3',
			says: /Not well-formed XML: Expected closing tag 'genericSmsSendUrl'/
		},
		{ name: 'empty.xml', content: '', place: '1:1', says: /The XML has no element/ },
		{
			name: 'two-roots.xml',
			content: `<account/>\n<account/>\n`,
			place: '2:1',
			says: /./
		}
	];

	it('check: exit code 3, the file, line and column, and the other files still checked', async () => {
		const files = cases.map((c) => file(`xml/${c.name}`, c.content));
		const { code, report } = await checkJson([...files, fixture('clean/acme.xml')]);
		expect(code).toBe(3);
		expect(report.files).toHaveLength(cases.length + 1);
		cases.forEach((c, i) => {
			const result = report.files[i];
			expect(result.unreadable, c.name).toBe(true);
			expect(result.findings, c.name).toHaveLength(1);
			const [finding] = result.findings;
			expect(finding.code).toBe('unreadable_input');
			expect(finding.file).toBe(files[i]);
			expect(`${finding.place?.line}:${finding.place?.column}`, c.name).toBe(c.place);
			expect(finding.message, c.name).toMatch(c.says);
		});
		// The readable file beside them is checked as usual.
		expect(report.files[cases.length].unreadable).toBeUndefined();
		expect(report.files[cases.length].findings).toEqual([]);
	});

	it('render and export: exit code 3, "file:line:column: message" on stderr', async () => {
		for (const c of cases) {
			const input = file(`xml/${c.name}`, c.content);
			for (const args of [
				['render', input, '--service', 'sendMessage'],
				['export', input, '--form', 'account']
			]) {
				const result = await run(args);
				expect(result.code, args.join(' ')).toBe(3);
				expect(result.stdout).toBe('');
				expect(result.stderr, args.join(' ')).toContain(`${shown(input)}:${c.place}: `);
				expect(result.stderr).toMatch(c.says);
			}
		}
	});
});

describe('unknown keys', () => {
	it('a misspelt setting in XML is an error on its element, in check and on render’s stderr', async () => {
		const { code, report } = await checkJson([fixture('findings/bad.xml')]);
		expect(code).toBe(1);
		const typo = report.files[0].findings.find((f) => f.code === 'unknown_key')!;
		expect(typo).toMatchObject({ severity: 'error', key: 'genericSmsSendUrll' });
		expect(typo.place).toEqual({ line: 3, column: 2 });
		const render = await run(['render', fixture('findings/bad.xml'), '--service', 'sendMessage']);
		expect(render.code).toBe(0);
		expect(render.stderr).toContain(
			'error: tests/cli/fixtures/findings/bad.xml:3:2: <genericSmsSendUrll> is not a setting the platform knows: did you mean <genericSmsSendUrl>?'
		);
	});

	it('a backup naming a service that does not exist: exit code 3, placed on the key', async () => {
		const backup = file(
			'unknown-service-backup.json',
			JSON.stringify(
				{
					format: 'provisioning-studio.profile-backup',
					version: 1,
					profile: { id: 'a', name: 'A', revision: 1 },
					exportedAt: '2026-01-01T00:00:00.000Z',
					secrets: 'left_out',
					document: {
						services: {
							sendMessage: { genericSmsSendUrl: SEND },
							sendSms: { genericSmsSendUrl: SEND }
						}
					}
				},
				null,
				'\t'
			)
		);
		const { code, report } = await checkJson([backup]);
		expect(code).toBe(3);
		const [finding] = report.files[0].findings;
		expect(finding.message).toBe('document.services: Unrecognized key: "sendSms"');
		expect(finding.place).toEqual({ line: 16, column: 4 });
		const render = await run(['render', backup, '--service', 'sendMessage']);
		expect(render.code).toBe(3);
		expect(render.stderr).toContain(`${shown(backup)}:16:4: document.services: Unrecognized key`);
	});

	it('a backup key that is no part of a backup: a warning placed on it, never dropped silently', async () => {
		const backup = file(
			'misspelt-key-backup.json',
			JSON.stringify(
				{
					format: 'provisioning-studio.profile-backup',
					version: 1,
					profile: { id: 'a', name: 'A', revision: 1 },
					exportedAt: '2026-01-01T00:00:00.000Z',
					secrets: 'left_out',
					document: { services: { sendMessage: { genericSmsSendUrl: SEND } }, scenarioz: [] }
				},
				null,
				'\t'
			)
		);
		const { code, report } = await checkJson([backup]);
		expect(code).toBe(0);
		const [finding] = report.files[0].findings;
		expect(finding).toMatchObject({
			code: 'backup_unknown_key',
			severity: 'warning',
			place: { line: 17, column: 3 }
		});
		expect(finding.message).toMatch(/^document\.scenarioz is not part of a profile backup/);
		const failing = await checkJson([backup, '--fail-on', 'warning']);
		expect(failing.code).toBe(1);
	});

	it('a scenario file with a key it does not have: exit code 3, placed on the key', async () => {
		const profile = file(
			'keys/acme.xml',
			`<account><genericSmsSendUrl>${SEND}</genericSmsSendUrl></account>`
		);
		const top = file(
			'keys/top.scenarios.json',
			'{\n\t"scenarios": [{ "name": "A", "values": { "sms_to": "1" } }],\n\t"senarios": []\n}\n'
		);
		const inner = file(
			'keys/inner.scenarios.json',
			'{\n\t"scenarios": [\n\t\t{ "name": "A", "value": { "sms_to": "1" } }\n\t]\n}\n'
		);
		const topRun = await checkJson(['--scenarios', top, profile]);
		expect(topRun.code).toBe(3);
		expect(topRun.report.files[0].findings[0]).toMatchObject({
			file: top,
			place: { line: 3, column: 2 },
			message: expect.stringContaining(
				'Not a scenario file (senarios: unknown key "senarios"; the only key is "scenarios")'
			)
		});
		const innerRender = await run([
			'render',
			profile,
			'--service',
			'sendMessage',
			'--scenarios',
			inner
		]);
		expect(innerRender.code).toBe(3);
		expect(innerRender.stderr).toContain(
			`${shown(inner)}:3:18: Not a scenario file (scenarios.0.value: unknown key "value"; the keys are "name" and "values")`
		);
	});

	it('a scenario value no template uses: a warning on its name, with the one meant', async () => {
		const profile = file(
			'values/acme.xml',
			`<account><genericSmsSendUrl>${SEND}</genericSmsSendUrl><genericSmsSendPostData>%sms_body%</genericSmsSendPostData></account>`
		);
		const scenarios = file(
			'values/acme.scenarios.json',
			'{\n\t"scenarios": [\n\t\t{ "name": "Hi", "values": { "sms_to": "1", "sms_bodyy": "Hello", "pin": "1234" } }\n\t]\n}\n'
		);
		const { code, report } = await checkJson([profile]);
		expect(code).toBe(0);
		const warnings = report.files[0].findings.filter((f) => f.code === 'unknown_scenario_value');
		// `pin` is a flow's input: known.
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatchObject({
			file: scenarios,
			severity: 'warning',
			key: 'sms_bodyy',
			place: { line: 3, column: 46 }
		});
		expect(warnings[0].message).toContain(
			'"sms_bodyy" in scenario "Hi" is no placeholder of this profile\'s templates or flows, so it is never sent. Did you mean "sms_body"?'
		);
		// The text report names the scenario file, where the line and column are.
		const text = await run(['check', '--fail-on', 'warning', profile]);
		expect(text.code).toBe(1);
		expect(text.stdout).toMatch(/3:46 +warning +"sms_bodyy" in scenario "Hi"/);
		expect(text.stdout).toContain(`in ${path.relative(ROOT, scenarios)} · sms_bodyy · with "Hi"`);
		const render = await run(['render', profile, '--service', 'sendMessage']);
		expect(render.code).toBe(0);
		expect(render.stderr).toContain(
			`warning: ${path.relative(ROOT, scenarios)}:3:46: "sms_bodyy" in scenario "Hi"`
		);
	});
});

describe('scenario files', () => {
	it('a missing scenario file: exit code 3 naming it, for check and render', async () => {
		const missing = path.join(work.dir, 'no-such.scenarios.json');
		const check = await checkJson(['--scenarios', missing, fixture('clean/acme.xml')]);
		expect(check.code).toBe(3);
		expect(check.report.files[0].findings[0]).toMatchObject({
			file: missing,
			message: 'No such file or directory.'
		});
		const render = await run([
			'render',
			fixture('clean/acme.xml'),
			'--service',
			'sendMessage',
			'--scenarios',
			missing
		]);
		expect(render.code).toBe(3);
		// Named relative to the working directory, as every path the program prints.
		expect(render.stderr).toBe(
			`provisioning-studio: ${path.relative(ROOT, missing)}: No such file or directory.\n`
		);
	});

	it('a value of the wrong type: exit code 3, placed on it, saying what a value may be', async () => {
		const scenarios = file(
			'types.scenarios.json',
			'{\n\t"scenarios": [\n\t\t{ "name": "A", "values": { "sms_to": 447911000000 } }\n\t]\n}\n'
		);
		const result = await run([
			'render',
			fixture('clean/acme.xml'),
			'--service',
			'sendMessage',
			'--scenarios',
			scenarios
		]);
		expect(result.code).toBe(3);
		expect(result.stderr).toContain(
			`${shown(scenarios)}:3:30: Not a scenario file (scenarios.0.values.sms_to: a value is text, a list of texts`
		);
	});
});

describe('directories', () => {
	it('a directory with no profiles (only other JSON and scenario files): exit code 3 with its path', async () => {
		const dir = path.join(work.dir, 'no-profiles');
		file('no-profiles/package.json', '{"name": "x"}');
		file('no-profiles/acme.scenarios.json', '{"scenarios": [{"name": "A", "values": {}}]}');
		file('no-profiles/notes/README.md', '# notes');
		const { code, report } = await checkJson([dir]);
		expect(code).toBe(3);
		expect(report.files[0]).toMatchObject({ file: dir, unreadable: true });
		expect(report.files[0].findings[0].message).toMatch(
			/^No profiles in this directory: expected \.xml files/
		);
		const text = await run(['check', dir]);
		expect(text.stdout).toContain(shown(dir));
		expect(text.stdout).toContain('No profiles in this directory');
	});

	it('render and export take a file: a directory is exit code 3, saying so', async () => {
		const dir = fixture('clean');
		for (const args of [
			['render', dir, '--service', 'sendMessage'],
			['export', dir, '--form', 'account']
		]) {
			const result = await run(args);
			expect(result.code, args.join(' ')).toBe(3);
			expect(result.stderr).toBe(
				`provisioning-studio: ${dir}: Is a directory, not a file (only check reads directories of profiles).\n`
			);
		}
	});
});
