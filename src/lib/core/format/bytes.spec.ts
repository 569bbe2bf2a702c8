import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length } from './bytes';
import { missaid, saidEdit } from '../../../../tests/helpers/said-edits';

describe('utf8Length', () => {
	it('counts 1 to 4 bytes per character, and 3 for a lone surrogate (sent as U+FFFD)', () => {
		expect(utf8Length('a')).toBe(1);
		expect(utf8Length('é')).toBe(2);
		expect(utf8Length('€')).toBe(3);
		expect(utf8Length('🎉')).toBe(4);
		expect(utf8Length('\uD800x')).toBe(4);
	});

	it('agrees with TextEncoder for long texts edited one after the other, said or not, surrogates split or not', () => {
		const encoded = (text: string) => new TextEncoder().encode(text).length;
		const edit = fc.record({
			at: fc.nat(),
			remove: fc.nat({ max: 40 }),
			insert: fc.string({ unit: 'binary', maxLength: 6 }),
			// Said as a derived expansion says its changes, or found by comparing.
			said: fc.boolean(),
			// Now and then an unrelated text is counted between two edits.
			other: fc.option(fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }), { freq: 5 })
		});
		fc.assert(
			fc.property(
				fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
				fc.array(edit, { minLength: 1, maxLength: 12 }),
				(unit, edits) => {
					let text = unit.repeat(Math.ceil(20_000 / unit.length));
					expect(utf8Length(text)).toBe(encoded(text));
					for (const { at, remove, insert, said, other } of edits) {
						const from = at % (text.length + 1);
						text = said
							? saidEdit(text, from, remove, insert)
							: text.slice(0, from) + insert + text.slice(from + remove);
						if (other !== null) {
							const unrelated = other.repeat(Math.ceil(20_000 / other.length));
							expect(utf8Length(unrelated)).toBe(encoded(unrelated));
						}
						expect(utf8Length(text)).toBe(encoded(text));
					}
				}
			),
			{ numRuns: 300 }
		);
	});

	it('counts a said edit from what was said, without reading the new text', () => {
		const before = 'a'.repeat(20_000);
		expect(utf8Length(before)).toBe(20_000);
		// Said to put in "é"; the text itself has "x" there: the count follows what was said.
		const after = missaid(before, 10, 'x', 'é');
		expect(utf8Length(after)).toBe(20_002);
	});

	it('agrees with TextEncoder for any text', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary' }), (text) => {
				expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
			})
		);
	});
});
