import { isXmlChar, XML_INVALID } from './chars';
import { tagEnd } from './spans';

/**
 * The well-formedness rules the parser's own validator lets through, checked on the whole text
 * before anything is read: characters XML 1.0 cannot carry, references to undeclared entities
 * or to characters it cannot carry, `]]>` in text, `<` in an attribute value, and `--` inside a
 * comment. A document that passes is one any XML parser reads the same way.
 */

/** What breaks the rules, and the offset where it starts. */
export interface StrictFault {
	message: string;
	offset: number;
}

const PREDEFINED = new Set(['lt', 'gt', 'amp', 'apos', 'quot']);
const REFERENCE = /^&(?:#x([0-9A-Fa-f]+)|#([0-9]+)|([A-Za-z_:][\w.:-]*));/;

function checkReferences(text: string, from: number, to: number): StrictFault | null {
	for (let i = text.indexOf('&', from); i !== -1 && i < to; i = text.indexOf('&', i + 1)) {
		const match = REFERENCE.exec(text.slice(i, Math.min(to, i + 40)));
		if (!match) {
			return { message: 'a “&” that starts no reference (write it as &amp;)', offset: i };
		}
		if (match[3] !== undefined && !PREDEFINED.has(match[3])) {
			return { message: `the entity &${match[3]}; is not defined in XML`, offset: i };
		}
		if (match[3] === undefined) {
			const cp = match[1] !== undefined ? parseInt(match[1], 16) : parseInt(match[2], 10);
			if (!isXmlChar(cp)) {
				return { message: `${match[0]} refers to a character XML 1.0 cannot carry`, offset: i };
			}
		}
	}
	return null;
}

function checkTag(text: string, start: number, end: number): StrictFault | null {
	let quote: string | null = null;
	let valueStart = 0;
	for (let i = start + 1; i < end - 1; i++) {
		const c = text[i];
		if (quote === null) {
			if (c === '"' || c === "'") {
				quote = c;
				valueStart = i + 1;
			}
			continue;
		}
		if (c === quote) {
			const fault = checkReferences(text, valueStart, i);
			if (fault) return fault;
			quote = null;
		} else if (c === '<') {
			return { message: 'a “<” inside an attribute value (write it as &lt;)', offset: i };
		}
	}
	return null;
}

function checkText(text: string, from: number, to: number): StrictFault | null {
	const end = text.indexOf(']]>', from);
	if (end !== -1 && end < to) {
		return { message: '“]]>” in text (write “]]&gt;”)', offset: end };
	}
	return checkReferences(text, from, to);
}

/** The first rule the text breaks, or null. */
export function strictFault(text: string): StrictFault | null {
	const invalid = new RegExp(XML_INVALID.source).exec(text);
	if (invalid) {
		const cp = invalid[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
		return { message: `the character U+${cp} cannot be carried by XML 1.0`, offset: invalid.index };
	}
	let i = 0;
	while (i < text.length) {
		const open = text.indexOf('<', i);
		const textEnd = open === -1 ? text.length : open;
		const fault = checkText(text, i, textEnd);
		if (fault) return fault;
		if (open === -1) break;
		if (text.startsWith('<!--', open)) {
			const close = text.indexOf('-->', open + 4);
			const end = close === -1 ? text.length : close;
			const dashes = text.indexOf('--', open + 4);
			if (dashes !== -1 && dashes < end) {
				return { message: '“--” inside a comment', offset: dashes };
			}
			i = close === -1 ? text.length : close + 3;
		} else if (text.startsWith('<![CDATA[', open)) {
			const close = text.indexOf(']]>', open + 9);
			i = close === -1 ? text.length : close + 3;
		} else if (text.startsWith('<?', open)) {
			const close = text.indexOf('?>', open + 2);
			i = close === -1 ? text.length : close + 2;
		} else {
			const end = tagEnd(text, open);
			const tagFault = checkTag(text, open, end);
			if (tagFault) return tagFault;
			i = end;
		}
	}
	return null;
}
