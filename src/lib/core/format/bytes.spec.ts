import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length } from './bytes';

describe('utf8Length', () => {
	it('counts 1 to 4 bytes per character, and 3 for a lone surrogate (sent as U+FFFD)', () => {
		expect(utf8Length('a')).toBe(1);
		expect(utf8Length('é')).toBe(2);
		expect(utf8Length('€')).toBe(3);
		expect(utf8Length('🎉')).toBe(4);
		expect(utf8Length('\uD800x')).toBe(4);
	});

	it('agrees with TextEncoder for long texts edited one after the other, surrogates split or not', () => {
		const encoded = (text: string) => new TextEncoder().encode(text).length;
		const edit = fc.record({
			at: fc.nat(),
			remove: fc.nat({ max: 40 }),
			insert: fc.string({ unit: 'binary', maxLength: 6 }),
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
					for (const { at, remove, insert, other } of edits) {
						const from = at % (text.length + 1);
						text = text.slice(0, from) + insert + text.slice(from + remove);
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

	it('agrees with TextEncoder for any text', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary' }), (text) => {
				expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
			})
		);
	});
});
