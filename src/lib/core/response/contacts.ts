import { Repeats } from '../issues';
import {
	headerOf,
	INFERRED,
	isSuccessStatus,
	objectOf,
	own,
	readAnswerBody,
	ruleIssue,
	type AnswerInput,
	type ReaderIssue,
	type RuleSource
} from './answer';
import { checkContact, CONTACTS_DOCS } from './contact-entries';

/**
 * The Web Service Contacts answer, read as the app reads it each refresh: `{"contacts": [...]}`
 * replaces the list it has, `304 Not Modified` keeps it; `Last-Modified` is what lets the next
 * refresh ask `If-Modified-Since`.
 */

/** What providers do to spare the app a full download each refresh. */
export const CONTACTS_PROVIDERS: RuleSource = {
	kind: 'providers',
	ref: 'Last-Modified / If-Modified-Since and 304, as providers implement the refresh'
};

/** What the app does with its web service contacts. */
export type ContactsOutcome =
	/** The answer's list replaces the one the app has. */
	| 'replaced'
	/** 304: the list the app has is still current. */
	| 'unchanged'
	/** The answer cannot be used: the app keeps the list it has. */
	| 'kept'
	/** An XML answer, read through `wsContactsXPath`: not checked here. */
	| 'unchecked';

/** What the app does with a Web Service Contacts answer. */
export interface ContactsReading {
	outcome: ContactsOutcome;
	/** How many contacts and entries the answer holds (0 unless replaced). */
	contacts: number;
	entries: number;
	/** The `Last-Modified` header, when the answer has one. */
	lastModified: string | null;
	/** One sentence: what the app does. */
	verdict: string;
	issues: ReaderIssue[];
}

function plural(count: number, word: string): string {
	return `${count.toLocaleString('en')} ${word}${count === 1 ? '' : 's'}`;
}

/** The note on `Last-Modified` of a 2xx answer: how the next refresh can be spared. */
function lastModifiedIssue(value: string | null): ReaderIssue {
	if (value === null) {
		const message =
			'The answer has no Last-Modified header: the app cannot ask If-Modified-Since, so it downloads every contact again every refresh. Send Last-Modified and answer 304 Not Modified when nothing changed.';
		return ruleIssue(CONTACTS_PROVIDERS, 'contacts_no_last_modified', 'info', message);
	}
	if (Number.isNaN(Date.parse(value))) {
		const message = `Last-Modified “${value.slice(0, 80)}” is not an HTTP date (Wed, 21 Oct 2015 07:28:00 GMT): the next refresh cannot ask If-Modified-Since with it.`;
		return ruleIssue(
			CONTACTS_PROVIDERS,
			'contacts_last_modified_invalid',
			'warning',
			message,
			'Last-Modified'
		);
	}
	const message = `The next refresh asks If-Modified-Since: ${value}; answer 304 Not Modified when nothing changed since.`;
	return ruleIssue(CONTACTS_PROVIDERS, 'contacts_last_modified', 'info', message);
}

/** Reads a Web Service Contacts answer. */
export function readContactsAnswer(input: AnswerInput): ContactsReading {
	const issues: ReaderIssue[] = [];
	const lastModified = headerOf(input.headers, 'last-modified');
	const reading = (outcome: ContactsOutcome, verdict: string, counts = [0, 0]) => ({
		outcome,
		contacts: counts[0],
		entries: counts[1],
		lastModified,
		verdict,
		issues
	});
	const kept = (why: string) =>
		reading('kept', `${why}: the app keeps the contacts it has and tries again next refresh.`);
	if (input.status === 304) {
		return reading('unchanged', 'Not Modified: the app keeps the contacts it has, unchanged.');
	}
	if (!isSuccessStatus(input.status)) return kept(`HTTP ${input.status} is not a success`);
	const body = readAnswerBody(input.body, headerOf(input.headers, 'content-type'), CONTACTS_DOCS);
	if (body.kind === 'unreadable') {
		issues.push(body.issue);
		return kept(
			body.issue.code === 'answer_html' ? 'The answer is an HTML page' : 'The answer cannot be read'
		);
	}
	if (body.kind === 'xml') {
		const message =
			'The answer is XML: the app reads it through wsContactsXPath, which this check does not apply; only the JSON answer is checked.';
		issues.push(ruleIssue(CONTACTS_DOCS, 'contacts_xml_not_checked', 'info', message));
		return reading(
			'unchecked',
			'The XML answer is read through wsContactsXPath; it is not checked here.'
		);
	}
	const object = body.kind === 'json' ? objectOf(body.value) : null;
	const list = object ? own(object, 'contacts') : undefined;
	if (!Array.isArray(list)) {
		const message = 'The answer has no contacts list: it is {"contacts": [ … ]}.';
		issues.push(ruleIssue(CONTACTS_DOCS, 'contacts_list_missing', 'error', message, '$.contacts'));
		return kept('The answer has no contacts list');
	}
	const repeats = new Repeats(issues);
	const report = (code: string, make: () => ReaderIssue) => repeats.add(code, code, make);
	const ids = new Map<string, string>();
	let entries = 0;
	list.forEach((contact, i) => {
		entries += checkContact(contact, `$.contacts[${i}]`, ids, report);
	});
	repeats.finish();
	const counts = `${plural(list.length, 'contact')} (${plural(entries, 'entry').replace(/entrys$/, 'entries')})`;
	const verdict =
		list.length === 0
			? 'The app empties its web service contacts: the list is empty.'
			: `The app replaces its web service contacts with the answer’s ${counts}.`;
	if (list.length === 0) {
		const message =
			'The contacts list is empty: every web service contact disappears from the app.';
		issues.push(ruleIssue(INFERRED, 'contacts_empty', 'info', message, '$.contacts'));
	}
	issues.push(lastModifiedIssue(lastModified));
	return reading('replaced', verdict, [list.length, entries]);
}
