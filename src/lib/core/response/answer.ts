import type { Source } from '../catalogue/schema';
import { severityFrom } from '../catalogue/sources';
import { lineColumn, type Issue, type Severity } from '../issues';
import { mediaTypeEssence } from '../template/encode';
import type { XmlElement } from '../xml/element';
import { parseXml } from '../xml/parse';
import type { ElementSpan } from '../xml/spans';
import { firstCharacters, formatOf } from './body';

/**
 * What the readers of the platform's other services' answers share: where each rule they apply
 * comes from, issues that carry it (a rule that is not the contract's or the documentation's
 * warns at most), and the reading of a body as JSON or strict XML with what is wrong and where.
 */

/** Where a rule comes from: the catalogue's one description of a source. */
export type RuleSource = Source;

/** An issue of a reader: the rule's source, and where in the answer (a JSON path or a line). */
export interface ReaderIssue extends Issue {
	source: RuleSource;
	/** `$.contacts[2].contactEntries[0].uri`, `line 3, column 7`, or a header's name. */
	at?: string;
}

/** An inference of this product, said as such. */
export const INFERRED: RuleSource = { kind: 'inference', ref: 'not documented by the platform' };

/** The common rule of every service (2xx is success, keys by prefix). */
export const COMMON_RULE: RuleSource = { kind: 'docs', ref: 'api/client/intro' };

/**
 * An issue of a rule. Only the contract and the documentation can make an error: a rule seen in
 * providers' implementations or inferred is a warning at most.
 */
export function ruleIssue(
	source: RuleSource,
	code: string,
	severity: Severity,
	message: string,
	at?: string
): ReaderIssue {
	const issue: ReaderIssue = {
		code,
		severity: severityFrom(source, severity),
		message: at === undefined ? message : `${message} (at ${at})`,
		source
	};
	if (at !== undefined) issue.at = at;
	return issue;
}

/** A response's headers, in either form the interpreter takes. */
export type AnswerHeaders = Record<string, string> | { name: string; value: string }[];

/** A response as received, read by one of the readers. */
export interface AnswerInput {
	status: number;
	headers: AnswerHeaders;
	body: string;
}

/** A header's value by name, matched case-insensitively; null when absent. */
export function headerOf(headers: AnswerHeaders, name: string): string | null {
	const wanted = name.toLowerCase();
	const list = Array.isArray(headers)
		? headers.map((h) => [h.name, h.value] as const)
		: Object.entries(headers);
	return list.find(([key]) => key.toLowerCase() === wanted)?.[1] ?? null;
}

/** True for a 2xx status. */
export function isSuccessStatus(status: number): boolean {
	return status >= 200 && status < 300;
}

/** A body read as JSON or XML, empty, or not readable (the issue says what and where). */
export type AnswerBody =
	| { kind: 'json'; value: unknown }
	| { kind: 'xml'; root: XmlElement; span: ElementSpan; source: string }
	| { kind: 'empty' }
	| { kind: 'unreadable'; issue: ReaderIssue };

/** How much of a body is searched for an HTML page's title. */
const TITLE_WINDOW = 64 * 1024;

/**
 * An HTML page, by its Content-Type or its first tag, with the words of its title when it has
 * one; null for any other body.
 */
export function htmlPage(
	body: string,
	contentType: string | null
): { title: string | null } | null {
	const essence = mediaTypeEssence(contentType);
	const typed = essence === 'text/html' || essence === 'application/xhtml+xml';
	const head = body.slice(0, 1024).replace(/^\uFEFF/, '');
	if (!typed && !/^\s*(<!doctype\s+html|<html[\s>])/i.test(head)) return null;
	const title = /<title[^>]*>([^<]*)/i.exec(body.slice(0, TITLE_WINDOW))?.[1].trim();
	return { title: title ? firstCharacters(title.replace(/\s+/g, ' '), 80) : null };
}

/** The line and column of the place the engine names in a JSON syntax error, if any. */
function jsonErrorPlace(message: string, text: string): string | null {
	const position = /position (\d+)/.exec(message);
	const offset = position
		? Number(position[1])
		: /end of JSON input/i.test(message)
			? text.length
			: null;
	if (offset === null) return null;
	const { line, column } = lineColumn(text, offset);
	return `line ${line}, column ${column}`;
}

