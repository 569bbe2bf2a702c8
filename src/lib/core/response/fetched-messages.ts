import type { Service } from '../catalogue/schema';
import { ruleIssue } from '../catalogue/sources';
import { Repeats, type Issue } from '../issues';
import type { XmlElement } from '../xml/element';
import { parseXml } from '../xml/parse';
import type { ElementSpan } from '../xml/spans';
import { formatOf } from './body';
import {
	checkMessages,
	type FetchedMessage,
	type Located,
	type ReadMessage,
	shownDate
} from './fetched-checks';

export type { FetchedMessage, ReadMessage } from './fetched-checks';

/**
 * A Fetch Messages answer read as the app reads it: the modern JSON or XML shape (`date`,
 * `received_smss`, `sent_smss`), or the legacy one (`unread_smss`), named as legacy. What the app
 * shows (new messages, per thread) and the ids it sends next time come out of it; the traps seen
 * in real deployments come out as issues with their JSON path or line and column.
 */

/** A conversation: the messages of one stream, or of one party when there is no stream id. */
export interface FetchedThread {
	thread: string;
	received: number;
	sent: number;
	/** Received messages not already shown on another device. */
	unread: number;
	last: FetchedMessage;
}

/** What the app makes of a Fetch Messages answer. */
export interface FetchedMessages {
	shape: 'modern' | 'legacy';
	format: 'json' | 'xml';
	date: string | null;
	received: number;
	sent: number;
	/** Received messages the app shows as new (not `displayed` elsewhere). */
	newMessages: number;
	threads: FetchedThread[];
	/** Threads not listed (there were more than {@link MAX_THREADS}). */
	moreThreads: number;
	/** `%last_known_sms_id%` of the next call: the last received message's id; null, unchanged. */
	nextLastKnownSmsId: string | null;
	/** `%last_known_sent_sms_id%` of the next call; null, unchanged. */
	nextLastKnownSentSmsId: string | null;
	summary: string;
}

/** Threads listed in a result; the rest are counted. */
export const MAX_THREADS = 50;
/** Characters of a message's text kept for showing. */
export const SHOWN_TEXT_CHARS = 200;

type Raw = Record<string, unknown>;

const HTML = /^\s*<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i;

/** A list's messages with their places, from the JSON value (null when it is not a list). */
function jsonList(value: unknown, path: string): Located[] | null {
	if (!Array.isArray(value)) return null;
	return value.map((item, i) => ({
		fields: item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Raw) : {},
		where: `${path}[${i}]`,
		isObject: item !== null && typeof item === 'object' && !Array.isArray(item)
	}));
}

/** An XML element's child elements as fields (a child's text), keeping the first of a name. */
function xmlFields(element: XmlElement): Raw {
	const fields: Raw = Object.create(null);
	for (const child of element.children) {
		if (!(child.name in fields)) fields[child.name] = child.text;
	}
	return fields;
}

/** The unread shape's and the modern shape's lists, read from JSON or XML into one form. */
interface Lists {
	format: 'json' | 'xml';
	top: Raw;
	where: (name: string) => string;
	list: (name: string) => Located[] | null;
}

function jsonLists(value: unknown): Lists | string {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		return 'the JSON is not an object';
	}
	const top = value as Raw;
	return {
		format: 'json',
		top,
		where: (name) => `$.${name}`,
		list: (name) => (Object.hasOwn(top, name) ? jsonList(top[name], `$.${name}`) : null)
	};
}

function xmlLists(root: XmlElement, span: ElementSpan, place: (o: number) => string): Lists {
	const top = xmlFields(root);
	const at = (name: string) => root.children.findIndex((c) => c.name === name);
	return {
		format: 'xml',
		top,
		where: (name) => (at(name) === -1 ? '' : place(span.children[at(name)].start)),
		list: (name) => {
			const i = at(name);
			if (i === -1) return null;
			const spans = span.children[i].children;
			return root.children[i].children.map((m, j) => ({
				fields: xmlFields(m),
				where: place(spans[j].start),
				isObject: true
			}));
		}
	};
}

function readLists(body: string, contentType: string | null, issues: Issue[]): Lists | null {
	const format = formatOf(contentType);
	const first = body.trimStart()[0];
	if (HTML.test(body) || (format === 'text' && first === '<')) {
		issues.push(
			unreadable(
				`the answer is HTML${contentType ? ` (${contentType})` : ''}, not JSON or XML (line 1, column 1)`
			)
		);
		return null;
	}
	if (format === 'json' || (format !== 'xml' && (first === '{' || first === '['))) {
		try {
			const read = jsonLists(JSON.parse(body));
			if (typeof read === 'string') issues.push(unreadable(`${read} (at $)`));
			return typeof read === 'string' ? null : read;
		} catch (error) {
			const detail = error instanceof Error ? error.message.split('\n')[0] : 'parse error';
			issues.push(unreadable(`the body is not valid JSON: ${detail.slice(0, 200)}`));
			return null;
		}
	}
	if (format === 'xml' || first === '<') {
		const parsed = parseXml(body);
		if (!parsed.ok) {
			issues.push(unreadable(`the body is not XML the app reads: ${parsed.issue.message}`));
			return null;
		}
		const place = (offset: number) => {
			const { line, column } = parsed.place(offset);
			return `line ${line}, column ${column}`;
		};
		return xmlLists(parsed.root, parsed.span, place);
	}
	issues.push(
		unreadable(
			body.trim() === ''
				? 'the body is empty (answer {"date": …, "received_smss": [], "sent_smss": []} when there is nothing new)'
				: `the Content-Type ${contentType ?? '(none)'} is not JSON or XML`
		)
	);
	return null;
}

