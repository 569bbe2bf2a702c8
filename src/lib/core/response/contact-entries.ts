import type { Severity } from '../issues';
import {
	INFERRED,
	longText,
	objectOf,
	own,
	quoted,
	ruleIssue,
	type ReaderIssue,
	type RuleSource
} from './answer';

/**
 * The checks of one contact of a Web Service Contacts answer: its id, its names, and each entry
 * (`tel`, `email` or `url`) with a URI of that kind. Ids are the documentation's; which URIs an
 * entry's kind takes is inferred from what the app does with it (dial, write, open).
 */

/** The documentation of Web Service Contacts. */
export const CONTACTS_DOCS: RuleSource = { kind: 'docs', ref: 'api/client/web_contacts' };

/** Where the checks put what they find, bounded per kind by the caller. */
export type Report = (code: string, make: () => ReaderIssue) => void;

/** Reports an issue of a rule (made only when its kind has not had its share). */
function flag(
	report: Report,
	source: RuleSource,
	code: string,
	severity: Severity,
	message: string,
	at: string
): void {
	report(code, () => ruleIssue(source, code, severity, message, at));
}

/** The kinds of entries the documentation lists. */
const ENTRY_TYPES = new Set(['tel', 'email', 'url']);

/** A dialable number: digits with the usual separators, a leading + and the keypad's * and #. */
const NUMBER = /^\+?[0-9*#][0-9*# ().\-/]*$/;
/** An e-mail address: one @, no spaces, a dot in the domain. */
const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The longest id, name and URI expected. */
const LIMITS = { id: 200, name: 500, uri: 2000 };

const NAMES = ['displayName', 'fname', 'lname', 'company'] as const;

/** An id as the app keys it (a string, or a number written as one); null when absent or empty. */
function idOf(value: unknown): string | null {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function isWebUrl(uri: string): boolean {
	if (!/^https?:\/\//i.test(uri)) return false;
	try {
		return new URL(uri).hostname !== '';
	} catch {
		return false;
	}
}

/** Why a URI does not fit its entry's kind, or null when it does. */
function uriProblem(type: string, uri: string): { code: string; message: string } | null {
	if (type === 'tel' && !NUMBER.test(uri.replace(/^tel:/i, ''))) {
		const message = `The tel entry's URI ${quoted(uri, 40)} is not a number (write tel:+15551231234 or +15551231234): the app cannot dial it.`;
		return { code: 'entry_uri_not_tel', message };
	}
	if (type === 'email' && !ADDRESS.test(uri.replace(/^mailto:/i, ''))) {
		const message = `The email entry's URI ${quoted(uri, 40)} is not an e-mail address.`;
		return { code: 'entry_uri_not_email', message };
	}
	if (type === 'url' && !isWebUrl(uri)) {
		const message = `The url entry's URI ${quoted(uri, 40)} is not an http(s) URL: the app opens only web addresses.`;
		return { code: 'entry_uri_not_url', message };
	}
	return null;
}

function checkEntry(value: unknown, at: string, ids: Map<string, string>, report: Report): void {
	const entry = objectOf(value);
	if (!entry) {
		const message = 'An entry is not an object: the app leaves it out.';
		flag(report, CONTACTS_DOCS, 'entry_not_object', 'error', message, at);
		return;
	}
	const id = idOf(own(entry, 'entryId'));
	if (id === null) {
		const message = 'The entry has no entryId.';
		flag(report, CONTACTS_DOCS, 'entry_id_missing', 'error', message, at);
	} else if (ids.has(id)) {
		const message = `entryId ${quoted(id, 40)} is given already at ${ids.get(id)}: entry ids are unique within a contact.`;
		flag(report, CONTACTS_DOCS, 'entry_id_repeated', 'error', message, `${at}.entryId`);
	} else ids.set(id, at);
	const type = own(entry, 'type');
	const uri = own(entry, 'uri');
	if (typeof type !== 'string' || !ENTRY_TYPES.has(type)) {
		const said = typeof type === 'string' ? quoted(type, 40) : 'missing';
		const message = `The entry's type is ${said}: it is tel, email or url, and the app leaves other entries out.`;
		flag(report, CONTACTS_DOCS, 'entry_type_unknown', 'error', message, `${at}.type`);
	}
	if (typeof uri !== 'string' || uri.trim() === '') {
		const message = 'The entry has no uri: there is nothing to dial, write to or open.';
		flag(report, CONTACTS_DOCS, 'entry_uri_missing', 'error', message, at);
		return;
	}
	const long = longText(uri, LIMITS.uri, 'The uri', `${at}.uri`);
	if (long) report(long.code, () => long);
	const problem = typeof type === 'string' ? uriProblem(type, uri.trim()) : null;
	if (problem) {
		flag(report, INFERRED, problem.code, 'warning', problem.message, `${at}.uri`);
	}
}

/**
 * Checks one contact at `at` (`$.contacts[3]`); `ids` holds the contact ids seen so far with
 * their places. Returns how many entries it has.
 */
export function checkContact(
	value: unknown,
	at: string,
	ids: Map<string, string>,
	report: Report
): number {
	const contact = objectOf(value);
	if (!contact) {
		const message = 'A contact is not an object: the app leaves it out.';
		flag(report, CONTACTS_DOCS, 'contact_not_object', 'error', message, at);
		return 0;
	}
	const id = idOf(own(contact, 'contactId'));
	if (id === null) {
		const message = 'The contact has no contactId: the app cannot tell it from the others.';
		flag(report, CONTACTS_DOCS, 'contact_id_missing', 'error', message, at);
	} else if (ids.has(id)) {
		const message = `contactId ${quoted(id, 40)} is given already at ${ids.get(id)}: contact ids are unique.`;
		flag(report, CONTACTS_DOCS, 'contact_id_repeated', 'error', message, `${at}.contactId`);
	} else ids.set(id, at);
	const longId = id === null ? null : longText(id, LIMITS.id, 'contactId', `${at}.contactId`);
	if (longId) report(longId.code, () => longId);
	let named = false;
	for (const name of NAMES) {
		const text = own(contact, name);
		if (text === undefined || text === null) continue;
		if (typeof text !== 'string') {
			const message = `${name} is not text: the app shows only text.`;
			flag(report, CONTACTS_DOCS, 'contact_name_not_text', 'warning', message, `${at}.${name}`);
			continue;
		}
		if (text.trim() !== '') named = true;
		const long = longText(text, LIMITS.name, name, `${at}.${name}`);
		if (long) report(long.code, () => long);
	}
	if (!named) {
		const message =
			'The contact has no displayName, fname, lname or company: it is listed without a name.';
		flag(report, INFERRED, 'contact_unnamed', 'info', message, at);
	}
	const addresses = own(contact, 'contactAddresses');
	if (addresses !== undefined && !Array.isArray(addresses)) {
		const message = 'contactAddresses is not a list: the app shows no address.';
		const where = `${at}.contactAddresses`;
		flag(report, CONTACTS_DOCS, 'contact_addresses_not_list', 'warning', message, where);
	}
	const entries = own(contact, 'contactEntries');
	if (entries === undefined) return 0;
	if (!Array.isArray(entries)) {
		const message = 'contactEntries is not a list: the contact has no number, address or link.';
		flag(
			report,
			CONTACTS_DOCS,
			'contact_entries_not_list',
			'error',
			message,
			`${at}.contactEntries`
		);
		return 0;
	}
	const entryIds = new Map<string, string>();
	entries.forEach((entry, i) => checkEntry(entry, `${at}.contactEntries[${i}]`, entryIds, report));
	return entries.length;
}
