import { encodingForContentType } from '../template/encode';
import { readStrict } from '../xml/strict';

/**
 * Indented views of JSON and XML bodies, for reading only: the bytes sent are always the exact
 * text. Nothing is parsed into values and printed back, so numbers, escapes and string contents
 * stay exactly as written; only whitespace between tokens changes.
 */

/** Above this size a body is shown as it is: indenting it would cost more than it helps. */
export const PRETTY_LIMIT = 2 * 1024 * 1024;

/** JSON with two-space indentation; null when the text is not valid JSON. */
export function prettyJson(text: string): string | null {
	try {
		JSON.parse(text);
	} catch {
		return null;
	}
	let out = '';
	let depth = 0;
	let inString = false;
	const newline = () => '\n' + '  '.repeat(depth);
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (inString) {
			out += c;
			if (c === '\\') out += text[++i];
			else if (c === '"') inString = false;
			continue;
		}
		if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue;
		if (c === '"') {
			inString = true;
			out += c;
		} else if (c === '{' || c === '[') {
			const close = c === '{' ? '}' : ']';
			const next = nextSignificant(text, i + 1);
			if (text[next] === close) {
				out += c + close;
				i = next;
				continue;
			}
			depth++;
			out += c + newline();
		} else if (c === '}' || c === ']') {
			depth--;
			out += newline() + c;
		} else if (c === ',') {
			out += ',' + newline();
		} else if (c === ':') {
			out += ': ';
		} else {
			out += c;
		}
	}
	return out;
}

function nextSignificant(text: string, from: number): number {
	let i = from;
	while (i < text.length && /\s/.test(text[i])) i++;
	return i;
}

const XML_PARTS = /<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<[^>]*>|[^<]+/g;

/** XML with one element per line, indented by two spaces; null when it is not well-formed. */
export function prettyXml(text: string): string | null {
	// Only what the product's one strict XML reading accepts is indented.
	if (!readStrict(text, { maxDepth: Number.MAX_SAFE_INTEGER }).ok) return null;
	const lines: string[] = [];
	let depth = 0;
	// What the last line holds: an open tag (text or its end tag may follow on the same line).
	let openLine = false;
	for (const part of text.match(XML_PARTS) ?? []) {
		if (!part.startsWith('<') || part.startsWith('<![CDATA[')) {
			if (part.trim() === '') continue;
			if (openLine) lines[lines.length - 1] += part;
			else lines.push('  '.repeat(depth) + part.trim());
		} else if (part.startsWith('</')) {
			depth = Math.max(0, depth - 1);
			if (openLine) lines[lines.length - 1] += part;
			else lines.push('  '.repeat(depth) + part);
			openLine = false;
		} else if (part.startsWith('<?') || part.startsWith('<!') || part.endsWith('/>')) {
			lines.push('  '.repeat(depth) + part);
			openLine = false;
		} else {
			lines.push('  '.repeat(depth) + part);
			depth++;
			openLine = true;
		}
	}
	return lines.join('\n');
}

/** The indented view of a body for its content type; null when there is none to offer. */
export function prettyBody(text: string, contentType: string | null | undefined): string | null {
	if (text.length === 0 || text.length > PRETTY_LIMIT) return null;
	const encoding = encodingForContentType(contentType);
	if (encoding === 'json') return prettyJson(text);
	if (encoding === 'xml') return prettyXml(text);
	return null;
}
