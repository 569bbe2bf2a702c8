import { describe, expect, it } from 'vitest';
import { readContactsAnswer } from './contacts';

const JSON_H = { 'Content-Type': 'application/json' };
const DATED = { ...JSON_H, 'Last-Modified': 'Wed, 21 Oct 2015 07:28:00 GMT' };

function contact(id: unknown, entries: unknown[] = [], extra: Record<string, unknown> = {}) {
	return { contactId: id, displayName: `Person ${String(id)}`, contactEntries: entries, ...extra };
}
const entry = (entryId: unknown, type: string, uri: string) => ({ entryId, label: 'x', type, uri });

const read = (value: unknown, headers: Record<string, string> = DATED, status = 200) =>
	readContactsAnswer({
		status,
		headers,
		body: typeof value === 'string' ? value : JSON.stringify(value)
	});
const codes = (reading: ReturnType<typeof read>) => reading.issues.map((i) => i.code);

describe('readContactsAnswer', () => {
	it('says one contact in the singular', () => {
		const reading = read({ contacts: [contact('1', [entry('a', 'tel', 'tel:+15551231234')])] });
		expect(reading.verdict).toBe(
			'The app replaces its web service contacts with the answer’s 1 contact (1 entry).'
		);
	});

	it('counts valid contacts and entries of every type', () => {
		const reading = read({
			contacts: [
				contact('1', [
					entry('a', 'tel', 'tel:+15551231234'),
					entry('b', 'tel', '+1 (555) 123-1234'),
					entry('c', 'email', 'ann@example.com'),
					entry('d', 'url', 'https://example.com/ann')
				]),
				contact(2, [entry('a', 'email', 'mailto:bob@example.org')], { contactAddresses: [] })
			]
		});
		expect(reading).toMatchObject({ outcome: 'replaced', contacts: 2, entries: 5 });
		expect(reading.verdict).toBe(
			'The app replaces its web service contacts with the answer’s 2 contacts (5 entries).'
		);
		expect(reading.issues).toEqual([
			expect.objectContaining({ code: 'contacts_last_modified', severity: 'info' })
		]);
	});

	it('names missing and repeated ids with their JSON paths', () => {
		const reading = read({
			contacts: [
				contact('7', [entry('a', 'tel', '+1555'), entry('a', 'tel', '+1556')]),
				contact('7'),
				contact(undefined)
			]
		});
		expect(reading.issues.filter((i) => i.severity === 'error')).toEqual([
			expect.objectContaining({
				code: 'entry_id_repeated',
				at: '$.contacts[0].contactEntries[1].entryId'
			}),
			expect.objectContaining({ code: 'contact_id_repeated', at: '$.contacts[1].contactId' }),
			expect.objectContaining({ code: 'contact_id_missing', at: '$.contacts[2]' })
		]);
		expect(reading.issues[1].message).toContain('$.contacts[0]');
	});

	it('checks each entry type and its URI', () => {
		const reading = read({
			contacts: [
				contact('1', [
					entry('a', 'fax', '+1555'),
					entry('b', 'tel', 'call me'),
					entry('c', 'email', 'not an address'),
					entry('d', 'url', 'javascript:alert(1)'),
					{ entryId: 'e', type: 'url' }
				])
			]
		});
		const at = (code: string) => reading.issues.find((i) => i.code === code);
		expect(at('entry_type_unknown')).toMatchObject({ severity: 'error', source: { kind: 'docs' } });
		expect(at('entry_uri_not_tel')).toMatchObject({
			severity: 'warning',
			at: '$.contacts[0].contactEntries[1].uri'
		});
		expect(at('entry_uri_not_email')?.severity).toBe('warning');
		expect(at('entry_uri_not_url')?.message).toContain('http(s)');
		expect(at('entry_uri_missing')).toMatchObject({ at: '$.contacts[0].contactEntries[4]' });
	});

	it('understands 304 Not Modified as “keep what you have”', () => {
		const reading = read('', {}, 304);
		expect(reading.outcome).toBe('unchanged');
		expect(reading.verdict).toContain('keeps the contacts it has');
		expect(reading.issues).toEqual([]);
	});

	it('notes a 200 without Last-Modified: everything is downloaded every refresh', () => {
		const reading = read({ contacts: [contact('1')] }, JSON_H);
		expect(reading.issues[0]).toMatchObject({
			code: 'contacts_no_last_modified',
			severity: 'info',
			source: { kind: 'providers' }
		});
		expect(reading.issues[0].message).toContain('every refresh');
		const bad = read({ contacts: [] }, { ...JSON_H, 'Last-Modified': 'yesterday' });
		expect(bad.issues.map((i) => i.code)).toEqual([
			'contacts_empty',
			'contacts_last_modified_invalid'
		]);
		expect(bad.issues[1]).toMatchObject({
			code: 'contacts_last_modified_invalid',
			at: 'Last-Modified'
		});
	});

	it('keeps the contacts it has for a non-2xx, HTML, or an answer without contacts', () => {
		expect(read('', {}, 500).outcome).toBe('kept');
		const html = read('<!DOCTYPE html><html></html>', { 'Content-Type': 'text/html' });
		expect(html.outcome).toBe('kept');
		expect(codes(html)).toEqual(['answer_html']);
		const wrong = read({ people: [] });
		expect(wrong.outcome).toBe('kept');
		expect(wrong.issues[0]).toMatchObject({ code: 'contacts_list_missing', at: '$.contacts' });
	});

	it('does not check an XML answer, which the app reads through wsContactsXPath', () => {
		const reading = read('<contacts/>', { 'Content-Type': 'application/xml' });
		expect(reading.outcome).toBe('unchecked');
		expect(codes(reading)).toContain('contacts_xml_not_checked');
	});

	it('reads 10,000 contacts of a 1 MB answer in one pass, listing 20 issues of a kind', () => {
		const contacts = Array.from({ length: 10_000 }, (_, i) =>
			contact(String(i % 5000), [entry('a', 'tel', '+1555' + i)])
		);
		const body = JSON.stringify({ contacts });
		expect(body.length).toBeGreaterThan(1000 * 1000);
		const reading = read(body);
		expect(reading.contacts).toBe(10_000);
		const repeated = reading.issues.filter((i) => i.code === 'contact_id_repeated');
		expect(repeated).toHaveLength(20);
		expect(repeated[19].message).toContain('4,980 more like it follow');
	});

	it('warns about a 1,000-character id and a 100 KB name', () => {
		const reading = read({
			contacts: [contact('i'.repeat(1000), [], { displayName: 'n'.repeat(100 * 1024) })]
		});
		expect(reading.issues.filter((i) => i.code === 'value_too_long').map((i) => i.at)).toEqual([
			'$.contacts[0].contactId',
			'$.contacts[0].displayName'
		]);
	});
});
