import { lineColumn, type Issue } from '../issues';
import type { XmlElement } from './element';
import type { ElementSpan } from './spans';
import { readStrict } from './strict';

/**
 * Safe XML reading for response bodies and imports, through the one strict reading of
 * `strict.ts`: well-formed XML 1.0 only, DOCTYPE refused (no entity tricks), values kept as
 * strings (`007` stays `007`), nesting bounded, every failure a typed issue with line and column.
 * The result is a plain element tree built from fresh objects.
 */

/** Limits of {@link parseXml}. */
export interface XmlLimits {
	maxDepth: number;
	maxBytes: number;
}

/** Defaults: 100 levels, 8 MiB. */
export const DEFAULT_XML_LIMITS: XmlLimits = { maxDepth: 100, maxBytes: 8 * 1024 * 1024 };

/** Options of {@link parseXml}. */
export interface XmlParseOptions {
	/**
	 * Read a fragment: one or more elements with no single root (and nothing but whitespace,
	 * comments and processing instructions between them), as the children of a root named
	 * {@link FRAGMENT_ROOT}. A leading XML declaration is allowed.
	 */
	fragment?: boolean;
}

/** The name of the root element a fragment is read into. */
export const FRAGMENT_ROOT = 'fragment-root';

const FRAGMENT_OPEN = `<${FRAGMENT_ROOT}>`;
const FRAGMENT_CLOSE = `</${FRAGMENT_ROOT}>`;

/** An XML declaration opening the text (`<?xml` and a space or `?`, not `<?xml-stylesheet`). */
const DECLARATION = /^<\?xml[\s?]/;

type Failure = { ok: false; issue: Issue };

function failAt(code: string, message: string, line: number, column: number): Failure {
	return {
		ok: false,
		issue: { code, severity: 'error', message: `${message} (line ${line}, column ${column})` }
	};
}

/** The outcome of {@link parseXml}: the root element, where it is, and the text that was read. */
export type XmlParseResult =
	| {
			ok: true;
			root: XmlElement;
			span: ElementSpan;
			source: string;
			/** The line and column, in the text that was given, of an offset in `source`. */
			place: (offset: number) => { line: number; column: number };
	  }
	| Failure;

/**
 * Parses an XML document into its root element, or an issue saying what is wrong and where.
 * `source` is the text as read: line breaks normalised to LF as XML requires (a CR survives only
 * as `&#13;`), a leading byte order mark dropped, and for a fragment, wrapped in its root (after
 * the XML declaration, if any). `span` places the root and its descendants in `source`.
 */
export function parseXml(
	input: string,
	limits: XmlLimits = DEFAULT_XML_LIMITS,
	options: XmlParseOptions = {}
): XmlParseResult {
	if (input.length > limits.maxBytes) {
		return failAt('xml_too_large', `The XML is larger than ${limits.maxBytes} bytes`, 1, 1);
	}
	const text = input.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
	if (!options.fragment) return readXml(text, text, limits, (offset) => offset);
	// The wrapper goes after the declaration, which may only open a document.
	const declarationClose = text.indexOf('?>');
	const declarationEnd = !DECLARATION.test(text)
		? 0
		: declarationClose === -1
			? text.length
			: declarationClose + 2;
	const source =
		text.slice(0, declarationEnd) + FRAGMENT_OPEN + text.slice(declarationEnd) + FRAGMENT_CLOSE;
	const shift = FRAGMENT_OPEN.length;
	const inText = (offset: number) =>
		offset < declarationEnd
			? offset
			: Math.min(text.length, Math.max(declarationEnd, offset - shift));
	return readXml(source, text, limits, inText, true);
}

/**
 * Reads `source` strictly. Faults are placed in `text`, the text the author wrote, through
 * `inText` (which takes a fragment's wrapper out of offsets).
 */
function readXml(
	source: string,
	text: string,
	limits: XmlLimits,
	inText: (offset: number) => number,
	wrapper = false
): XmlParseResult {
	const place = (offset: number) => lineColumn(text, inText(offset));
	const read = readStrict(source, { maxDepth: limits.maxDepth, wrapper, place });
	if (!read.ok) {
		const { code, message, offset } = read.fault;
		const { line, column } = place(offset);
		const said =
			code === 'xml_invalid' && !message.startsWith('The ')
				? `Not well-formed XML: ${message}`
				: message;
		return failAt(code, said, line, column);
	}
	if (wrapper && read.document.root.children.length === 0) {
		return failAt('xml_invalid', 'The XML has no element', 1, 1);
	}
	return { ok: true, root: read.document.root, span: read.document.span, source, place };
}

/** The first child element with this name, or undefined. */
export function childNamed(element: XmlElement, name: string): XmlElement | undefined {
	return element.children.find((c) => c.name === name);
}
