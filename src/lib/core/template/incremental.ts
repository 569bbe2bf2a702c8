import type { Service } from '../catalogue/schema';
import type { DeclaredAccountKey } from '../catalogue/account-keys';
import { vocabularyOf, type Vocabulary } from '../catalogue/vocabulary';
import { borders, editBetween, isHigh, isLow, noteEdit, type Edit } from '../format/edits';
import type { Issue } from '../issues';
import { analyzeTemplate, type Analysis } from './analyze';
import { hasXmlInvalidChars } from './encode';
import {
	expand,
	type ExpandOptions,
	type Expansion,
	type Substitution,
	type SubstitutionStatus,
	type Value
} from './expand';
import { Moved, movedMark, movedToken, whenRead } from './moved';
import type { Token, Tokenized } from './tokenize';

/**
 * The same analysis and expansion as {@link analyzeTemplate} and {@link expand}, derived from the
 * previous ones of the same field when the text changed by a local edit: what lies before the
 * edit is kept, what lies after it is shifted. Anything else is computed whole.
 *
 * An edit is local when neither the removed nor the inserted text holds a `%` or a character
 * XML 1.0 cannot carry, no surrogate borders it, and a character that cannot continue a
 * placeholder (anything but letters, digits and `_ . - [ ] ( ) %`) lies between the last `%`
 * before the edit and the edit. The tokenizer reads a `%`'s placeholder forward only, and stops
 * at such a character: no placeholder, issue or value then reads across the edit.
 */

/** The characters the tokenizer may read past a `%` while it reads one placeholder. */
const READ = new Uint8Array(128);
for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-[]()%') {
	READ[c.charCodeAt(0)] = 1;
}

function mayBeRead(code: number): boolean {
	return code < 128 && READ[code] === 1;
}

/** Whether `edit` of `before` into `after` is local (the module's rule). */
export function isLocal(before: string, after: string, edit: Edit): boolean {
	const { from, to, inserted, said } = edit;
	const removed = said ? said.removed : before.slice(from, to);
	const added = said ? said.text : after.slice(from, from + inserted);
	if (removed.includes('%') || added.includes('%')) return false;
	if (hasXmlInvalidChars(removed) || hasXmlInvalidChars(added)) return false;
	const [last, next] = borders(before, edit);
	if (isHigh(last) || isLow(next)) return false;
	// Read back from the edit, in what the editor said first, for the character that decides.
	const lead = said?.lead ?? '';
	for (let i = from - 1; i >= 0; i--) {
		const at = i - (from - lead.length);
		const code = at >= 0 ? lead.charCodeAt(at) : before.charCodeAt(i);
		if (!mayBeRead(code)) return true;
		if (code === 0x25) return false;
	}
	return true;
}

