import { ACCOUNT_XML, templateKeys } from './keys';
import type { ConfigKey, Service, Source } from './schema';
import { BY_COMMON_RULE, FORM, INTRO_RULES, numberKey } from './services-beyond';
import { variable } from './variables';

/**
 * Web Service Contacts: the app downloads a contact list from the provider and refreshes it
 * periodically, with HTTP Digest credentials of its own when they are set.
 */

const CONTACTS_DOC: Source = { kind: 'docs', ref: 'api/client/web_contacts' };
const CONDITIONAL: Source = {
	kind: 'providers',
	ref: 'Last-Modified / If-Modified-Since and 304, as providers implement the refresh'
};

/** A setting read as it is (not a template), with the documentation as its source. */
function plainKey(key: string, role: ConfigKey['role'], label: string, description: string) {
	return { key, role, label, location: ACCOUNT_XML, description, source: CONTACTS_DOC };
}

/** Web Service Contacts: the contact list the app downloads and keeps refreshed. */
export const webServiceContacts: Service = {
	id: 'webServiceContacts',
	title: 'Web Service Contacts',
	caller: 'app',
	kind: 'template',
	purpose:
		'Downloads the contact list the app shows beside the phone’s own contacts, and refreshes it periodically.',
	keys: [
		...templateKeys('wsContacts', ACCOUNT_XML, FORM, CONTACTS_DOC),
		{
			...plainKey('wsContactsMethod', 'method', 'Method', 'GET or POST; GET when empty.'),
			description:
				'GET or POST. Empty: GET, or POST when the post data is filled in (the common rule).'
		},
		plainKey(
			'wsContactsAuthUsername',
			'authUsername',
			'Digest user name',
			'When set, the app answers a 401 Digest challenge (RFC 7616) with it, once.'
		),
		plainKey(
			'wsContactsAuthPassword',
			'authPassword',
			'Digest password',
			'The password of the Digest answer: stored sealed, never shown again.'
		),
		plainKey(
			'wsContactsXPath',
			'xpath',
			'XPath',
			'Where the contacts are in an XML answer; not used for JSON.'
		),
		numberKey(
			'wsContactsRefresh',
			'Refresh (s)',
			'180',
			'Seconds between two refreshes; 180 when empty.',
			{ kind: 'providers', ref: 'the refresh key providers configure' }
		)
	],
	deprecatedKeys: [],
	variables: [
		variable({
			name: 'lastModified',
			scope: 'service',
			meaning:
				'Not for templates: the Last-Modified of the last answer, which the app sends as If-Modified-Since; empty at the first refresh.',
			sample: '',
			source: CONDITIONAL
		})
	],
	appHeaders: [{ name: 'If-Modified-Since', from: 'lastModified' }],
	...BY_COMMON_RULE,
	method: { kind: 'configurable', methods: ['GET', 'POST'], bodyIgnoredFor: ['GET'] },
	responseBody: 'contacts',
	source: CONTACTS_DOC,
	ruleSources: {
		...INTRO_RULES,
		method: CONTACTS_DOC,
		failure: { kind: 'inference', ref: 'the app keeps the contacts it has until the next refresh' },
		responseBody: CONTACTS_DOC
	},
	remarks: [
		{
			text: 'JSON {"contacts": [{contactId, displayName, fname, lname, company, contactEntries: [{entryId, label, type, uri}], contactAddresses}]}; type is tel, email or url.',
			source: CONTACTS_DOC
		},
		{
			text: 'An XML answer is read through wsContactsXPath.',
			source: CONTACTS_DOC
		},
		{
			text: 'Send Last-Modified and answer 304 Not Modified to the next If-Modified-Since: the app then keeps its list instead of downloading it again.',
			source: CONDITIONAL
		},
		{
			text: 'With a Digest user name, a 401 challenge is answered once (MD5 or SHA-256, qop auth), to the same URL only.',
			source: CONTACTS_DOC
		}
	]
};
