import { DOMParser, type Element } from '@xmldom/xmldom';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseXml } from '../../src/lib/core/xml/parse';
import { ensureBuilt, fixture, run, tempDir } from './helpers';

beforeAll(async () => {
	await ensureBuilt();
});

const INPUTS = [fixture('findings/bad.xml'), fixture('broken'), fixture('clean/acme.xml')];

function elements(parent: Element, name: string): Element[] {
	return Array.from(parent.childNodes).filter(
		(n): n is Element => n.nodeType === 1 && (n as Element).tagName === name
	);
}

describe('JUnit XML', () => {
	it('is well-formed and has the structure of the JUnit schema (Ant/Jenkins junit-4.xsd)', async () => {
		const result = await run(['check', '--reporter', 'junit', ...INPUTS]);
		expect(result.code).toBe(3);
		// Well-formed XML 1.0, by the product's own strict reader.
		const strict = parseXml(result.stdout);
		expect(strict.ok).toBe(true);
		const doc = new DOMParser().parseFromString(result.stdout, 'text/xml');
		const root = doc.documentElement!;
		expect(root.tagName).toBe('testsuites');
		const suites = elements(root, 'testsuite');
		expect(suites.map((s) => s.getAttribute('name'))).toEqual([
			'tests/cli/fixtures/findings/bad.xml',
			'tests/cli/fixtures/broken/bad-ampersand.xml',
			'tests/cli/fixtures/clean/acme.xml'
		]);
		let total = 0;
		let failures = 0;
		let errors = 0;
		for (const suite of suites) {
			const cases = elements(suite, 'testcase');
			// Required attributes, and counts that agree with the content.
			expect(Number(suite.getAttribute('tests'))).toBe(cases.length);
			const failed = cases.filter((c) => elements(c, 'failure').length > 0).length;
			const errored = cases.filter((c) => elements(c, 'error').length > 0).length;
			expect(Number(suite.getAttribute('failures'))).toBe(failed);
			expect(Number(suite.getAttribute('errors'))).toBe(errored);
			expect(suite.getAttribute('skipped')).toBe('0');
			for (const testCase of cases) {
				expect(testCase.getAttribute('name')).not.toBe('');
				expect(testCase.getAttribute('classname')).toBe(suite.getAttribute('name'));
				for (const child of Array.from(testCase.childNodes).filter((n) => n.nodeType === 1)) {
					expect(['failure', 'error', 'system-out']).toContain((child as Element).tagName);
				}
				for (const f of [...elements(testCase, 'failure'), ...elements(testCase, 'error')]) {
					expect(f.getAttribute('message')).not.toBe('');
					expect(f.getAttribute('type')).not.toBe('');
				}
			}
			total += cases.length;
			failures += failed;
			errors += errored;
		}
		expect(Number(root.getAttribute('tests'))).toBe(total);
		expect(Number(root.getAttribute('failures'))).toBe(failures);
		expect(Number(root.getAttribute('errors'))).toBe(errors);
		// The misspelt key fails reading bad.xml; the unreadable file is an error; acme.xml passes.
		const [bad, broken, clean] = suites;
		const read = elements(bad, 'testcase').find((c) => c.getAttribute('name') === 'read')!;
		expect(elements(read, 'failure')[0].getAttribute('type')).toBe('unknown_key');
		expect(elements(read, 'failure')[0].textContent).toContain('bad.xml:3:2 error unknown_key');
		expect(elements(elements(broken, 'testcase')[0], 'error')[0].getAttribute('type')).toBe(
			'unreadable_input'
		);
		expect(clean.getAttribute('failures')).toBe('0');
		expect(elements(clean, 'testcase').map((c) => c.getAttribute('name'))).toEqual([
			'read',
			'lint sendMessage',
			'render sendMessage with "Hello"',
			'render sendMessage with "Two recipients"',
			'lint pushTokenReporter',
			'render pushTokenReporter with "Samples"'
		]);
	});
});

/**
 * The properties SARIF 2.1.0 requires (OASIS SARIF v2.1.0, §3.13 sarifLog, §3.14 run, §3.18
 * tool, §3.19 toolComponent, §3.27 result, §3.11 message, §3.28 location, §3.29
 * physicalLocation, §3.30 region), plus what code scanning needs to place an alert.
 */
