/**
 * Kept unchanged from the first, straightforward implementation, as the oracle of
 * `src/lib/core/template/equivalence.spec.ts`: the fast tokenizer, encoder and expander must
 * give byte-identical results. Tests only.
 */

import type { Issue } from '$lib/core/issues';

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

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
const KEY_CHAR = /[A-Za-z0-9_.-]/;
const HEX = /[0-9A-Fa-f]/;

/** The known template functions. */
export const FUNCTIONS = ['sha1'] as const;

/**
 * How many `%sha1(...)%` may nest (`%sha1(%sha1(%x%)%)%` is 2). Deeper nesting is an
 * `invalid_function_argument` error: the bound keeps the scan linear and the stack shallow here
 * and in every consumer that walks a placeholder's `inner` chain.
 */
export const MAX_FUNCTION_DEPTH = 8;

type Parsed = { token: PlaceholderToken } | { issue: Issue | null };

function scan(source: string, from: number, pattern: RegExp): number {
	let i = from;
	while (i < source.length && pattern.test(source[i])) i++;
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

function parseAt(source: string, start: number): Parsed {
	const nameStart = start + 1;
	if (nameStart >= source.length || !NAME_START.test(source[nameStart])) return { issue: null };
	if (HEX.test(source[nameStart]) && HEX.test(source[nameStart + 1] ?? '')) {
		if (!NAME_CHAR.test(source[nameStart + 2] ?? '')) return { issue: null };
	}
	const nameEnd = scan(source, nameStart, NAME_CHAR);
	const name = source.slice(nameStart, nameEnd);
	const next = source[nameEnd];
	if (next === '%') {
		return {
			token: {
				kind: 'placeholder',
				from: start,
				to: nameEnd + 1,
				key: name,
				ref: { kind: 'name', name }
			}
		};
	}
	if (name === 'account' && next === '[') return parseAccount(source, start, nameEnd + 1);
	if (next === '(') return parseFunction(source, start, name, nameEnd + 1);
	return { issue: unclosed(start, nameEnd, nameEnd, `"%${name}"`) };
}

function parseAccount(source: string, start: number, keyStart: number): Parsed {
	if (!NAME_START.test(source[keyStart] ?? '')) {
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
	const key = source.slice(keyStart, keyEnd);
	if (source[keyEnd] === ']' && source[keyEnd + 1] === '%') {
		return {
			token: {
				kind: 'placeholder',
				from: start,
				to: keyEnd + 2,
				key: `account[${key}]`,
				ref: { kind: 'account', key }
			}
		};
	}
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

function parseFunction(source: string, start: number, name: string, argStart: number): Parsed {
	if (name !== 'sha1') {
		// Only `%name(%…` looks like a call; `50%off(today)` is ordinary text.
		if (source[argStart] !== '%') return { issue: null };
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
	const inner = source[argStart] === '%' ? parseAt(source, argStart) : null;
	if (inner && 'token' in inner) {
		const end = inner.token.to;
		if (source[end] === ')' && source[end + 1] === '%') {
			return {
				token: {
					kind: 'placeholder',
					from: start,
					to: end + 2,
					key: source.slice(start + 1, end + 1),
					ref: { kind: 'sha1', inner: inner.token }
				}
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
	let textStart = 0;
	let i = source.indexOf('%');
	while (i !== -1) {
		const parsed = parseAt(source, i);
		if ('token' in parsed) {
			if (i > textStart) tokens.push({ kind: 'text', from: textStart, to: i });
			tokens.push(parsed.token);
			textStart = parsed.token.to;
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
