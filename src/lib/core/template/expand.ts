import type { Party } from '../catalogue/schema';
import type { Issue } from '../issues';
import { ENCODING_LABELS, encodeValue, hasXmlInvalidChars, type Encoding } from './encode';
import { sha1Hex } from './sha1';
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

/** A name's value as this expansion writes it, resolved and encoded once per key. */
interface Filled {
	status: SubstitutionStatus;
	/** The text written; a list's is rendered at each use (its issues name each spot). */
	text: string;
	/** Set for a list value. */
	list: readonly Party[] | null;
	/** XML encoding: the value holds characters XML 1.0 cannot carry. */
	xmlUnsafe: boolean;
	/** Raw substitution: the characters the spot's own encoding would have escaped. */
	breaks: string[];
}

const NO_CHARS: string[] = [];

/**
 * Resolution, encoding and hashing cached for one expansion: a large body repeats the same few
 * names thousands of times, and each is resolved, encoded and checked once.
 */
class Resolution {
	private readonly filled = new Map<string, Filled | undefined>();
	private readonly plain = new Map<string, string | undefined>();
	private readonly raw: boolean;

	constructor(
		private readonly options: ExpandOptions,
		private readonly encoding: Encoding
	) {
		this.raw = options.raw === true && options.context !== 'raw';
	}

	/** A name or account placeholder's value, written for the spot; undefined for none. */
	fill(key: string): Filled | undefined {
		let filled = this.filled.get(key);
		if (filled === undefined && !this.filled.has(key)) {
			filled = this.resolveFill(key);
			this.filled.set(key, filled);
		}
		return filled;
	}

	private resolveFill(key: string): Filled | undefined {
		const value = this.options.resolve(key);
		if (value === undefined) return undefined;
		const status = this.options.statusOf?.(key) ?? 'value';
		if (typeof value !== 'string') {
			return { status, text: '', list: value, xmlUnsafe: false, breaks: NO_CHARS };
		}
		return {
			status,
			text: encodeValue(value, this.encoding),
			list: null,
			xmlUnsafe: this.encoding === 'xml' && hasXmlInvalidChars(value),
			breaks: this.raw ? charsEscapedBy(value, this.options.context) : NO_CHARS
		};
	}

	/** The unencoded, unmasked text of a sha1 argument; undefined when a name has no value. */
	text(token: PlaceholderToken): string | undefined {
		const key = token.key;
		let text = this.plain.get(key);
		if (text === undefined && !this.plain.has(key)) {
			if (token.ref.kind === 'sha1') {
				// The tokenizer bounds the nesting, so this recursion stays shallow.
				const inner = this.text(token.ref.inner);
				text = inner === undefined ? undefined : sha1Hex(inner);
			} else {
				const value = this.options.resolve(key);
				text =
					typeof value === 'string' || value === undefined
						? value
						: listAsJson(value, (s) => encodeValue(s, 'json'));
			}
			this.plain.set(key, text);
		}
		return text;
	}
}

/**
 * Expands a tokenized template. Never throws, whatever the values. `resolve` and `statusOf` are
 * asked at most once per key and expansion: the answer is taken to hold for the whole template.
 */
export function expand(tokenized: Tokenized, options: ExpandOptions): Expansion {
	const { source, tokens } = tokenized;
	const encoding: Encoding = options.raw ? 'raw' : options.context;
	const resolution = new Resolution(options, encoding);
	const substitutions: Substitution[] = [];
	const issues: Issue[] = [];
	const chunks: string[] = [];
	let length = 0;
	for (let t = 0; t < tokens.length; t++) {
		const token = tokens[t];
		if (token.kind === 'text') {
			chunks.push(source.slice(token.from, token.to));
			length += token.to - token.from;
			continue;
		}
		let status: SubstitutionStatus;
		let text: string;
		let breaks: Encoding | undefined;
		if (token.ref.kind === 'sha1') {
			const hash = resolution.text(token);
			// Like any name without a value, the whole call is kept as written.
			if (hash === undefined) {
				text = source.slice(token.from, token.to);
				status = 'literal';
			} else {
				text = hash;
				status = 'value';
			}
		} else if (options.maskPassword && token.key === 'account[password]') {
			text = MASKED_PASSWORD;
			status = 'masked';
		} else {
			const filled = resolution.fill(token.key);
			if (filled === undefined) {
				text = source.slice(token.from, token.to);
				status = 'literal';
			} else if (filled.list === null) {
				text = filled.text;
				status = filled.status;
				if (filled.xmlUnsafe) issues.push(notXmlSafe(token));
				if (filled.breaks.length) {
					breaks = options.context;
					issues.push(rawBreaks(token, options.context, filled.breaks));
				}
			} else {
				text = renderList(filled.list, options.context, encoding, token, issues);
				status = filled.status;
			}
		}
		chunks.push(text);
		const substitution: Substitution = {
			from: length,
			to: (length += text.length),
			sourceFrom: token.from,
			sourceTo: token.to,
			key: token.key,
			encoding,
			status
		};
		if (breaks) substitution.breaks = breaks;
		substitutions.push(substitution);
	}
	return { text: chunks.join(''), substitutions, issues };
}
