import { lineColumn, type Issue } from '../issues';

/** Bytes to text for imports: strict UTF-8, and a refusal that says where the bad byte is. */

/** The offset of the first byte that is not well-formed UTF-8, or -1. */
function firstInvalidByte(bytes: Uint8Array): number {
	let i = 0;
	while (i < bytes.length) {
		const b = bytes[i];
		if (b < 0x80) {
			i++;
			continue;
		}
		let length: number;
		let min: number;
		let max = 0xbf;
		if (b >= 0xc2 && b <= 0xdf) [length, min] = [2, 0x80];
		else if (b >= 0xe0 && b <= 0xef) {
			length = 3;
			// No overlong forms (E0 80..9F) and no surrogates (ED A0..BF).
			min = b === 0xe0 ? 0xa0 : 0x80;
			if (b === 0xed) max = 0x9f;
		} else if (b >= 0xf0 && b <= 0xf4) {
			length = 4;
			min = b === 0xf0 ? 0x90 : 0x80;
			if (b === 0xf4) max = 0x8f;
		} else return i;
		for (let k = 1; k < length; k++) {
			const c = bytes[i + k];
			if (c === undefined || c < (k === 1 ? min : 0x80) || c > (k === 1 ? max : 0xbf)) return i;
		}
		i += length;
	}
	return -1;
}

/**
 * Where bytes stop being UTF-8 (`byte 0xED at offset 5 (line 1, column 6)`), or null when they
 * are all UTF-8.
 */
export function invalidUtf8(bytes: Uint8Array): string | null {
	const bad = firstInvalidByte(bytes);
	if (bad === -1) return null;
	const before = new TextDecoder('utf-8').decode(bytes.subarray(0, bad));
	const at = lineColumn(before, before.length);
	const hex = bytes[bad].toString(16).toUpperCase().padStart(2, '0');
	return `byte 0x${hex} at offset ${bad} (line ${at.line}, column ${at.column})`;
}

const DECLARED = /^\s*<\?xml\s[^>]*\bencoding\s*=\s*["']([^"']*)["']/;

/**
 * Decodes uploaded or posted XML bytes as UTF-8 (a BOM is dropped). Bytes that are not UTF-8, or
 * a declaration naming another encoding, are refused (`xml_encoding`) with the line and column.
 */
export function decodeXmlBytes(
	bytes: Uint8Array
): { ok: true; text: string } | { ok: false; issue: Issue } {
	const bad = invalidUtf8(bytes);
	if (bad !== null) {
		return {
			ok: false,
			issue: {
				code: 'xml_encoding',
				severity: 'error',
				message: `The XML is not valid UTF-8: ${bad}. Save the file as UTF-8 and try again.`
			}
		};
	}
	const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	const match = DECLARED.exec(text);
	const declared = match?.[1];
	if (match && declared !== undefined && !/^utf-?8$/i.test(declared)) {
		const at = lineColumn(text, match[0].length - declared.length);
		return {
			ok: false,
			issue: {
				code: 'xml_encoding',
				severity: 'error',
				message: `The XML declares encoding "${declared}" (line ${at.line}, column ${at.column}); only UTF-8 is read. Save the file as UTF-8 and change the declaration.`
			}
		};
	}
	return { ok: true, text };
}
