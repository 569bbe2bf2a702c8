import { quoted, ruleIssue, type AnswerInput, type ReaderIssue, type RuleSource } from './answer';
import { readShownTexts, type ShownTextsRule } from './shown-texts';

/**
 * The Balance Checker's answer, read as the app reads it: the documented legacy XML
 * `<response><error>0</error><balanceString>$60.20</balanceString></response>`, or the JSON
 * `{"balanceString", "balance", "currency"}` providers answer. Only `balanceString` is shown.
 */

/** The documentation's FAQ, which gives the XML answer. */
export const BALANCE_DOCS: RuleSource = { kind: 'docs', ref: 'FAQ: balance checker answer' };

/** Providers' JSON answer. */
export const BALANCE_PROVIDERS: RuleSource = {
	kind: 'providers',
	ref: 'JSON {"balanceString", "balance", "currency"} seen in providers’ implementations'
};

const RULE: ShownTextsRule = {
	what: 'balance',
	formatSource: BALANCE_DOCS,
	xml: {
		source: BALANCE_DOCS,
		fields: ['balanceString'],
		errorFlag: BALANCE_DOCS,
		missingFlag: { kind: 'inference', ref: 'read as the Rate Checker’s documented legacy XML' }
	},
	json: { source: BALANCE_PROVIDERS, fields: ['balanceString'] },
	textLimit: 100,
	bodyLimit: 64 * 1024
};

/** What the app does with a Balance Checker answer. */
export interface BalanceReading {
	/** The text the app shows as the balance, or null when it shows none. */
	shown: string | null;
	/** The format the answer was read in, or null when it was not read. */
	format: 'json' | 'xml' | null;
	/** One sentence: what the app shows, or why it shows nothing. */
	verdict: string;
	issues: ReaderIssue[];
}

/** Reads a Balance Checker answer. */
export function readBalanceAnswer(input: AnswerInput): BalanceReading {
	const issues: ReaderIssue[] = [];
	const read = readShownTexts(input, RULE, issues);
	const none = (why: string, format: BalanceReading['format']): BalanceReading => ({
		shown: null,
		format,
		verdict: `${why[0].toUpperCase()}${why.slice(1)}: the app shows no balance.`,
		issues
	});
	if (!read.ok) return none(read.why, read.format);
	const shown = read.texts.balanceString;
	const object = read.object as Record<string, unknown> | undefined;
	const others = object ? ['balance', 'currency'].filter((k) => Object.hasOwn(object, k)) : [];
	if (shown === undefined) {
		const also = others.length ? ` (${others.join(' and ')} alone are not shown)` : '';
		const source = read.format === 'xml' ? BALANCE_DOCS : BALANCE_PROVIDERS;
		const at = read.format === 'xml' ? 'response' : '$';
		const message = `The answer has no balanceString${also}: it is the only field the app shows.`;
		issues.push(ruleIssue(source, 'balance_string_missing', 'error', message, at));
		return none('the answer has no balanceString', read.format);
	}
	if (others.length) {
		const message = `${others.join(' and ')} ${others.length > 1 ? 'are' : 'is'} not shown: the app shows balanceString as it is.`;
		issues.push(ruleIssue(BALANCE_PROVIDERS, 'balance_fields_not_shown', 'info', message));
	}
	return {
		shown,
		format: read.format,
		verdict: `The app shows the balance ${quoted(shown)}.`,
		issues
	};
}
