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

	it('agrees with TextEncoder for any text', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary' }), (text) => {
				expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
			})
		);
	});
});
