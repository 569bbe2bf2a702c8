import { noteEdit } from '../../src/lib/core/format/edits';

/**
 * `text` with `remove` characters at `from` replaced by `insert`, the change said as a derived
 * expansion says it: with its characters, read from the old text.
 */
export function saidEdit(text: string, from: number, remove: number, insert: string): string {
	const to = Math.min(text.length, from + remove);
	const after = text.slice(0, from) + insert + text.slice(to);
	noteEdit(text, after, {
		from,
		to,
		inserted: insert.length,
		said: {
			text: insert,
			removed: text.slice(from, to),
			lead: text.slice(Math.max(0, from - 1), from),
			next: text.slice(to, to + 1)
		}
	});
	return after;
}

/**
 * `text` with `actual` put in at `at`, said to have `said` put in there instead: what reads the
 * change from what was said, not from the new text, tells by following the lie.
 */
export function missaid(text: string, at: number, actual: string, said: string): string {
	const after = text.slice(0, at) + actual + text.slice(at);
	noteEdit(text, after, {
		from: at,
		to: at,
		inserted: actual.length,
		said: {
			text: said,
			removed: '',
			lead: text.slice(Math.max(0, at - 1), at),
			next: text.charAt(at)
		}
	});
	return after;
}
