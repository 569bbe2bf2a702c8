import {
	Annotation,
	ChangeSet,
	EditorState,
	Prec,
	Transaction,
	type ChangeSpec,
	type Extension
} from '@codemirror/state';
import { keymap } from '@codemirror/view';

/**
 * Single-line template fields (URLs, content types): Enter inserts no line break, and line
 * breaks in pasted or dropped text are removed, with a notice saying how many. A URL wrapped
 * by a mail client is one URL again; a value set from outside the editor is left as it is.
 */

/** Marks a change made from outside the editor (the stored value changed): never rewritten. */
export const externalChange = Annotation.define<boolean>();

const LINE_BREAK = /\r\n|\r|\n/g;

/** What the single-line filter did to a paste: how many line breaks it removed. */
export type LineBreakNotice = (removed: number) => void;

/** Keeps a field on one line; `onRemoved` hears of line breaks removed from a paste or drop. */
export function singleLine(onRemoved: LineBreakNotice = () => {}): Extension {
	return [
		// Completion accepts with Enter at a higher precedence, so this only stops a new line.
		Prec.high(keymap.of([{ key: 'Enter', run: () => true, shift: () => true }])),
		EditorState.transactionFilter.of((tr) => {
			if (!tr.docChanged || tr.annotation(externalChange)) return tr;
			let removed = 0;
			const changes: ChangeSpec[] = [];
			tr.changes.iterChanges((from, to, _fromB, _toB, inserted) => {
				const text = inserted.sliceString(0, inserted.length, '\n');
				const flat = text.replace(LINE_BREAK, () => {
					removed++;
					return '';
				});
				changes.push({ from, to, insert: flat });
			});
			if (removed === 0) return tr;
			if (tr.isUserEvent('input.paste') || tr.isUserEvent('input.drop')) onRemoved(removed);
			const set = ChangeSet.of(changes, tr.startState.doc.length);
			return {
				changes: set,
				selection: tr.startState.selection.map(set, 1),
				userEvent: tr.annotation(Transaction.userEvent),
				scrollIntoView: tr.scrollIntoView
			};
		})
	];
}
