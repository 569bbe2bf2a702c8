import { EditorState, type TransactionSpec } from '@codemirror/state';
import type { ViewUpdate } from '@codemirror/view';
import { describe, expect, it } from 'vitest';
import { editBetween } from '$lib/core/format/edits';
import { sayEdit } from './said-edit';
import { externalChange } from './single-line';

/** The update a view gets for one transaction on `doc`, and the texts before and after it. */
function update(doc: string, spec: TransactionSpec) {
	const startState = EditorState.create({ doc });
	const tr = startState.update(spec);
	const view = { startState, state: tr.state, changes: tr.changes, transactions: [tr] };
	return { before: doc, after: tr.state.doc.toString(), view: view as unknown as ViewUpdate };
}

describe('sayEdit', () => {
	it('says a key typed, with the characters around it as the old text holds them', () => {
		const { before, after, view } = update('ab\ncd%x%ef', {
			changes: { from: 4, to: 5, insert: 'Q' }
		});
		sayEdit(before, after, view);
		expect(editBetween(before, after)).toEqual({
			from: 4,
			to: 5,
			inserted: 1,
			said: { text: 'Q', removed: 'd', lead: '\nc', next: '%' }
		});
	});

	it('says nothing of several changes, of a value written in, or of a text not the old one', () => {
		const cases = [
			update('abcdef', {
				changes: [
					{ from: 1, insert: 'x' },
					{ from: 4, insert: 'y' }
				]
			}),
			update('abcdef', { changes: { from: 1, insert: 'x' }, annotations: externalChange.of(true) })
		];
		for (const { before, after, view } of cases) {
			sayEdit(before, after, view);
			expect(editBetween(before, after).said).toBeUndefined();
		}
		const { after, view } = update('abcdef', { changes: { from: 1, insert: 'x' } });
		sayEdit('abcde', after, view);
		expect(editBetween('abcde', after).said).toBeUndefined();
	});
});
