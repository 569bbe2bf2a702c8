import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readBySecondParser } from '../helpers/xml';
import { ensureBuilt, run, tempDir } from './helpers';

beforeAll(async () => {
	await ensureBuilt();
});

describe('check --gallery', () => {
	it('checks every annotated template, with what the platform makes of its answers', async () => {
		const result = await run(['check', '--gallery', '--reporter', 'json']);
		expect(result.code).toBe(0);
		const report = JSON.parse(result.stdout);
		expect(report.files.length).toBeGreaterThanOrEqual(8);
		for (const file of report.files) {
			expect(file.file).toMatch(/^gallery\/[a-z0-9-]+\.xml$/);
			expect(file.renderings.length).toBeGreaterThan(0);
			expect(file.findings.some((f: { code: string }) => f.code === 'gallery_note')).toBe(true);
			expect(file.findings.filter((f: { severity: string }) => f.severity === 'error')).toEqual([]);
		}
		const flag = report.files.find(
			(f: { file: string }) => f.file === 'gallery/error-flag-http-200.xml'
		);
		expect(flag.findings).toContainEqual(
			expect.objectContaining({
				code: 'gallery_answer_misread',
				severity: 'warning',
				message: expect.stringContaining('reports an error with HTTP 200')
			})
		);
		const query = report.files.find(
			(f: { file: string }) => f.file === 'gallery/get-query-credentials.xml'
		);
		expect(query.findings.map((f: { code: string }) => f.code)).toContain('secret_in_url');
	});

	it('export --gallery writes a starting point that check reads', async () => {
		const { dir, remove } = tempDir();
		try {
			const exported = await run(['export', '--gallery', 'own-account-keys', '--form', 'account']);
			expect(exported.code).toBe(0);
			readBySecondParser(exported.stdout);
			expect(exported.stdout).toContain('<apiUser>acme-bridge</apiUser>');
			expect(exported.stdout).toContain('"key": "%account[apiKey]%"');
			const file = path.join(dir, 'start.xml');
			writeFileSync(file, exported.stdout);
			const checked = await run(['check', '--fail-on', 'warning', file]);
			expect(checked.code).toBe(0);
			const unknown = await run(['export', '--gallery', 'nope', '--form', 'account']);
			expect(unknown.code).toBe(2);
			expect(unknown.stderr).toContain('No gallery template "nope"; there are: json-sms-id,');
			const both = await run(['check', '--gallery', file]);
			expect(both.code).toBe(2);
		} finally {
			remove();
		}
	});
});
