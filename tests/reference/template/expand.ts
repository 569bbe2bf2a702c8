/**
 * Kept unchanged from the first, straightforward implementation, as the oracle of
 * `src/lib/core/template/equivalence.spec.ts`: the fast tokenizer, encoder and expander must
 * give byte-identical results. Tests only.
 */

import type { Party } from '$lib/core/catalogue/schema';
import type { Issue } from '$lib/core/issues';
import { ENCODING_LABELS, encodeValue, hasXmlInvalidChars, type Encoding } from './encode';
import { sha1Hex } from '$lib/core/template/sha1';
import type { PlaceholderToken, Tokenized } from './tokenize';

/**
 * Single-pass expansion: each placeholder is replaced by its value, written with the encoding of
 * its spot. Values are never scanned again and nothing is evaluated.
 */

/** A value for a placeholder: text, or the parties of `%interestedParties%`. */
export type Value = string | readonly Party[];

/** How one placeholder was filled: `literal` keeps the placeholder text (no value known). */
export type SubstitutionStatus = 'value' | 'empty' | 'masked' | 'literal';

/** Where a substitution landed in the output, where it came from, and how it was encoded. */
export interface Substitution {
	from: number;
	to: number;
	sourceFrom: number;
	sourceTo: number;
	key: string;
	encoding: Encoding;
	status: SubstitutionStatus;
	/**
	 * Raw substitution only: the encoding this spot gives values (URL, form, JSON, XML) when the
	 * value holds characters that encoding would escape — sent raw, they break the text around.
	 */
	breaks?: Encoding;
}

/** Options of {@link expand}. */
export interface ExpandOptions {
	/** The encoding of the template's spot (URL, form body, JSON body, XML body, raw). */
	context: Encoding;
	/** Raw substitution: values go in as they are, as a caller that does no escaping would. */
	raw?: boolean;
	/** Send `%account[password]%` as `****` (plain http: URLs). */
	maskPassword?: boolean;
	/** The value of a placeholder; `undefined` keeps the placeholder text as it is. */
	resolve: (key: string) => Value | undefined;
	/** Only `empty` for a value that is known but was given no value; else `value`. */
	statusOf?: (key: string) => SubstitutionStatus;
}

/** The expanded text with its substitutions in output order and the issues found on the way. */
export interface Expansion {
	text: string;
	substitutions: Substitution[];
	issues: Issue[];
}

/** What `%account[password]%` becomes over plain http. */
export const MASKED_PASSWORD = '****';

function listAsJson(parties: readonly Party[], escape: (s: string) => string): string {
	const items = parties.map(
		(p) => `{"username":"${escape(p.username)}","device":"${escape(p.device)}"}`
	);
	return `[${items.join(',')}]`;
}

function listAsXml(parties: readonly Party[], escape: (s: string) => string): string {
	const items = parties.map(
		(p) =>
			`<party><username>${escape(p.username)}</username><device>${escape(p.device)}</device></party>`
	);
	return `<list>${items.join('')}</list>`;
}

/** XML writes these as references only so attributes keep them; raw, they break nothing. */
const XML_HARMLESS = new Set(['\r', '\n', '\t']);

/** The characters of a value that an encoding would change, each once, in order. */
export function charsEscapedBy(value: string, encoding: Encoding): string[] {
	const seen = new Map<string, boolean>();
	for (const char of value) {
		if (seen.has(char)) continue;
		const harmless = encoding === 'xml' && XML_HARMLESS.has(char);
		seen.set(char, !harmless && encodeValue(char, encoding) !== char);
	}
	return [...seen].filter(([, escaped]) => escaped).map(([char]) => char);
}

function rawBreaks(token: PlaceholderToken, context: Encoding, chars: string[]): Issue {
	const shown = chars.slice(0, 6).map((c) => JSON.stringify(c));
	const more = chars.length > shown.length ? ` and ${chars.length - shown.length} more` : '';
	return {
		code: 'raw_breaks',
		severity: 'warning',
		message: `Raw substitution: %${token.key}% goes in unescaped, but ${shown.join(', ')}${more} must be ${ENCODING_LABELS[context]} here; a caller that does no escaping would break this ${context === 'url' ? 'URL' : `${context.toUpperCase()} text`}.`,
		from: token.from,
		to: token.to
	};
}

function notXmlSafe(token: PlaceholderToken): Issue {
	return {
		code: 'value_not_xml_safe',
		severity: 'warning',
		message: `The value of %${token.key}% holds characters XML 1.0 cannot carry; they are sent as U+FFFD.`,
		from: token.from,
		to: token.to
	};
}

