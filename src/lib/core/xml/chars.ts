import type { Issue } from '../issues';

/** The characters XML 1.0 can carry, and the diagnostic for text that holds others. */

/**
 * Characters XML 1.0 cannot carry, even as character references: control characters other than
 * tab, LF and CR, lone surrogates, U+FFFE and U+FFFF (global: reset `lastIndex` before use).
 */
export const XML_INVALID =
	// eslint-disable-next-line no-control-regex -- control characters are what is refused
	/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const NOT_XML = new RegExp(XML_INVALID.source, 'g');
const NOT_XML_ONE = new RegExp(XML_INVALID.source);

/** True when XML 1.0 can carry this code point (the `Char` production of the XML spec). */
export function isXmlChar(cp: number): boolean {
	return (
		Number.isInteger(cp) && cp >= 0 && cp <= 0x10ffff && !NOT_XML_ONE.test(String.fromCodePoint(cp))
	);
}

/** Issues reported per field at most; the last one says how many more there are. */
const MAX_REPORTED = 20;

function codePoint(char: string): string {
	return `U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * One `xml_char_invalid` error per character of `text` that XML 1.0 cannot carry (control
 * characters other than tab, LF and CR, lone surrogates, U+FFFE, U+FFFF), each with a fix that
 * removes it. A setting holding one cannot be exported. At most 20 are reported per field.
 */
export function xmlCharIssues(text: string, field?: string): Issue[] {
	const issues: Issue[] = [];
	NOT_XML.lastIndex = 0;
	for (let match = NOT_XML.exec(text); match; match = NOT_XML.exec(text)) {
		const from = match.index;
		const to = from + match[0].length;
		if (issues.length === MAX_REPORTED) {
			const rest = text.slice(from).match(new RegExp(NOT_XML.source, 'g'))?.length ?? 0;
			issues[MAX_REPORTED - 1].message += ` ${rest} more such characters follow.`;
			break;
		}
		issues.push({
			code: 'xml_char_invalid',
			severity: 'error',
			message: `${codePoint(match[0])} cannot be written in XML 1.0, so this setting cannot be exported as XML: remove it.`,
			...(field !== undefined ? { field } : {}),
			from,
			to,
			fix: { label: `Remove ${codePoint(match[0])}`, from, to, insert: '' }
		});
	}
	return issues;
}

/** True when every character of `text` can be written in XML 1.0. */
export function isXmlText(text: string): boolean {
	NOT_XML.lastIndex = 0;
	return !NOT_XML.test(text);
}
