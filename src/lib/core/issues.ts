/**
 * Problems in user input are values, never exceptions. Every module of the core reports them in
 * this one shape so the editor, the preview, the API and the server print them the same way.
 */

/** How bad a problem is: errors block a correct request, warnings deserve a look. */
export type Severity = 'error' | 'warning' | 'info';

/**
 * One problem found in user input.
 *
 * `from`/`to` are UTF-16 offsets into the text of `field` (a configuration key such as
 * `genericSmsSendUrl`) when the problem has a place; `fix` is a replacement the editor can
 * offer as a quick fix.
 */
export interface Issue {
	code: string;
	severity: Severity;
	message: string;
	field?: string;
	from?: number;
	to?: number;
	fix?: { label: string; from: number; to: number; insert: string };
}

/**
 * Adds `items` to the end of `target`. Unlike `target.push(...items)`, which passes every item
 * as an argument, any number is fine: a megabyte template can hold a few hundred thousand
 * placeholders, each with an issue, and that many arguments overflow the call stack.
 */
export function append<T>(target: T[], items: readonly T[]): void {
	for (let i = 0; i < items.length; i++) target.push(items[i]);
}

/**
 * How many issues of one kind at one name a check lists; the last one listed says how many more
 * follow. A megabyte template can repeat one misspelt name tens of thousands of times: listing
 * each would bury every other issue and cost the editor a few hundred milliseconds a keystroke.
 */
export const MAX_REPEATS = 20;

/**
 * How many issues of one kind a check lists, whatever their names: a generated template can
 * hold a hundred thousand different unknown names.
 */
export const MAX_OF_A_KIND = 200;

/** What is counted of one key or one kind: how many there were, and where the last listed is. */
interface Tally {
	count: number;
	at: number;
}

/**
 * Lists at most {@link MAX_REPEATS} issues per key (a kind of issue at one name) and at most
 * {@link MAX_OF_A_KIND} per kind into one list; the rest are counted. Issues it lists are not
 * changed: the last one listed of a key or kind that had more is replaced in the list by a copy
 * that says how many more there were.
 */
export class Repeats {
	readonly #keys = new Map<string, Tally>();
	readonly #kinds = new Map<string, Tally & { over: number }>();

	constructor(private readonly into: Issue[]) {}

	/**
	 * Adds the issue `make` gives, unless its key or its kind has had its share: then it is
	 * counted and `make` is not called.
	 */
	add(kind: string, key: string, make: () => Issue): void {
		const seen = this.#keys.get(key);
		if (seen && seen.count >= MAX_REPEATS) {
			seen.count++;
			return;
		}
		const ofKind = this.#kinds.get(kind);
		if (!seen && ofKind && ofKind.count >= MAX_OF_A_KIND) {
			ofKind.over++;
			return;
		}
		this.into.push(make());
		const at = this.into.length - 1;
		if (seen) {
			seen.count++;
			seen.at = at;
		} else this.#keys.set(key, { count: 1, at });
		if (ofKind) {
			ofKind.count++;
			ofKind.at = at;
		} else this.#kinds.set(kind, { count: 1, at, over: 0 });
	}

	/**
	 * Adds each of `issues`, of its code's kind, keyed by its code and message (which names its
	 * place's name); with `field`, as a copy naming that field.
	 */
	addAll(issues: readonly Issue[], field?: string): void {
		for (const issue of issues) {
			const make = field === undefined ? () => issue : () => ({ ...issue, field });
			this.add(issue.code, `${issue.code}|${issue.message}`, make);
		}
	}

	/** Says, on the last issue listed of each key and kind, how many more were not listed. */
	finish(): void {
		const notes: Record<number, string> = {};
		const note = (at: number, more: number, what: string) => {
			const text = `${more.toLocaleString('en')} more ${what} follow`;
			notes[at] = notes[at] ? `${notes[at]}; ${text}` : text;
		};
		for (const { count, at } of this.#keys.values()) {
			if (count > MAX_REPEATS) note(at, count - MAX_REPEATS, 'like it');
		}
		for (const { over, at } of this.#kinds.values()) {
			if (over > 0) note(at, over, 'of this kind at other names');
		}
		for (const at in notes) {
			const last = this.into[at];
			this.into[at] = { ...last, message: `${last.message} ${notes[at]}, not listed one by one.` };
		}
	}
}

/** A line and column (both 1-based) for an offset, for messages that name a place. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
	let line = 1;
	let lineStart = 0;
	const end = Math.min(Math.max(offset, 0), text.length);
	for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
		line++;
		lineStart = i + 1;
	}
	return { line, column: end - lineStart + 1 };
}

/** `{ ok: true, value } | { ok: false, issues }`, the shape of zod's `safeParse`. */
export type Result<T> = { ok: true; value: T; issues: Issue[] } | { ok: false; issues: Issue[] };
