import { describe, expect, it } from 'vitest';
import { decodeXmlBytes } from './decode';

const bytes = (...parts: (string | number[])[]) =>
	new Uint8Array(
		parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p))
	);

describe('decodeXmlBytes', () => {
	it('decodes UTF-8, emoji included, and drops a BOM', () => {
		expect(decodeXmlBytes(bytes([0xef, 0xbb, 0xbf], '<a>é 🎉</a>'))).toEqual({
			ok: true,
			text: '<a>é 🎉</a>'
		});
	});

	it.each([
		{ what: 'a Latin-1 byte', input: bytes('<a>\n caf', [0xe9], '</a>'), at: 'line 2, column 5' },
		{ what: 'a truncated sequence', input: bytes('<a>', [0xf0, 0x9f], '</a>'), at: 'column 4' },
		{ what: 'an overlong slash', input: bytes('<a>', [0xc0, 0xaf], '</a>'), at: 'column 4' },
		{
			what: 'an encoded surrogate',
			input: bytes('<a>', [0xed, 0xa0, 0x80], '</a>'),
			at: 'column 4'
		},
		{ what: 'a code point above U+10FFFF', input: bytes([0xf4, 0x90, 0x80, 0x80]), at: 'column 1' }
	])('refuses $what with its line and column', ({ input, at }) => {
		const result = decodeXmlBytes(input);
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.issue.code).toBe('xml_encoding');
		expect(result.issue.message).toContain(at);
	});

	it('refuses a declaration of another encoding, and accepts utf-8 in any case', () => {
		const latin = decodeXmlBytes(bytes('<?xml version="1.0" encoding="windows-1252"?><a/>'));
		expect(latin.ok || latin.issue.message).toContain('windows-1252');
		expect(decodeXmlBytes(bytes("<?xml version='1.0' encoding='Utf-8'?><a/>")).ok).toBe(true);
	});
});
