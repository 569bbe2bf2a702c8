import {
	INFERRED,
	quoted,
	ruleIssue,
	type AnswerInput,
	type ReaderIssue,
	type RuleSource
} from './answer';
import { readShownTexts, type ShownTextsRule } from './shown-texts';

/**
 * The Rate Checker's answer, read as the app reads it while the user types a number: the JSON
 * `{"callRateString", "messageRateString"}` (and `smartCallRateString`, `smartMessageRateString`
 * for a smart contact), or the documented legacy XML, whose `rateString` is shown when `error`
 * is 0 or missing.
 */

/** The Rate Checker's documentation page (legacy XML). */
export const RATE_DOCS: RuleSource = { kind: 'docs', ref: 'api/client/rate_checker' };

/** The JSON texts, as providers answer them citing the documentation. */
export const RATE_PROVIDERS: RuleSource = {
	kind: 'providers',
	ref: 'JSON rate strings as providers answer them, citing the documentation'
};

const PLAIN = ['callRateString', 'messageRateString'] as const;
const SMART = ['smartCallRateString', 'smartMessageRateString'] as const;

const RULE: ShownTextsRule = {
	what: 'rate',
	formatSource: RATE_DOCS,
	xml: { source: RATE_DOCS, fields: ['rateString'], errorFlag: RATE_DOCS, missingFlag: null },
	json: { source: RATE_PROVIDERS, fields: [...PLAIN, ...SMART] },
	textLimit: 100,
	bodyLimit: 64 * 1024
};

/** One text the app shows beside the number. */
export interface ShownRate {
	text: 'call' | 'message' | 'rate';
	label: string;
	value: string;
}

/** What the app does with a Rate Checker answer. */
export interface RateReading {
	/** The texts the app shows, in order; empty when it shows none. */
	shown: ShownRate[];
	format: 'json' | 'xml' | null;
	/** One sentence: what the app shows, or why it shows nothing. */
	verdict: string;
	issues: ReaderIssue[];
}

/** What the call was made for: a smart contact's number (`%smartUri%` not empty) or not. */
export interface RateContext {
	smart?: boolean;
}

function jsonRates(
	texts: Record<string, string>,
	smart: boolean,
	issues: ReaderIssue[]
): ShownRate[] {
	const hasSmart = SMART.some((k) => texts[k] !== undefined);
	if (smart && !hasSmart && PLAIN.some((k) => texts[k] !== undefined)) {
		const message =
			'The number is a smart contact but the answer has no smartCallRateString or smartMessageRateString: the app is expected to show the plain rates.';
		issues.push(ruleIssue(INFERRED, 'rate_smart_missing', 'info', message));
	}
	if (!smart && hasSmart) {
		const message =
			'The smart rates are shown only when the number is a smart contact (%smartUri% is not empty); for this number the plain rates are shown.';
		issues.push(ruleIssue(RATE_PROVIDERS, 'rate_smart_unused', 'info', message));
	}
	const keys = smart && hasSmart ? SMART : PLAIN;
	const shown: ShownRate[] = [];
	if (texts[keys[0]] !== undefined)
		shown.push({ text: 'call', label: 'Call rate', value: texts[keys[0]] });
	if (texts[keys[1]] !== undefined)
		shown.push({ text: 'message', label: 'Message rate', value: texts[keys[1]] });
	return shown;
}

/** Reads a Rate Checker answer for a number (a smart contact's or not). */
export function readRateAnswer(input: AnswerInput, context: RateContext = {}): RateReading {
	const issues: ReaderIssue[] = [];
	const read = readShownTexts(input, RULE, issues);
	const none = (why: string, format: RateReading['format']): RateReading => ({
		shown: [],
		format,
		verdict: `${why[0].toUpperCase()}${why.slice(1)}: the app shows no rate.`,
		issues
	});
	if (!read.ok) return none(read.why, read.format);
	const shown =
		read.format === 'xml'
			? read.texts.rateString === undefined
				? []
				: [{ text: 'rate' as const, label: 'Rate', value: read.texts.rateString }]
			: jsonRates(read.texts, context.smart === true, issues);
	if (shown.length === 0) {
		const names = read.format === 'xml' ? 'rateString' : PLAIN.join(' or ');
		const source = read.format === 'xml' ? RATE_DOCS : RATE_PROVIDERS;
		const message = `The answer has no ${names}: the app shows no rate for the number.`;
		issues.push(ruleIssue(source, 'rate_strings_missing', 'warning', message));
		return none(`the answer has no ${names}`, read.format);
	}
	const said = shown.map((s) => `the ${s.label.toLowerCase()} ${quoted(s.value)}`).join(' and ');
	return { shown, format: read.format, verdict: `The app shows ${said}.`, issues };
}
