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

let unsettled: string | undefined;
/** The first character code of the last text settled: read, so that reading it is not skipped. */
export let settledCode = 0;

/**
 * Has the string {@link textAfter} made copied whole right after the frame that shows it. Made
 * of pieces, it is copied whole by whatever reads it first, which is the next key's `textAfter`,
 * on that key's way to the screen; copied between the keys, it is whole when the next one comes.
 * (The browser's idle callbacks come too seldom while keys come.) Only the latest text is.
 */
export function settleAfterFrame(text: string): void {
	if (text.length < SETTLE_MIN || typeof requestAnimationFrame !== 'function') return;
	const asked = unsettled !== undefined;
	unsettled = text;
	if (asked) return;
	requestAnimationFrame(() =>
		setTimeout(() => {
			settledCode = unsettled?.charCodeAt(0) ?? 0;
			unsettled = undefined;
		})
	);
}
