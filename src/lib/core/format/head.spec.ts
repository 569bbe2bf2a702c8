import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { missaid, saidEdit } from '../../../../tests/helpers/said-edits';
import { Head } from './head';

describe('Head', () => {
	it('is the start of each text, edits said or not, near the start, across its end or after', () => {
		const edit = fc.record({
			// Most edits land near the start, where the head is, and some anywhere.
			at: fc.oneof(fc.nat({ max: 300 }), fc.nat()),
			remove: fc.oneof(fc.nat({ max: 8 }), fc.nat({ max: 400 })),
			insert: fc.string({ unit: 'binary', maxLength: 300 }),
			said: fc.boolean()
		});
		fc.assert(
			fc.property(
				fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
				fc.array(edit, { minLength: 1, maxLength: 30 }),
				fc.integer({ min: 20, max: 500 }),
				(unit, edits, length) => {
					const head = new Head();
					let text = unit.repeat(Math.ceil(600 / unit.length));
					expect(head.of(text, length)).toBe(text.slice(0, length));
					for (const { at, remove, insert, said } of edits) {
						const from = at % (text.length + 1);
						text = said
							? saidEdit(text, from, remove, insert)
							: text.slice(0, from) + insert + text.slice(from + remove);
						expect(head.of(text, length)).toBe(text.slice(0, length));
					}
				}
			),
			{ numRuns: 300 }
		);
	});

	it('derives the start from the said change, without reading the new text', () => {
		const head = new Head();
		const before = 'a'.repeat(100_000);
		expect(head.of(before, 64)).toBe('a'.repeat(64));
		// Said to put in "é"; the text itself has "x" there: the head follows what was said.
		const after = missaid(before, 10, 'x', 'é');
		expect(head.of(after, 64)).toBe(`${'a'.repeat(10)}é${'a'.repeat(53)}`);
	});
});
