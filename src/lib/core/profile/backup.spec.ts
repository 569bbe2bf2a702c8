import { describe, expect, it } from 'vitest';
import { makeBackup, parseBackup } from './backup';
import { ProfileDocumentSchema } from './schema';

const document = ProfileDocumentSchema.parse({
	services: { sendMessage: { genericSmsSendUrl: 'https://sms.example.com/send?to=%sms_to%' } }
});
const backup = makeBackup(
	{ id: 'p-1', name: 'Provider', revision: 3 },
	document,
	'left_out',
	new Date('2026-01-02T03:04:05Z')
);

describe('parseBackup', () => {
	it('reads its own backups back whole, with nothing to say', () => {
		const read = parseBackup(JSON.stringify(backup, null, '\t'));
		expect(read).toEqual({ ok: true, value: backup, issues: [] });
	});

	it.each([
		[
			'fetchMessages',
			{ genericSmsFetchUrl: 'https://sms.example.com/fetch?last=%last_known_sms_id%' }
		],
		[
			'initialProvisioning',
			{ InitialProvisioningUrl: 'https://prov.example.com/i', InitialProvisioningMethod: 'POST' }
		]
	])('keeps the settings of a service beyond the contract (%s)', (service, settings) => {
		const document = ProfileDocumentSchema.parse({ services: { [service]: settings } });
		const made = makeBackup(
			{ id: 'p-2', name: 'Beyond', revision: 1 },
			document,
			'left_out',
			new Date('2026-01-02T03:04:05Z')
		);
		const read = parseBackup(JSON.stringify(made));
		expect(read.issues).toEqual([]);
		expect(read.ok && (read.value.document.services as Record<string, unknown>)[service]).toEqual(
			settings
		);
	});

	it('names every key it leaves out, with its path and place, as a warning', () => {
		const text = JSON.stringify(
			{
				...backup,
				comment: 'made by hand',
				document: {
					...backup.document,
					scenarioz: [],
					push: { ...backup.document.push, gatewayURL: 'https://push.example.com' }
				}
			},
			null,
			2
		);
		const read = parseBackup(text);
		expect(read.ok).toBe(true);
		// In the order they stand in the text.
		expect(read.issues.map((i) => [i.code, i.severity, i.field])).toEqual([
			['backup_unknown_key', 'warning', 'gatewayURL'],
			['backup_unknown_key', 'warning', 'scenarioz'],
			['backup_unknown_key', 'warning', 'comment']
		]);
		const [gateway, scenarioz] = read.issues;
		expect(scenarioz.message).toMatch(
			/^document\.scenarioz is not part of a profile backup and is left out \(line \d+, column 5\)\.$/
		);
		expect(text.slice(scenarioz.from, scenarioz.to)).toBe('"scenarioz"');
		expect(gateway.message).toContain('document.push.gatewayURL');
		expect(text.slice(gateway.from, gateway.to)).toBe('"gatewayURL"');
	});

	it('places a left-out key where it is a key, not where the same word is a value', () => {
		const text = JSON.stringify({ ...backup, note: 'extra', extra: 1 });
		const read = parseBackup(text);
		const extra = read.issues.find((i) => i.field === 'extra')!;
		expect(text.slice(extra.from!, extra.to! + 1)).toBe('"extra":');
	});

	it('counts what it does not name', () => {
		const many = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${i}`, i]));
		const read = parseBackup(JSON.stringify({ ...backup, ...many }));
		expect(read.issues).toHaveLength(21);
		expect(read.issues[20].message).toBe(
			'5 more keys are not part of a profile backup and are left out.'
		);
	});
});
