import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha1Hex } from './sha1';

/** SHA-1 of the UTF-8 bytes of the string, lone surrogates written as U+FFFD (as TextEncoder). */
function reference(text: string): string {
	return createHash('sha1').update(Buffer.from(text.toWellFormed(), 'utf8')).digest('hex');
}

describe('sha1Hex', () => {
	it.each([
		['the empty string', '', 'da39a3ee5e6b4b0d3255bfef95601890afd80709'],
		['"abc"', 'abc', 'a9993e364706816aba3e25717850c26c9cd0d89d'],
		[
			'the 448-bit NIST vector',
			'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
			'84983e441c3bd26ebaae4aa1f95129e5e54670f1'
		],
		['1,000,000 × "a"', 'a'.repeat(1_000_000), '34aa973cd4c4daa4f61eeb2bdbad27316534016f'],
		['multi-byte UTF-8', 'é€😀 p@ss word&1', null],
		['a lone surrogate', 'a\uD800b', null]
	])('hashes %s as node:crypto does', (_, text, known) => {
		const expected = reference(text);
		if (known) expect(expected).toBe(known);
		expect(sha1Hex(text)).toBe(expected);
	});

	it.each([55, 56, 63, 64, 65, 119, 120, 128])(
		'hashes %i bytes (around the padding boundaries) as node:crypto does',
		(length) => {
			const text = 'x'.repeat(length);
			expect(sha1Hex(text)).toBe(reference(text));
		}
	);

	it('encodes a lone surrogate as U+FFFD, the way TextEncoder does', () => {
		expect(new TextEncoder().encode('\uD800')).toEqual(new TextEncoder().encode('\uFFFD'));
		expect(sha1Hex('\uD800')).toBe(sha1Hex('\uFFFD'));
	});

	it('agrees with node:crypto on the UTF-8 bytes of any string', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary' }), (text) => {
				// The reference hashes exactly the bytes sha1Hex hashes.
				const bytes = new Uint8Array(Buffer.from(text.toWellFormed(), 'utf8'));
				expect(bytes).toEqual(new TextEncoder().encode(text));
				expect(sha1Hex(text)).toBe(reference(text));
			})
		);
	});

	it('gives 40 lowercase hex digits', () => {
		fc.assert(
			fc.property(fc.string(), (text) => {
				expect(sha1Hex(text)).toMatch(/^[0-9a-f]{40}$/);
			})
		);
	});
});
