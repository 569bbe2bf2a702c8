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
