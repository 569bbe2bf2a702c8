import type { XmlElement } from '../xml/element';
import { childNamed } from '../xml/parse';
import {
	headerOf,
	INFERRED,
	isSuccessStatus,
	longText,
	objectOf,
	own,
	readAnswerBody,
	ruleIssue,
	type AnswerInput,
	type ReaderIssue,
	type RuleSource
} from './answer';

/**
 * The answers that only give the app texts to show (Balance Checker, Rate Checker): a legacy XML
 * `<response>` with an `error` flag and the texts as elements, or a JSON object of texts. Read
 * once here; each service names its texts and where its rules come from.
 */

/** How one service's texts are read. */
export interface ShownTextsRule {
	/** What the texts are, for verdicts: "balance", "rate". */
	what: string;
	/** The rule of the answer's formats (an HTML page or broken body breaks it). */
	formatSource: RuleSource;
	xml: {
		source: RuleSource;
		fields: readonly string[];
		/** The rule that a set error flag hides the texts. */
		errorFlag: RuleSource;
		/** The rule that a missing flag reads as 0; null when the documentation says so. */
		missingFlag: RuleSource | null;
	};
	json: { source: RuleSource; fields: readonly string[] };
	/** The longest text expected (the app shows it on one line). */
	textLimit: number;
	/** The largest answer expected. */
	bodyLimit: number;
}

/** The texts found, or why none is shown. */
export type ShownTexts =
	| { ok: true; format: 'json' | 'xml'; texts: Record<string, string>; object?: object }
	| { ok: false; format: 'json' | 'xml' | null; why: string };

function xmlTexts(root: XmlElement, rule: ShownTextsRule, issues: ReaderIssue[]): ShownTexts {
	if (root.name !== 'response') {
		const message = `The XML root element is <${root.name}>; the ${rule.what} answer is a <response> element.`;
		issues.push(ruleIssue(rule.xml.source, `${rule.what}_root_not_response`, 'error', message));
		return { ok: false, format: 'xml', why: `its root is <${root.name}>, not <response>` };
	}
	const flag = childNamed(root, 'error')?.text.trim();
	if (flag === undefined && rule.xml.missingFlag) {
		const message = `The answer has no <error> element: the app is expected to read it as 0 and show the ${rule.what}.`;
		issues.push(ruleIssue(rule.xml.missingFlag, `${rule.what}_no_error_flag`, 'info', message));
	}
	if (flag !== undefined && flag !== '0') {
		const message = `<error> is ${flag}, not 0: the app shows no ${rule.what}. Answer 0 with the text to show it.`;
		issues.push(
			ruleIssue(rule.xml.errorFlag, `${rule.what}_error_flag`, 'warning', message, 'response/error')
		);
		return { ok: false, format: 'xml', why: `<error> is ${flag}, not 0` };
	}
	const texts: Record<string, string> = {};
	for (const field of rule.xml.fields) {
		const text = childNamed(root, field)?.text.trim();
		if (text) texts[field] = text;
	}
	return { ok: true, format: 'xml', texts };
}

function jsonTexts(value: unknown, rule: ShownTextsRule, issues: ReaderIssue[]): ShownTexts {
	const object = objectOf(value);
	if (!object) {
		const message = `The JSON answer is not an object: the app finds no ${rule.what} text in it.`;
		issues.push(ruleIssue(rule.json.source, `${rule.what}_not_object`, 'error', message, '$'));
		return { ok: false, format: 'json', why: 'the JSON is not an object' };
	}
	const texts: Record<string, string> = {};
	for (const field of rule.json.fields) {
		const text = own(object, field);
		if (text === undefined || text === null || text === '') continue;
		if (typeof text === 'string') {
			texts[field] = text;
			continue;
		}
		const message = `${field} is a ${Array.isArray(text) ? 'list' : typeof text}, not text: the app shows only text.`;
		issues.push(
			ruleIssue(rule.json.source, `${rule.what}_string_not_text`, 'warning', message, `$.${field}`)
		);
	}
	return { ok: true, format: 'json', texts, object };
}

/**
 * Reads a texts answer. A non-2xx status, an empty body, an HTML page, a body that is not JSON
 * or XML, a set error flag: nothing is shown, and `why` says why. Texts over the rule's limit
 * and an answer over its limit are warnings.
 */
export function readShownTexts(
	input: AnswerInput,
	rule: ShownTextsRule,
	issues: ReaderIssue[]
): ShownTexts {
	if (!isSuccessStatus(input.status)) {
		return { ok: false, format: null, why: `HTTP ${input.status} is not a success` };
	}
	if (input.body.length > rule.bodyLimit) {
		const size = input.body.length.toLocaleString('en');
		const message = `The answer is ${size} characters long; a ${rule.what} answer is a few short texts. The app downloads it all each time it asks.`;
		issues.push(ruleIssue(INFERRED, 'answer_large', 'warning', message));
	}
	const body = readAnswerBody(
		input.body,
		headerOf(input.headers, 'content-type'),
		rule.formatSource
	);
	if (body.kind === 'empty') return { ok: false, format: null, why: 'the answer is empty' };
	if (body.kind === 'unreadable') {
		issues.push(body.issue);
		const what =
			body.issue.code === 'answer_html'
				? 'the answer is an HTML page'
				: 'the answer cannot be read';
		return { ok: false, format: null, why: what };
	}
	const read =
		body.kind === 'xml' ? xmlTexts(body.root, rule, issues) : jsonTexts(body.value, rule, issues);
	if (read.ok) {
		for (const [field, text] of Object.entries(read.texts)) {
			const at = read.format === 'xml' ? `response/${field}` : `$.${field}`;
			const long = longText(text, rule.textLimit, field, at);
			if (long) issues.push(long);
		}
	}
	return read;
}
