import type { ViewUpdate } from '@codemirror/view';
import { noteEdit, type Edit } from '$lib/core/format/edits';
import { externalChange } from './single-line';

/** How much of the text before an edit is said at most; a line break before it ends it. */
const LEAD = 256;

/**
 * Says the one change an update made to `before` (the text last emitted or written in, the
 * document as the update found it), so that the preview's analysis and expansion read what it
 * changed, from the editor's own document, and neither text whole.
 */
export function sayEdit(before: string | undefined, after: string, update: ViewUpdate): void {
	const doc = update.startState.doc;
	if (before?.length !== doc.length) return;
	if (update.transactions.some((t) => t.annotation(externalChange))) return;
	let edit: Edit | null | undefined;
	update.changes.iterChanges((from, to, _fromB, toB, text) => {
		const leadFrom = Math.max(0, doc.lineAt(from).from - 1, from - LEAD);
		edit =
			edit === undefined
				? {
						from,
						to,
						inserted: toB - from,
						said: {
							text: text.toString(),
							removed: doc.sliceString(from, to),
							lead: doc.sliceString(leadFrom, from),
							next: doc.sliceString(to, to + 1)
						}
					}
				: null;
	});
	if (edit) noteEdit(before, after, edit);
}
