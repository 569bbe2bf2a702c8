import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readBySecondParser } from '../helpers/xml';
import { ensureBuilt, fixture, run, tempDir } from './helpers';

beforeAll(async () => {
	await ensureBuilt();
});

describe('render', () => {
	it('prints the exact request of one service and scenario', async () => {
		const result = await run([
			'render',
			fixture('clean/acme.xml'),
			'--service',
			'sendMessage',
			'--scenario',
			'Hello'
		]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe(
			'POST https://sms.example.com/send?from=alice&to=%2B447911000000\n' +
				'Content-Type: application/json\n\n' +
				'{"to": "+447911000000", "body": "Hello & welcome", "password": "••••••••"}'
		);
	});

	it('prints one cURL command per request (one per recipient)', async () => {
		const result = await run([
			'render',
			fixture('clean/acme.xml'),
			'--service',
			'sendMessage',
			'--scenario',
			'Two recipients',
			'--curl'
		]);
		expect(result.code).toBe(0);
		const lines = result.stdout.trim().split('\n');
		expect(lines).toHaveLength(2);
		expect(lines[1]).toMatch(
			/^curl --globoff -X POST 'https:\/\/sms\.example\.com\/send\?from=alice&to=5551234567' -H 'Content-Type: application\/json' --data-binary '\{"to": "5551234567", /
		);
	});

	it('says what is wrong with the service or scenario asked for', async () => {
		const scenario = await run([
			'render',
			fixture('clean/acme.xml'),
			'--service',
			'sendMessage',
			'--scenario',
			'Nope'
		]);
		expect(scenario.code).toBe(2);
		expect(scenario.stderr).toContain('No scenario "Nope"');
		expect(scenario.stderr).toContain('"Hello", "Two recipients"');
		const service = await run(['render', fixture('clean/acme.xml'), '--service', 'mediaRefSend']);
		expect(service.code).toBe(2);
		expect(service.stderr).toContain(
			'does not configure mediaRefSend; it configures sendMessage, pushTokenReporter'
		);
		const unknown = await run(['render', fixture('clean/acme.xml'), '--service', 'sendSms']);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toContain('"sendSms" is not a service');
		const broken = await run([
			'render',
			fixture('broken/bad-ampersand.xml'),
			'--service',
			'sendMessage'
		]);
		expect(broken.code).toBe(3);
		expect(broken.stderr).toContain(
			'tests/cli/fixtures/broken/bad-ampersand.xml:2:47: Not well-formed XML'
		);
	});

	it('writes the lint findings of the request to stderr', async () => {
		const result = await run(['render', fixture('findings/bad.xml'), '--service', 'sendMessage']);
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(
			/^GET http:\/\/sms\.example\.com\/send\?user=alice&pass=\*\*\*\*&to=%sms_too%/
		);
		expect(result.stderr).toContain(
			'warning: genericSmsSendUrl: %sms_too% is not known to Send Message'
		);
	});
});

describe('export', () => {
	it('writes a backup as either XML form, which check reads back to the same requests', async () => {
		const { dir, remove } = tempDir();
		try {
			const xml = path.join(dir, 'acme.xml');
			const result = await run([
				'export',
				fixture('backup/acme-backup.json'),
				'--form',
				'provisioning',
				'--output',
				xml
			]);
			expect(result.code).toBe(0);
			const text = readFileSync(xml, 'utf8');
			readBySecondParser(text);
			expect(text).toContain('<provisioning>\n\t<account>\n\t\t<core>');
			expect(text).toContain(
				'<genericSmsSendUrl>https://sms.example.com/send?to=%sms_too%</genericSmsSendUrl>'
			);
			const account = await run([
				'export',
				fixture('backup/acme-backup.json'),
				'--form',
				'account'
			]);
			expect(account.code).toBe(0);
			expect(readBySecondParser(account.stdout).documentElement.tagName).toBe('account');
			expect(account.stdout).toMatch(
				/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<account>\n\t<genericSmsSendUrl>/
			);
			// The same scenarios as the backup: same requests from the backup and from its export.
			writeFileSync(
				path.join(dir, 'acme.scenarios.json'),
				JSON.stringify({ scenarios: [{ name: 'Hello', values: { sms_body: 'Hello' } }] })
			);
			const fromXml = JSON.parse((await run(['check', '--reporter', 'json', xml])).stdout);
			const fromBackup = JSON.parse(
				(await run(['check', '--reporter', 'json', fixture('backup/acme-backup.json')])).stdout
			);
			const requests = (r: { files: { renderings: { requests: unknown[] }[] }[] }) =>
				r.files[0].renderings.map((x) => x.requests);
			expect(requests(fromXml)).toEqual(requests(fromBackup));
		} finally {
			remove();
		}
	});

	it('needs a form', async () => {
		const result = await run(['export', fixture('backup/acme-backup.json')]);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('export needs --form provisioning or --form account');
	});
});