/** The first index of `items` whose `at` is at least `offset` (items sorted by it). */
function firstAt<T>(items: readonly T[], at: (item: T) => number, offset: number): number {
	let lo = 0;
	let hi = items.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (at(items[mid]) < offset) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

function movedIssue(issue: Issue, by: number): Issue {
	const moved: Issue = { ...issue };
	if (moved.from !== undefined) moved.from += by;
	if (moved.to !== undefined) moved.to += by;
	if (moved.fix) moved.fix = { ...moved.fix, from: moved.fix.from + by, to: moved.fix.to + by };
	return moved;
}

/** Issues before the edit as they are, those after it shifted (no issue spans a local edit). */
function movedIssues(issues: readonly Issue[], edit: Edit, by: number): Issue[] {
	return issues.map((i) => (i.from !== undefined && i.from >= edit.to ? movedIssue(i, by) : i));
}

/** The tokens of `source`, which is `prev.source` with the local `edit`. */
function retokenize(prev: Tokenized, source: string, edit: Edit): Tokenized {
	const by = edit.inserted - (edit.to - edit.from);
	const tokens = prev.tokens;
	// The text token the edit falls in (none: it falls between two placeholders, or at an end).
	let start = firstAt(tokens, (t) => t.to, edit.from + 1);
	if (start > 0 && tokens[start - 1].kind === 'text' && tokens[start - 1].to === edit.from) start--;
	let end = start;
	if (end < tokens.length && tokens[end].kind === 'text') end++;
	const textFrom = start < end ? tokens[start].from : edit.from;
	const textTo = (start < end ? tokens[end - 1].to : edit.to) + by;
	const next: Token[] = tokens.slice(0, start);
	if (textTo > textFrom) next.push({ kind: 'text', from: textFrom, to: textTo });
	for (let t = end; t < tokens.length; t++) {
		const token = tokens[t];
		next.push(
			token.kind === 'text'
				? { kind: 'text', from: token.from + by, to: token.to + by }
				: movedToken(token, by)
		);
	}
	return { source, tokens: next, issues: movedIssues(prev.issues, edit, by) };
}

/** Where the tokens and marks of a derived analysis are kept until read. */
const movesOf = new WeakMap<Analysis, Moved>();

function reanalyze(prev: Analysis, source: string, edit: Edit): Analysis {
	const by = edit.inserted - (edit.to - edit.from);
	const moved = (movesOf.get(prev) ?? new Moved(prev.tokenized.tokens, prev.marks)).after(edit);
	if (moved) {
		const tokenized: Tokenized = {
			source,
			tokens: [],
			issues: movedIssues(prev.tokenized.issues, edit, by)
		};
		whenRead(tokenized, 'tokens', () => moved.currentTokens());
		const analysis: Analysis = { tokenized, marks: [], issues: movedIssues(prev.issues, edit, by) };
		whenRead(analysis, 'marks', () => moved.currentMarks());
		movesOf.set(analysis, moved);
		return analysis;
	}
	const marks = prev.marks;
	const split = firstAt(marks, (m) => m.from, edit.to);
	const next = marks.slice(0, split);
	for (let m = split; m < marks.length; m++) next.push(movedMark(marks[m], by));
	return {
		tokenized: retokenize(prev.tokenized, source, edit),
		marks: next,
		issues: movedIssues(prev.issues, edit, by)
	};
}

function movedSubstitution(s: Substitution, out: number, by: number): Substitution {
	// Written out like expand's own, not spread: spreading is slow for the thousands shifted.
	const moved: Substitution = {
		from: s.from + out,
		to: s.to + out,
		sourceFrom: s.sourceFrom + by,
		sourceTo: s.sourceTo + by,
		key: s.key,
		encoding: s.encoding,
		status: s.status
	};
	if (s.breaks) moved.breaks = s.breaks;
	return moved;
}

/** The expansion of `source` (its old text with the local `edit`), from the old one's. */
function reexpand(prev: Expansion, source: string, edit: Edit): Expansion {
	const by = edit.inserted - (edit.to - edit.from);
	const subs = prev.substitutions;
	const split = firstAt(subs, (s) => s.sourceFrom, edit.to);
	// Literal text is copied as it is: the edit lands in the output at its offset in the text.
	const before = split > 0 ? subs[split - 1] : undefined;
	const from = before ? before.to + (edit.from - before.sourceTo) : edit.from;
	const to = from + (edit.to - edit.from);
	const inserted = edit.said?.text ?? source.slice(edit.from, edit.from + edit.inserted);
	const text = prev.text.slice(0, from) + inserted + prev.text.slice(to);
	// Said with its characters, read from the old text: what reads the new one's change (the
	// byte count, the preview's head) then leaves the new text, made of pieces, uncopied.
	noteEdit(prev.text, text, {
		from,
		to,
		inserted: edit.inserted,
		said: {
			text: inserted,
			removed: prev.text.slice(from, to),
			lead: prev.text.slice(Math.max(0, from - 1), from),
			next: prev.text.slice(to, to + 1)
		}
	});
	const next = subs.slice(0, split);
	for (let s = split; s < subs.length; s++) next.push(movedSubstitution(subs[s], by, by));
	return { text, substitutions: next, issues: movedIssues(prev.issues, edit, by) };
}

/** What a resolver answered for one key. */
interface Answer {
	value?: Value;
	status?: SubstitutionStatus;
}

function sameValue(a: Value | undefined, b: Value | undefined): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a.length !== b.length) return false;
	return a.every((p, i) => p.username === b[i].username && p.device === b[i].device);
}