/** The engine's reason, without its place or its copy of the text. */
function jsonReason(message: string): string {
	return message
		.replace(/,\s*".*" is not valid JSON$/s, '')
		.replace(/\s*(in JSON )?at position \d+.*$/s, '');
}

function readJson(body: string, source: RuleSource): AnswerBody {
	try {
		return { kind: 'json', value: JSON.parse(body) };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		const at = jsonErrorPlace(message, body) ?? undefined;
		const said = `The answer is not valid JSON: ${firstCharacters(jsonReason(message), 200)}.`;
		return {
			kind: 'unreadable',
			issue: ruleIssue(source, 'answer_invalid_json', 'error', said, at)
		};
	}
}

function readXmlAnswer(body: string, source: RuleSource): AnswerBody {
	const parsed = parseXml(body);
	if (parsed.ok) {
		return { kind: 'xml', root: parsed.root, span: parsed.span, source: parsed.source };
	}
	const place = /\(line (\d+), column (\d+)\)$/.exec(parsed.issue.message);
	const issue = ruleIssue(source, parsed.issue.code, 'error', `The answer ${parsed.issue.message}`);
	if (place) issue.at = `line ${place[1]}, column ${place[2]}`;
	return { kind: 'unreadable', issue };
}

/**
 * Reads a body as the app reads these services' answers: an HTML page is named as such (with
 * its title), JSON by its Content-Type or a leading `{`/`[`, XML (strictly: no DOCTYPE, nesting
 * bounded) by its Content-Type or a leading `<`. `source` is the rule that says which formats
 * the service answers in: a body in neither breaks it.
 */
export function readAnswerBody(
	body: string,
	contentType: string | null,
	source: RuleSource
): AnswerBody {
	if (body.trim() === '') return { kind: 'empty' };
	const page = htmlPage(body, contentType);
	if (page) {
		const named = page.title ? ` (“${page.title}”)` : '';
		const message = `The answer is an HTML page${named}, not JSON or XML: the app cannot read it. A proxy's login or error page often answers in place of the service; check the URL.`;
		const issue = ruleIssue(source, 'answer_html', 'error', message, 'line 1, column 1');
		return { kind: 'unreadable', issue };
	}
	const declared = formatOf(contentType);
	const first = body.replace(/^\uFEFF/, '').trimStart()[0];
	if (declared === 'json' || (declared !== 'xml' && (first === '{' || first === '['))) {
		return readJson(body, source);
	}
	if (declared === 'xml' || first === '<') return readXmlAnswer(body, source);
	const type = contentType ? ` (${contentType})` : '';
	const message = `The answer${type} is neither JSON nor XML: it starts ${quoted(body.trimStart(), 40)}.`;
	const issue = ruleIssue(source, 'answer_not_json_or_xml', 'error', message, 'line 1, column 1');
	return { kind: 'unreadable', issue };
}

/** A text in quotes for a message: at most `count` characters, and its length when cut. */
export function quoted(text: string, count = 80): string {
	const cut = firstCharacters(text, count);
	if (cut.length === text.length) return `“${text}”`;
	return `“${cut}…” (${text.length.toLocaleString('en')} characters)`;
}

/**
 * A warning for a value longer than the place the app shows or uses it in (`what` names it,
 * `at` is its place); null when it fits. Lengths are inferred from where the app shows them.
 */
export function longText(
	value: string,
	limit: number,
	what: string,
	at: string
): ReaderIssue | null {
	if (value.length <= limit) return null;
	const length = value.length.toLocaleString('en');
	return ruleIssue(
		INFERRED,
		'value_too_long',
		'warning',
		`${what} is ${length} characters long, where at most ${limit} are expected: the app shows or uses it as it is, so check that the service answers the right value.`,
		at
	);
}

/** A JSON value as a plain object, or null. */
export function objectOf(value: unknown): Record<string, unknown> | null {
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: null;
}

/** An own field of a JSON object (never one from its prototype). */
export function own(record: Record<string, unknown>, key: string): unknown {
	return Object.hasOwn(record, key) ? record[key] : undefined;
}
