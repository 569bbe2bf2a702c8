import { describe, expect, it } from 'vitest';
import { buildRequests } from '../request';
import { interpretResponse } from '../response';
import { ServiceSchema } from './schema';
import { getService } from './services';
import { sourceOf } from './sources';
import { isXmlKey } from './placement';

const contacts = getService('webServiceContacts');
const JSON_TYPE = { 'content-type': 'application/json' };
const LIST = JSON.stringify({
	contacts: [
		{
			contactId: 'c1',
			displayName: 'Alice',
			contactEntries: [
				{ entryId: 'e1', label: 'work', type: 'tel', uri: 'tel:+15551231234' },
				{ entryId: 'e2', label: 'mail', type: 'email', uri: 'alice@example.com' }
			]
		},
		{ contactId: 'c2', fname: 'Bob', contactEntries: [] }
	]
});

describe('Web Service Contacts in the catalogue', () => {
	it('has its keys, each with its source, in the account XML', () => {
		expect(ServiceSchema.parse(contacts)).toEqual(contacts);
		expect(contacts.keys.map((k) => [k.key, k.role, sourceOf(k).kind, k.default ?? null])).toEqual([
			['wsContactsUrl', 'url', 'docs', null],
			['wsContactsPostData', 'postData', 'docs', null],
			['wsContactsContentType', 'contentType', 'docs', null],
			['wsContactsMethod', 'method', 'docs', null],
			['wsContactsAuthUsername', 'authUsername', 'docs', null],
			['wsContactsAuthPassword', 'authPassword', 'docs', null],
			['wsContactsXPath', 'xpath', 'docs', null],
			['wsContactsRefresh', 'number', 'providers', '180']
		]);
		for (const key of contacts.keys) expect(isXmlKey(contacts, key.key)).toBe(true);
	});

	it('is GET unless the method or the post data says POST', () => {
		const method = (settings: Record<string, string>) =>
			buildRequests({
				service: contacts,
				settings: { wsContactsUrl: 'https://c.example.com/contacts', ...settings },
				values: {}
			}).requests[0].method;
		expect(method({})).toBe('GET');
		expect(method({ wsContactsPostData: 'user=%account[username]%' })).toBe('POST');
		expect(method({ wsContactsMethod: 'POST' })).toBe('POST');
	});

	it('sends If-Modified-Since only when the last answer had a Last-Modified', () => {
		const headers = (lastModified: string) =>
			buildRequests({
				service: contacts,
				settings: { wsContactsUrl: 'https://c.example.com/contacts' },
				values: { lastModified }
			}).requests[0].headers;
		expect(headers('')).toEqual([]);
		expect(headers('Wed, 21 Oct 2015 07:28:00 GMT')).toEqual([
			{ name: 'If-Modified-Since', value: 'Wed, 21 Oct 2015 07:28:00 GMT' }
		]);
		expect(headers('x\r\nX-Evil: 1')).toEqual([]);
	});

	it('reads the list: how many contacts and entries the app shows, and Last-Modified', () => {
		const result = interpretResponse('webServiceContacts', {
			status: 200,
			headers: { ...JSON_TYPE, 'last-modified': 'Wed, 21 Oct 2015 07:28:00 GMT' },
			body: LIST
		});
		expect(result.success).toBe(true);
		expect(result.action).toMatchObject({
			kind: 'contacts',
			result: {
				outcome: 'replaced',
				contacts: 2,
				entries: 2,
				lastModified: 'Wed, 21 Oct 2015 07:28:00 GMT'
			}
		});
		expect(result.summary).toBe(
			'The app replaces its web service contacts with the answer’s 2 contacts (2 entries).'
		);
		expect(result.issues.map((i) => i.code)).toEqual(['contacts_last_modified']);
	});

	it('understands 304 as nothing changed, and keeps the list on a failure', () => {
		const unchanged = interpretResponse('webServiceContacts', {
			status: 304,
			headers: {},
			body: ''
		});
		expect(unchanged.success).toBe(true);
		expect(unchanged.action).toMatchObject({ kind: 'contacts', result: { outcome: 'unchanged' } });
		const failed = interpretResponse('webServiceContacts', {
			status: 500,
			headers: {},
			body: ''
		});
		expect(failed.success).toBe(false);
		expect(failed.summary).toMatch(/keeps the contacts it has/);
	});

	it('names duplicate ids and bad entries with their JSON path', () => {
		const body = JSON.stringify({
			contacts: [
				{
					contactId: 'c1',
					displayName: 'A',
					contactEntries: [{ entryId: 'e', type: 'fax', uri: '1' }]
				},
				{ contactId: 'c1', displayName: 'B' }
			]
		});
		const result = interpretResponse('webServiceContacts', {
			status: 200,
			headers: JSON_TYPE,
			body
		});
		const messages = result.issues.map((i) => `${i.code} ${i.message}`);
		expect(messages).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/^entry_type_unknown .*\$\.contacts\[0\]\.contactEntries\[0\]\.type/),
				expect.stringMatching(/^contact_id_repeated .*\$\.contacts\[1\]\.contactId/)
			])
		);
	});
});
