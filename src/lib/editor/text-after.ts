import type { Text } from '@codemirror/state';
import type { ViewUpdate } from '@codemirror/view';

/**
 * The editor's text after `update`, as a string. Where `before` is the text of the document the
 * update started from (`same`) and the update made one change, it is that text with the change
 * put in: two slices of it and the inserted text, no copy of the whole. Reading the document out
 * (`toString`) joins every line of it again, which at a megabyte costs more than the key itself.
 */
export function textAfter(before: string | undefined, same: boolean, update: ViewUpdate): string {
	let change: { from: number; to: number; text: string } | null | undefined;
	if (before !== undefined && same) {
		update.changes.iterChanges((from, to, _fromB, _toB, inserted) => {
			change = change === undefined ? { from, to, text: inserted.toString() } : null;
		});
	}
	if (!change) return update.state.doc.toString();
	return before!.slice(0, change.from) + change.text + before!.slice(change.to);
}

/** The text of each document the editor has read or written as a string. */
const texts = new WeakMap<Text, string>();

/**
 * Says that `text` is `doc`'s text, so that what reads the document later (the lint) takes the
 * string instead of joining every line of it again.
 */
export function rememberText(doc: Text, text: string): void {
	texts.set(doc, text);
}

/** The text {@link rememberText} was told of `doc`, if any. */
export function knownText(doc: Text): string | undefined {
	return texts.get(doc);
}

/** Below this length a text is copied whole at once by the next key, as it costs next to nothing. */
const SETTLE_MIN = 64 * 1024;

/** The latest text of each slot to be settled (an editor's, an expanded body's). */
const unsettled = new Map<string, string>();
/** The first character codes of the last texts settled: read, so that reading is not skipped. */
export let settledCode = 0;

/**
 * Has a string made of pieces, as {@link textAfter} and a derived expansion make them, copied
 * whole right after the frame that shows it. Made of pieces, it is copied whole by whatever reads
 * it first, which is the next key's `textAfter` or expansion, on that key's way to the screen;
 * copied between the keys, it is whole when the next one comes. (The browser's idle callbacks
 * come too seldom while keys come.) Only the latest text of each `slot` is.
 */
export function settleAfterFrame(text: string, slot = 'editor'): void {
	if (text.length < SETTLE_MIN || typeof requestAnimationFrame !== 'function') return;
	const asked = unsettled.size > 0;
	unsettled.set(slot, text);
	if (asked) return;
	requestAnimationFrame(() =>
		setTimeout(() => {
			let codes = 0;
			for (const text of unsettled.values()) codes += text.charCodeAt(0);
			settledCode = codes;
			unsettled.clear();
		})
	);
}
