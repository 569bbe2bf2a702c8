import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, run, tempDir } from './helpers';

/** The provider's own account keys: declared by the profile's account XML, known to `check`. */

let work: { dir: string; remove: () => void };

beforeAll(async () => {
	await ensureBuilt();
	work = tempDir();
});

afterAll(() => work.remove());

function profile(name: string, declared: string): string {
	const file = path.join(work.dir, `${name}.xml`);
	writeFileSync(
		file,
		'<account>\n' +
			declared +
			'<genericSmsSendUrl>https://api.example.com/sms</genericSmsSendUrl>\n' +
			'<genericSmsSendPostData>{"user": "%account[apiUser]%", "to": "%sms_to%"}</genericSmsSendPostData>\n' +
			'<genericSmsSendContentType>application/json</genericSmsSendContentType>\n' +
			'</account>\n'
	);
	return file;
}

describe('check: custom account keys', () => {
	it('flags %account[apiUser]% while the profile does not declare it', async () => {
		const result = await run(['check', '--fail-on', 'warning', profile('undeclared', '')]);
		expect(result.code).toBe(1);
		expect(result.stdout).toMatch(/%account\[apiUser\]%/);
	});

	it('knows it, and fills its value, once the account XML declares <apiUser>', async () => {
		const file = profile('declared', '<apiUser>acme-bridge</apiUser>\n');
		const result = await run(['check', '--fail-on', 'warning', file]);
		expect(result.stdout).not.toMatch(/warning .*apiUser/);
		expect(result.code).toBe(0);
		const rendered = await run(['render', file, '--service', 'sendMessage']);
		expect(rendered.stdout).toContain('"user": "acme-bridge"');
	});
});