const Region = z.object({
	startLine: z.number().int().min(1),
	startColumn: z.number().int().min(1)
});
const SarifSchema = z.object({
	$schema: z.string().url().optional(),
	version: z.literal('2.1.0'),
	runs: z
		.array(
			z.object({
				tool: z.object({
					driver: z.object({
						name: z.string().min(1),
						version: z.string().optional(),
						rules: z
							.array(
								z.object({
									id: z.string().min(1),
									shortDescription: z.object({ text: z.string() }).optional()
								})
							)
							.optional()
					})
				}),
				results: z.array(
					z.object({
						ruleId: z.string().min(1),
						ruleIndex: z.number().int().min(0),
						level: z.enum(['none', 'note', 'warning', 'error']),
						message: z.object({ text: z.string().min(1) }),
						locations: z
							.array(
								z.object({
									physicalLocation: z.object({
										artifactLocation: z.object({ uri: z.string().min(1) }),
										region: Region.optional()
									})
								})
							)
							.min(1)
					})
				)
			})
		)
		.length(1)
});

describe('SARIF', () => {
	it('has every property SARIF 2.1.0 requires, rules that match the results, and places', async () => {
		const { dir, remove } = tempDir();
		try {
			const out = path.join(dir, 'check.sarif');
			const result = await run(['check', '--reporter', 'sarif', '--output', out, ...INPUTS]);
			expect(result.code).toBe(3);
			// With --output, a text summary still goes to the log.
			expect(result.stdout).toContain('errors');
			const sarif = SarifSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
			const run0 = sarif.runs[0];
			expect(run0.tool.driver.name).toBe('provisioning-studio');
			const rules = run0.tool.driver.rules!;
			for (const r of run0.results) expect(rules[r.ruleIndex].id).toBe(r.ruleId);
			const typo = run0.results.find((r) => r.ruleId === 'unknown_key')!;
			expect(typo.level).toBe('error');
			expect(typo.locations[0].physicalLocation).toEqual({
				artifactLocation: { uri: 'tests/cli/fixtures/findings/bad.xml' },
				region: { startLine: 3, startColumn: 2 }
			});
			const unknown = run0.results.find((r) => r.ruleId === 'unknown_variable')!;
			expect(unknown.level).toBe('warning');
			expect(unknown.locations[0].physicalLocation.region).toEqual({
				startLine: 2,
				startColumn: 110
			});
			expect(run0.results.find((r) => r.ruleId === 'xml_account_values')!.level).toBe('note');
		} finally {
			remove();
		}
	});
});

describe('GitHub annotations', () => {
	it('puts each finding on its file and line, escaped as workflow commands require', async () => {
		const result = await run(['check', '--reporter', 'github', fixture('findings/bad.xml')]);
		expect(result.code).toBe(1);
		const lines = result.stdout.trim().split('\n');
		expect(lines.every((l) => /^::(error|warning|notice) file=[^:]+::/.test(l))).toBe(true);
		expect(lines).toContain(
			'::warning file=tests/cli/fixtures/findings/bad.xml,line=2,col=110,title=unknown_variable · Send Message · URL (genericSmsSendUrl)::%25sms_too%25 is not known to Send Message. It is sent as written unless a value is given. Did you mean %25sms_to%25?'
		);
		expect(
			lines.some((l) =>
				l.startsWith('::error file=tests/cli/fixtures/findings/bad.xml,line=3,col=2,')
			)
		).toBe(true);
	});
});

describe('JSON', () => {
	it('is the whole report as data, with the exit code', async () => {
		const result = await run(['check', '--reporter', 'json', fixture('clean/acme.xml')]);
		const report = JSON.parse(result.stdout);
		expect(report.exitCode).toBe(0);
		expect(report.files[0].kind).toBe('provisioning');
		expect(report.files[0].renderings).toHaveLength(3);
		expect(report.files[0].renderings[0]).toMatchObject({
			service: 'sendMessage',
			scenario: 'Hello',
			requests: [
				{ method: 'POST', url: 'https://sms.example.com/send?from=alice&to=%2B447911000000' }
			]
		});
	});
});
