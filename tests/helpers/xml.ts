import { DOMParser } from '@xmldom/xmldom';
import { XMLValidator } from 'fast-xml-parser';

/** A character outside XML 1.0's Char production (control characters, lone surrogates, U+FFFE). */
const NOT_XML_CHAR = /[^\t\n\r\u{20}-\u{D7FF}\u{E000}-\u{FFFD}\u{10000}-\u{10FFFF}]/u;

/**
 * Reads XML with a second parser, independent of the app's own reading (`@xmldom/xmldom`), and
 * throws on any warning or error it reports: what the app exports must be read by any parser.
 * xmldom lets a few faults through (a bare `&` before a space, a control character), so
 * fast-xml-parser's validator and XML 1.0's Char production check the same text too.
 */
export function readBySecondParser(xml: string): Document {
	const problems: string[] = [];
	let document: unknown = null;
	try {
		document = new DOMParser({
			onError: (level, message) => {
				problems.push(`${level}: ${message}`);
			}
		}).parseFromString(xml, 'text/xml');
	} catch (error) {
		problems.push(String(error));
	}
	const validated = XMLValidator.validate(xml);
	if (validated !== true) {
		const { msg, line, col } = validated.err;
		problems.push(`validator: ${msg} (line ${line}, column ${col})`);
	}
	const bad = NOT_XML_CHAR.exec(xml);
	if (bad) {
		const code = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
		problems.push(`U+${code} at offset ${bad.index} is not an XML character`);
	}
	if (problems.length > 0) {
		throw new Error(`A second XML parser refuses the XML:\n${problems.join('\n')}\n${xml}`);
	}
	return document as unknown as Document;
}

/** What an export answers: the document when it was written. */
type Exported = { ok: true; value: string } | { ok: false };

/**
 * Wraps an export so every document it writes is read by the second parser before the test sees
 * it (an export the second parser refuses fails the test where it was made).
 */
export function checkedBySecondParser<A extends unknown[], R extends Exported>(
	exportFn: (...args: A) => R
): (...args: A) => R {
	return (...args) => {
		const exported = exportFn(...args);
		const written: Exported = exported;
		if (written.ok) readBySecondParser(written.value);
		return exported;
	};
}
