import type { Issue } from '../issues';

/**
 * The template tokenizer: the one parser of `%placeholders%` that highlighting, completion,
 * lint, preview and expansion all share.
 *
 *     template    := (text | placeholder)*
 *     placeholder := '%' ref '%'
 *     ref         := name | 'account[' key ']' | 'sha1(' placeholder ')'
 *     name        := [A-Za-z_][A-Za-z0-9_]*
 *     key         := [A-Za-z_][A-Za-z0-9_.-]*
 *
 * A `%` that does not start a well-formed placeholder is literal text. A `%` followed by two
 * hex digits is a percent-encoded byte (`%20`, `%C3%A9`) and never starts a placeholder. `sha1`
 * nests at most {@link MAX_FUNCTION_DEPTH} deep. The scan is linear in the length of the template
 * and never throws.
 */

/** What a placeholder refers to. */
export type Ref =
	| { kind: 'name'; name: string }
	| { kind: 'account'; key: string }
	| { kind: 'sha1'; inner: PlaceholderToken };

/** Literal text between placeholders; `from`/`to` are UTF-16 offsets. */
export interface TextToken {
	kind: 'text';
	from: number;
	to: number;
}

/** A well-formed placeholder. `key` is the text between the percent signs (`account[host]`). */
export interface PlaceholderToken {
	kind: 'placeholder';
	from: number;
	to: number;
	key: string;
	ref: Ref;
}

/** A token of a template. */
export type Token = TextToken | PlaceholderToken;

/** Tokens in source order (text and placeholders cover the whole input) and syntax issues. */
export interface Tokenized {
	source: string;
	tokens: Token[];
	issues: Issue[];
}

// Character classes by UTF-16 code unit, tested with charCodeAt: no regular expression and no
// one-character string per character scanned.
const NAME_START = 1;
const NAME_CHAR = 2;
const KEY_CHAR = 4;
const HEX = 8;
const CLASSES = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
	const ch = String.fromCharCode(c);
	const letter = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch === '_';
	const digit = ch >= '0' && ch <= '9';
	CLASSES[c] =
		(letter ? NAME_START : 0) |
		(letter || digit ? NAME_CHAR | KEY_CHAR : 0) |
		(ch === '.' || ch === '-' ? KEY_CHAR : 0) |
		(digit || (ch >= 'A' && ch <= 'F') || (ch >= 'a' && ch <= 'f') ? HEX : 0);
}

/** Whether the code unit at `at` is in `cls`; false past either end. */
function is(source: string, at: number, cls: number): boolean {
	const c = source.charCodeAt(at);
	return c < 128 && (CLASSES[c] & cls) !== 0;
}

const PERCENT = 0x25;

/** The known template functions. */
export const FUNCTIONS = ['sha1'] as const;

/**
 * How many `%sha1(...)%` may nest (`%sha1(%sha1(%x%)%)%` is 2). Deeper nesting is an
 * `invalid_function_argument` error: the bound keeps the scan linear and the stack shallow here
 * and in every consumer that walks a placeholder's `inner` chain.
 */
export const MAX_FUNCTION_DEPTH = 8;

/** A placeholder, or what a `%` that starts none is: an issue, or null for plain text. */
type Parsed = PlaceholderToken | { issue: Issue | null };

/**
 * The key and reference of each name and account placeholder met so far in one template: a
 * large body repeats a few names thousands of times, and its tokens share one key string and one
 * (frozen) reference per name instead of holding a copy each.
 */
type Seen = Map<string, { key: string; ref: Ref }>;

const ACCOUNT_OPEN = 'account['.length;

/**
 * The shared key and reference of a name (`sms_to`) or, with `account`, of an account key
 * (`account[username]`), made the first time it is met.
 */
function named(seen: Seen, key: string, account: boolean): { key: string; ref: Ref } {
	let entry = seen.get(key);
	if (entry === undefined) {
		const ref: Ref = account
			? { kind: 'account', key: key.slice(ACCOUNT_OPEN, -1) }
			: { kind: 'name', name: key };
		entry = { key, ref: Object.freeze(ref) };
		seen.set(key, entry);
	}
	return entry;
}

function scan(source: string, from: number, cls: number): number {
	let i = from;
	while (is(source, i, cls)) i++;
	return i;
}

function unclosed(from: number, to: number, insertAt: number, what: string): Issue {
	return {
		code: 'unclosed_placeholder',
		severity: 'warning',
		message: `${what} is not closed by "%", so it is sent as literal text.`,
		from,
		to,
		fix: { label: 'Close the placeholder', from: insertAt, to: insertAt, insert: '%' }
	};
}

