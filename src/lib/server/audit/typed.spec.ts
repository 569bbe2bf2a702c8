import { describe, expect, it } from 'vitest';
import { typedTextHash } from './typed';

const KEY = Buffer.alloc(32, 7);

describe('typedTextHash', () => {
	it('is the same for the same text, whatever its case and surrounding spaces', () => {
		expect(typedTextHash(KEY, ' Summer@2024!Secret ')).toBe(
			typedTextHash(KEY, 'summer@2024!secret')
		);
	});

	it('differs with the text and with the key, and does not hold the text', () => {
		const hash = typedTextHash(KEY, 'Summer@2024!Secret');
		expect(hash).toMatch(/^hmac-sha256:[0-9a-f]{16}$/);
		expect(typedTextHash(KEY, 'Summer@2024!Secret2')).not.toBe(hash);
		expect(typedTextHash(Buffer.alloc(32, 8), 'Summer@2024!Secret')).not.toBe(hash);
	});
});