interface Analysed {
	source: string;
	service: Service;
	field: string | undefined;
	/** The names as they were judged: a new one once the page knows more services. */
	vocabulary: Vocabulary;
	analysis: Analysis;
}

interface Expanded {
	tokenized: Tokenized;
	context: ExpandOptions['context'];
	raw: boolean;
	maskPassword: boolean;
	answers: Map<string, Answer>;
	expansion: Expansion;
}

/**
 * The analyses and expansions of one editor's fields, each kept under a slot name (the field,
 * and for an expansion also which one), from which the next ones are derived. Results are never
 * changed once returned: what they share with the next ones stays as it is.
 */
export class TemplateMemo {
	readonly #analyses = new Map<string, Analysed>();
	readonly #expansions = new Map<string, Expanded>();
	/** Which analysis a tokenization was derived from, and by which edit. */
	readonly #lineage = new WeakMap<Tokenized, { from: Tokenized; edit: Edit }>();

	/** {@link analyzeTemplate} of `source`, from the slot's previous one where the edit is local. */
	analyze(
		slot: string,
		source: string,
		service: Service,
		field: string | undefined,
		declared: readonly DeclaredAccountKey[]
	): Analysis {
		const kept = this.#analyses.get(slot);
		const vocabulary = vocabularyOf(service, declared);
		const same =
			kept?.service === service && kept.field === field && kept.vocabulary === vocabulary;
		if (same && kept.source === source) return kept.analysis;
		let analysis: Analysis | undefined;
		if (same) {
			const edit = editBetween(kept.source, source);
			if (isLocal(kept.source, source, edit)) {
				analysis = reanalyze(kept.analysis, source, edit);
				this.#lineage.set(analysis.tokenized, { from: kept.analysis.tokenized, edit });
			}
		}
		analysis ??= analyzeTemplate(source, service, field, declared);
		this.#analyses.set(slot, { source, service, field, vocabulary, analysis });
		return analysis;
	}

	/**
	 * {@link expand} of `tokenized`, from the slot's previous expansion when `tokenized` was
	 * derived from that one's tokens and every value it read is still the same.
	 */
	expand(slot: string, tokenized: Tokenized, options: ExpandOptions): Expansion {
		const kept = this.#expansions.get(slot);
		const raw = options.raw === true;
		const maskPassword = options.maskPassword === true;
		if (
			kept &&
			kept.context === options.context &&
			kept.raw === raw &&
			kept.maskPassword === maskPassword
		) {
			const lineage = this.#lineage.get(tokenized);
			const same = kept.tokenized === tokenized;
			if ((same || lineage?.from === kept.tokenized) && sameAnswers(kept.answers, options)) {
				const expansion = same
					? kept.expansion
					: reexpand(kept.expansion, tokenized.source, lineage!.edit);
				this.#expansions.set(slot, { ...kept, tokenized, expansion });
				return expansion;
			}
		}
		const answers = new Map<string, Answer>();
		const expansion = expand(tokenized, recording(options, answers));
		this.#expansions.set(slot, {
			tokenized,
			context: options.context,
			raw,
			maskPassword,
			answers,
			expansion
		});
		return expansion;
	}
}

/** The options, with each answer of `resolve` and `statusOf` written down in `answers`. */
function recording(options: ExpandOptions, answers: Map<string, Answer>): ExpandOptions {
	const answer = (key: string) => {
		let a = answers.get(key);
		if (!a) answers.set(key, (a = {}));
		return a;
	};
	const statusOf = options.statusOf;
	return {
		context: options.context,
		raw: options.raw,
		maskPassword: options.maskPassword,
		resolve: (key) => (answer(key).value = options.resolve(key)),
		statusOf: statusOf && ((key) => (answer(key).status = statusOf(key)))
	};
}

/**
 * Whether the values answer as they did: asked once per key, as an expansion asks, so a
 * resolver that notes what it was asked (names without a value) notes the same.
 */
function sameAnswers(answers: Map<string, Answer>, options: ExpandOptions): boolean {
	for (const [key, a] of answers) {
		if ('value' in a && !sameValue(options.resolve(key), a.value)) return false;
		if ('status' in a && options.statusOf?.(key) !== a.status) return false;
	}
	return true;
}