function parseAt(source: string, start: number, seen: Seen): Parsed {
	const nameStart = start + 1;
	if (!is(source, nameStart, NAME_START)) return { issue: null };
	if (is(source, nameStart, HEX) && is(source, nameStart + 1, HEX)) {
		if (!is(source, nameStart + 2, NAME_CHAR)) return { issue: null };
	}
	const nameEnd = scan(source, nameStart, NAME_CHAR);
	const name = source.slice(nameStart, nameEnd);
	const next = source.charCodeAt(nameEnd);
	if (next === PERCENT) {
		const { key, ref } = named(seen, name, false);
		return { kind: 'placeholder', from: start, to: nameEnd + 1, key, ref };
	}
	if (next === 0x5b /* [ */ && name === 'account') {
		return parseAccount(source, start, nameEnd + 1, seen);
	}
	if (next === 0x28 /* ( */) return parseFunction(source, start, name, nameEnd + 1, seen);
	return { issue: unclosed(start, nameEnd, nameEnd, `"%${name}"`) };
}

function parseAccount(source: string, start: number, keyStart: number, seen: Seen): Parsed {
	if (!is(source, keyStart, NAME_START)) {
		return {
			issue: {
				code: 'invalid_account_key',
				severity: 'warning',
				message: 'An account placeholder needs a key: %account[username]%.',
				from: start,
				to: keyStart
			}
		};
	}
	const keyEnd = scan(source, keyStart, KEY_CHAR);
	if (source.charCodeAt(keyEnd) === 0x5d /* ] */ && source.charCodeAt(keyEnd + 1) === PERCENT) {
		const { key, ref } = named(seen, source.slice(start + 1, keyEnd + 1), true);
		return { kind: 'placeholder', from: start, to: keyEnd + 2, key, ref };
	}
	const key = source.slice(keyStart, keyEnd);
	const closeAt = source[keyEnd] === ']' ? keyEnd + 1 : keyEnd;
	const issue = unclosed(start, closeAt, closeAt, `"%account[${key}"`);
	if (closeAt === keyEnd && issue.fix) issue.fix.insert = ']%';
	return { issue };
}

const SHA1_OPEN = '%sha1(';

/** How many `%sha1(` follow one another from `at`, counted up to the nesting limit. */
function nestedCalls(source: string, at: number): number {
	let n = 0;
	while (n < MAX_FUNCTION_DEPTH && source.startsWith(SHA1_OPEN, at + n * SHA1_OPEN.length)) n++;
	return n;
}

function parseFunction(
	source: string,
	start: number,
	name: string,
	argStart: number,
	seen: Seen
): Parsed {
	if (name !== 'sha1') {
		// Only `%name(%…` looks like a call; `50%off(today)` is ordinary text.
		if (source.charCodeAt(argStart) !== PERCENT) return { issue: null };
		return {
			issue: {
				code: 'unknown_function',
				severity: 'error',
				message: `"${name}" is not a template function; the only one is sha1: %sha1(%account[password]%)%.`,
				from: start,
				to: argStart - 1
			}
		};
	}
	// Checked before recursing, so the recursion below is at most MAX_FUNCTION_DEPTH deep.
	if (nestedCalls(source, argStart) >= MAX_FUNCTION_DEPTH) {
		return {
			issue: {
				code: 'invalid_function_argument',
				severity: 'error',
				message: `sha1 nests at most ${MAX_FUNCTION_DEPTH} deep; this one is sent as literal text.`,
				from: start,
				to: argStart
			}
		};
	}
	const inner = source.charCodeAt(argStart) === PERCENT ? parseAt(source, argStart, seen) : null;
	if (inner && 'ref' in inner) {
		const end = inner.to;
		if (source.charCodeAt(end) === 0x29 /* ) */ && source.charCodeAt(end + 1) === PERCENT) {
			return {
				kind: 'placeholder',
				from: start,
				to: end + 2,
				key: source.slice(start + 1, end + 1),
				ref: { kind: 'sha1', inner }
			};
		}
		// The fix closes what is missing: `%` after a `)` that is there, else `)%`.
		const closed = source[end] === ')';
		const issue = unclosed(start, end, closed ? end + 1 : end, '"%sha1(" with its argument');
		if (!closed && issue.fix) issue.fix.insert = ')%';
		return { issue };
	}
	return {
		issue: {
			code: 'invalid_function_argument',
			severity: 'error',
			message: 'sha1 takes one placeholder: %sha1(%account[password]%)%.',
			from: start,
			to: argStart
		}
	};
}

/** Splits a template into text and placeholder tokens, with syntax issues. Never throws. */
export function tokenize(source: string): Tokenized {
	const tokens: Token[] = [];
	const issues: Issue[] = [];
	const seen: Seen = new Map();
	let textStart = 0;
	let i = source.indexOf('%');
	while (i !== -1) {
		const parsed = parseAt(source, i, seen);
		if ('ref' in parsed) {
			if (i > textStart) tokens.push({ kind: 'text', from: textStart, to: i });
			tokens.push(parsed);
			textStart = parsed.to;
			i = source.indexOf('%', textStart);
		} else {
			if (parsed.issue) issues.push(parsed.issue);
			i = source.indexOf('%', i + 1);
		}
	}
	if (textStart < source.length) tokens.push({ kind: 'text', from: textStart, to: source.length });
	return { source, tokens, issues };
}

/** The placeholders of a template, in order, for callers that need no text tokens. */
export function placeholders(tokenized: Tokenized): PlaceholderToken[] {
	return tokenized.tokens.filter((t): t is PlaceholderToken => t.kind === 'placeholder');
}
