import { invalidUtf8 } from '../format/bytes';
import { lineColumn, type Issue } from '../issues';

/** Bytes to text for imports: strict UTF-8, and a refusal that says where the bad byte is. */

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