function unreadable(reason: string): Issue {
	return {
		code: 'fetch_answer_unreadable',
		severity: 'error',
		message: `The app reads no messages: ${reason}.`
	};
}

/**
 * Reads a Fetch Messages answer into what the app shows, adding its problems to `issues`; null
 * when the body is not an answer at all (the app then shows nothing new).
 */
export function readFetchedMessages(
	body: string,
	contentType: string | null,
	issues: Issue[]
): FetchedMessages | null {
	return readFetchedLists(body, contentType, issues)?.result ?? null;
}

/** Every message of both lists, and what the app makes of them: a virtual phone keeps them all. */
export interface FetchedLists {
	result: FetchedMessages;
	received: ReadMessage[];
	sent: ReadMessage[];
}

/** {@link readFetchedMessages} with every message read, not only the threads shown. */
export function readFetchedLists(
	body: string,
	contentType: string | null,
	issues: Issue[]
): FetchedLists | null {
	const lists = readLists(body, contentType, issues);
	if (lists === null) return null;
	const repeats = new Repeats(issues);
	const shape = !lists.list('received_smss') && lists.list('unread_smss') ? 'legacy' : 'modern';
	if (shape === 'legacy') {
		issues.push({
			code: 'fetch_legacy_shape',
			severity: 'info',
			message: `The answer has the legacy shape (unread_smss at ${lists.where('unread_smss')}): the app reads it, but it carries no sent messages; answer received_smss and sent_smss.`
		});
	}
	if (!lists.list('received_smss') && lists.list('received_messages')) {
		repeats.add('fetch_received_messages', 'fetch_received_messages', () => ({
			code: 'fetch_received_messages',
			severity: 'error',
			message: `received_messages (at ${lists.where('received_messages')}) is not a name the app reads: it is received_smss. The app sees no received messages.`
		}));
	}
	const received = lists.list(shape === 'legacy' ? 'unread_smss' : 'received_smss') ?? [];
	const sent = shape === 'legacy' ? [] : (lists.list('sent_smss') ?? []);
	const date = typeof lists.top.date === 'string' ? lists.top.date : null;
	const checked = checkMessages(received, sent, date, lists.where('date'), repeats);
	repeats.finish();
	return {
		result: summarise(shape, lists.format, date, checked.received, checked.sent),
		received: checked.received,
		sent: checked.sent
	};
}

function plural(n: number, what: string): string {
	return `${n.toLocaleString('en')} ${what}${n === 1 ? '' : 's'}`;
}

function summarise(
	shape: 'modern' | 'legacy',
	format: 'json' | 'xml',
	date: string | null,
	received: ReadMessage[],
	sent: ReadMessage[]
): FetchedMessages {
	const byThread = new Map<string, FetchedThread>();
	const lastTime = new Map<string, number>();
	for (const read of [...received, ...sent]) {
		const { time, givenContentType, ...message } = read;
		void givenContentType;
		let thread = byThread.get(message.thread);
		if (!thread) {
			thread = { thread: message.thread, received: 0, sent: 0, unread: 0, last: message };
			byThread.set(message.thread, thread);
		}
		if (message.direction === 'received') thread.received++;
		else thread.sent++;
		if (message.direction === 'received' && message.displayed !== true) thread.unread++;
		if ((time ?? 0) >= (lastTime.get(message.thread) ?? -1)) {
			thread.last = message;
			lastTime.set(message.thread, time ?? 0);
		}
	}
	const threads = [...byThread.values()];
	const newMessages = received.filter((m) => m.displayed !== true).length;
	const nextReceived = received.at(-1)?.smsId ?? null;
	const nextSent = sent.at(-1)?.smsId ?? null;
	const next = (name: string, id: string | null) =>
		id === null ? `${name} stays as it was` : `${name} is “${id}”`;
	const ids = `next time ${next('last_known_sms_id', nextReceived)}${shape === 'legacy' ? '' : ` and ${next('last_known_sent_sms_id', nextSent)}`}`;
	const unreadThreads = threads.filter((t) => t.unread > 0).length;
	const shown =
		newMessages === 0
			? 'The app shows no new messages'
			: `The app shows ${plural(newMessages, 'new message')} in ${plural(unreadThreads, 'thread')}`;
	const synced = sent.length ? ` and syncs ${plural(sent.length, 'sent message')}` : '';
	const summary = `${shown}${synced}; ${ids}.`;
	return {
		shape,
		format,
		date: date === null ? null : shownDate(date),
		received: received.length,
		sent: sent.length,
		newMessages,
		threads: threads.slice(0, MAX_THREADS),
		moreThreads: Math.max(0, threads.length - MAX_THREADS),
		nextLastKnownSmsId: nextReceived,
		nextLastKnownSentSmsId: nextSent,
		summary
	};
}

/**
 * Reads a Fetch Messages answer for a service's test call: its issues are judged by the source of
 * the service's answer rule (providers' implementations: a warning at most).
 */
export function readFetchAnswer(
	service: Service,
	body: string,
	contentType: string | null,
	issues: Issue[]
): FetchedMessages | null {
	const found: Issue[] = [];
	const result = readFetchedMessages(body, contentType, found);
	for (const issue of found) issues.push(ruleIssue(service, 'responseBody', issue));
	return result;
}
