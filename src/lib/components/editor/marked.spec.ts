import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Substitution } from '$lib/core/template';
import { marksWithin } from './marked';

function substitution(from: number, to: number): Substitution {
	return { from, to, sourceFrom: from, sourceTo: to, key: 'k', encoding: 'json', status: 'value' };
}

describe('marksWithin', () => {
	it('gives exactly the substitutions a filter on their end gives, for any length', () => {
		fc.assert(
			fc.property(
				fc.array(fc.tuple(fc.nat({ max: 5 }), fc.nat({ max: 5 })), { maxLength: 40 }),
				fc.nat({ max: 300 }),
				(gaps, length) => {
					// Values in output order: a gap of text, then a value (possibly empty).
					const subs: Substitution[] = [];
					let at = 0;
					for (const [gap, size] of gaps) {
						subs.push(substitution(at + gap, at + gap + size));
						at += gap + size;
					}
					expect(marksWithin(subs, length)).toEqual(subs.filter((s) => s.to <= length));
				}
			)
		);
	});

	it('gives the same list when every substitution is within', () => {
		const subs = [substitution(0, 2), substitution(3, 5)];
		expect(marksWithin(subs, 5)).toBe(subs);
		expect(marksWithin([], 10)).toEqual([]);
	});
});