/** The list's shape follows the spot (`context`); its values are escaped with `encoding`. */
function renderList(
	parties: readonly Party[],
	context: Encoding,
	encoding: Encoding,
	token: PlaceholderToken,
	issues: Issue[]
): string {
	const escape = (s: string) => encodeValue(s, encoding);
	const unsafe = (p: Party) => hasXmlInvalidChars(p.username) || hasXmlInvalidChars(p.device);
	if (encoding === 'xml' && parties.some(unsafe)) {
		issues.push(notXmlSafe(token));
	}
	if (context === 'json') return listAsJson(parties, escape);
	if (context === 'xml') return listAsXml(parties, escape);
	issues.push({
		code: 'list_outside_body',
		severity: 'warning',
		message: `%${token.key}% is a list: it expands to a JSON array in a JSON body and to an XML list in an XML body. Here it is sent as JSON text.`,
		from: token.from,
		to: token.to
	});
	return encodeValue(
		listAsJson(parties, (s) => encodeValue(s, 'json')),
		encoding
	);
}

/** The unencoded, unmasked text of a sha1 argument; undefined when a name has no value. */
function innerText(token: PlaceholderToken, options: ExpandOptions): string | undefined {
	if (token.ref.kind === 'sha1') {
		// The tokenizer bounds the nesting, so this recursion stays shallow.
		const inner = innerText(token.ref.inner, options);
		return inner === undefined ? undefined : sha1Hex(inner);
	}
	const value = options.resolve(token.key);
	if (typeof value === 'string' || value === undefined) return value;
	return listAsJson(value, (s) => encodeValue(s, 'json'));
}

/** A text value as written into a spot, with what the checks found in it. */
interface Written {
	value: string;
	text: string;
	/** XML encoding: the value holds characters XML 1.0 cannot carry. */
	xmlUnsafe: boolean;
	/** Raw substitution: the characters the spot's own encoding would have escaped. */
	breaks: string[];
}

function writeString(value: string, encoding: Encoding, options: ExpandOptions): Written {
	const raw = options.raw === true && options.context !== 'raw';
	return {
		value,
		text: encodeValue(value, encoding),
		xmlUnsafe: encoding === 'xml' && hasXmlInvalidChars(value),
		breaks: raw ? charsEscapedBy(value, options.context) : []
	};
}

/** Expands a tokenized template. Never throws, whatever the values. */
export function expand(tokenized: Tokenized, options: ExpandOptions): Expansion {
	const { source, tokens } = tokenized;
	const encoding: Encoding = options.raw ? 'raw' : options.context;
	const chunks: string[] = [];
	const substitutions: Substitution[] = [];
	const issues: Issue[] = [];
	const seen = new Map<string, Written>();
	const statuses = new Map<string, SubstitutionStatus>();
	const statusOf = (key: string): SubstitutionStatus => {
		let status = statuses.get(key);
		if (status === undefined) {
			status = options.statusOf?.(key) ?? 'value';
			statuses.set(key, status);
		}
		return status;
	};
	let length = 0;
	for (const token of tokens) {
		if (token.kind === 'text') {
			const text = source.slice(token.from, token.to);
			chunks.push(text);
			length += text.length;
			continue;
		}
		let status: SubstitutionStatus = token.ref.kind === 'sha1' ? 'value' : statusOf(token.key);
		let text: string;
		let breaks: Encoding | undefined;
		if (token.ref.kind === 'sha1') {
			const inner = innerText(token.ref.inner, options);
			// Like any name without a value, the whole call is kept as written.
			text = inner === undefined ? source.slice(token.from, token.to) : sha1Hex(inner);
			if (inner === undefined) status = 'literal';
		} else if (options.maskPassword && token.key === 'account[password]') {
			text = MASKED_PASSWORD;
			status = 'masked';
		} else {
			const value = options.resolve(token.key);
			if (value === undefined) {
				text = source.slice(token.from, token.to);
				status = 'literal';
			} else if (typeof value === 'string') {
				// A name often recurs (a large body repeats it thousands of times): encode it once.
				let written = seen.get(token.key);
				if (written === undefined || written.value !== value) {
					written = writeString(value, encoding, options);
					seen.set(token.key, written);
				}
				text = written.text;
				if (written.xmlUnsafe) issues.push(notXmlSafe(token));
				if (written.breaks.length) {
					breaks = options.context;
					issues.push(rawBreaks(token, options.context, written.breaks));
				}
			} else {
				text = renderList(value, options.context, encoding, token, issues);
			}
		}
		chunks.push(text);
		substitutions.push({
			from: length,
			to: length + text.length,
			sourceFrom: token.from,
			sourceTo: token.to,
			key: token.key,
			encoding,
			status,
			...(breaks ? { breaks } : {})
		});
		length += text.length;
	}
	return { text: chunks.join(''), substitutions, issues };
}
