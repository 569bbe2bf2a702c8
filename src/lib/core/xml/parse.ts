import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { lineColumn, type Issue } from '../issues';
import { isXmlChar } from './chars';
import { scanTags } from './spans';
import { strictFault } from './strict';

/**
 * Safe XML reading for response bodies and imports: DOCTYPE refused before parsing (no entity
 * tricks), values kept as strings (`007` stays `007`), nesting bounded, every parser failure a
 * typed issue with line and column. The result is a plain element tree built from fresh objects.
 */

/** An element: its name, attributes, child elements in order and its own text. */
export interface XmlElement {
	name: string;
	attributes: Record<string, string>;
	children: XmlElement[];
	/** The element's text content (its direct text nodes joined), entity references decoded. */
	text: string;
}

/** Limits of {@link parseXml}. */
export interface XmlLimits {
	maxDepth: number;
	maxBytes: number;
}

/** Defaults: 100 levels, 8 MiB. */
export const DEFAULT_XML_LIMITS: XmlLimits = { maxDepth: 100, maxBytes: 8 * 1024 * 1024 };

type Node = Record<string, unknown>;

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const REFERENCE = /&(?:#x([0-9A-Fa-f]+)|#([0-9]+)|(amp|lt|gt|quot|apos));/g;

/**
 * XML's own references in one pass: the five predefined entities and character references
 * (`&#13;`, `&#xE9;`), which the parser leaves undecoded unless HTML entities are switched on.
 * One pass, so `&amp;lt;` stays `&lt;`; a reference to a character XML cannot hold stays as
 * written, and so does any other name (no DOCTYPE can declare one).
 */
function decodeReferences(text: string): string {
	return text.replace(REFERENCE, (whole, hex?: string, decimal?: string, name?: string) => {
		if (name) return PREDEFINED[name];
		const cp = hex ? parseInt(hex, 16) : Number(decimal);
		return isXmlChar(cp) ? String.fromCodePoint(cp) : whole;
	});
}

const parser = new XMLParser({
	preserveOrder: true,
	ignoreAttributes: false,
	attributeNamePrefix: '',
	parseTagValue: false,
	parseAttributeValue: false,
	htmlEntities: false,
	trimValues: false,
	commentPropName: '#comment',
	entityDecoder: {
		setExternalEntities() {},
		addInputEntities() {},
		reset() {},
		setXmlVersion() {},
		decode: decodeReferences
	},
	// Names like toString or valueOf are ordinary XML names: keep them (the default prefixes them
	// with __). The tree is read from ordered arrays, never by property lookup on parser objects.
	onDangerousProperty: (name) => name
});

/** Options of {@link parseXml}. */
export interface XmlParseOptions {
	/**
	 * Read a fragment: any number of elements (and text) with no single root, as the children of
	 * a root named {@link FRAGMENT_ROOT}. A leading XML declaration is allowed.
	 */
	fragment?: boolean;
}

/** The name of the root element a fragment is read into. */
export const FRAGMENT_ROOT = 'fragment-root';

const FRAGMENT_OPEN = `<${FRAGMENT_ROOT}>`;

type Failure = { ok: false; issue: Issue };

function failAt(code: string, message: string, line: number, column: number): Failure {
	return {
		ok: false,
		issue: { code, severity: 'error', message: `${message} (line ${line}, column ${column})` }
	};
}

/**
 * A scan without parsing: the deepest element nesting (a self-closing element counts as a level)
 * and where content after the root element starts, if any. Comments, CDATA, processing
 * instructions and quoted attribute values are skipped, so markup inside them is not counted.
 */
function shapeOf(text: string): { depth: number; afterRoot: number | null } {
	let depth = 0;
	let max = 0;
	let roots = 0;
	let afterRoot: number | null = null;
	scanTags(
		text,
		(tag) => {
			if (tag.kind === 'close') {
				depth--;
				return;
			}
			if (depth === 0 && roots++ > 0 && afterRoot === null) afterRoot = tag.start;
			max = Math.max(max, depth + 1);
			if (tag.kind === 'open') depth++;
		},
		(from, to) => {
			if (depth !== 0 || roots === 0 || afterRoot !== null) return;
			const stray = text.slice(from, to).search(/\S/);
			if (stray !== -1) afterRoot = from + stray;
		}
	);
	return { depth: max, afterRoot };
}

/** Where a name the parser refuses (`__proto__`, `constructor`, `prototype`) first appears. */
function reservedNameAt(text: string, name: string): number {
	if (!['__proto__', 'constructor', 'prototype'].includes(name)) return 0;
	const found = new RegExp(`<${name}(?=[\\s/>])|\\s${name}\\s*=`).exec(text);
	if (!found) return 0;
	return found[0].startsWith('<') ? found.index : found.index + 1;
}

function toElement(name: string, node: Node): XmlElement {
	const attributes: Record<string, string> = Object.create(null);
	const rawAttributes = node[':@'];
	if (rawAttributes && typeof rawAttributes === 'object') {
		for (const [key, value] of Object.entries(rawAttributes)) attributes[key] = String(value);
	}
	const children: XmlElement[] = [];
	let text = '';
	for (const child of node[name] as Node[]) {
		const childName = Object.keys(child).find((k) => k !== ':@');
		// Comments and processing instructions are not elements.
		if (childName === undefined || childName === '#comment' || childName.startsWith('?')) continue;
		if (childName === '#text') text += String(child['#text']);
		else children.push(toElement(childName, child));
	}
	return { name, attributes, children, text };
}

/** The outcome of {@link parseXml}: the root element and the text that was read. */
export type XmlParseResult = { ok: true; root: XmlElement; source: string } | Failure;

/**
 * Parses an XML document into its root element, or an issue saying what is wrong and where.
 * `source` is the text as read: line breaks normalised to LF as XML requires (a CR survives only
 * as `&#13;`), and for a fragment, wrapped in its root.
 */
export function parseXml(
	input: string,
	limits: XmlLimits = DEFAULT_XML_LIMITS,
	options: XmlParseOptions = {}
): XmlParseResult {
	if (input.length > limits.maxBytes) {
		return failAt('xml_too_large', `The XML is larger than ${limits.maxBytes} bytes`, 1, 1);
	}
	const normalised = input.replace(/\r\n?/g, '\n');
	if (!options.fragment) return readXml(normalised, limits, 0);
	// The declaration may only open a document: blank it out (columns stay) before wrapping.
	const body = normalised.replace(/^\s*<\?xml\s[^>]*\?>/, (d) => ' '.repeat(d.length));
	const wrapped = `${FRAGMENT_OPEN}${body}</${FRAGMENT_ROOT}>`;
	return readXml(wrapped, limits, FRAGMENT_OPEN.length);
}

/** A validator message about a wrapped fragment, told as of the fragment the admin wrote. */
function asInFragment(message: string, shift: number): string {
	return message
		.replace(
			/\(opened in line 1, col (\d+)\)/g,
			(_, col: string) => `(opened in line 1, col ${Math.max(1, Number(col) - shift)})`
		)
		.replace(`instead of closing tag '${FRAGMENT_ROOT}'.`, 'before the end of the fragment.')
		.replace(
			new RegExp(
				`^Expected closing tag '${FRAGMENT_ROOT}' \\(opened in line 1, col \\d+\\) instead of closing tag '([^']*)'\\.`
			),
			"Closing tag '$1' has no opening tag."
		);
}

/**
 * Reads a document. A non-zero `shift` means the input was wrapped in a fragment root of that
 * many characters: positions on line 1 and the nesting depth are given back as in the input.
 */
function readXml(text: string, limits: XmlLimits, shift: number): XmlParseResult {
	const failure = (code: string, message: string, line = 1, column = 1): Failure =>
		failAt(code, message, line, line === 1 ? Math.max(1, column - shift) : column);
	const doctype = /<!DOCTYPE/i.exec(text);
	if (doctype) {
		const before = text.slice(0, doctype.index).split('\n');
		return failure(
			'xml_doctype',
			'DOCTYPE declarations are not accepted (they can define entities)',
			before.length,
			before[before.length - 1].length + 1
		);
	}
	const shape = shapeOf(text);
	if (shape.depth - (shift ? 1 : 0) > limits.maxDepth) {
		return failure('xml_too_deep', `The XML nests deeper than ${limits.maxDepth} levels`);
	}
	const valid = XMLValidator.validate(text);
	if (valid !== true) {
		const message = shift ? asInFragment(valid.err.msg, shift) : valid.err.msg;
		return failure('xml_invalid', `Not well-formed XML: ${message}`, valid.err.line, valid.err.col);
	}
	const fault = strictFault(text);
	if (fault) {
		const at = lineColumn(text, fault.offset);
		return failure('xml_invalid', `Not well-formed XML: ${fault.message}`, at.line, at.column);
	}
	// The validator lets a second root or text through after a self-closing root.
	if (shape.afterRoot !== null) {
		const at = lineColumn(text, shape.afterRoot);
		return failure(
			'xml_invalid',
			'Not well-formed XML: there is content after the root element',
			at.line,
			at.column
		);
	}
	try {
		const nodes = parser.parse(text) as Node[];
		for (const node of nodes) {
			const name = Object.keys(node).find((k) => k !== ':@');
			if (name && !name.startsWith('?') && name !== '#comment' && name !== '#text') {
				return { ok: true, root: toElement(name, node), source: text };
			}
		}
		return failure('xml_invalid', 'The XML has no root element');
	} catch (error) {
		const message = error instanceof Error ? error.message.replace(/^\[SECURITY\]\s*/, '') : '';
		const reserved = /Invalid name: "([^"]*)" is a reserved/.exec(message);
		if (reserved) {
			const at = lineColumn(text, reservedNameAt(text, reserved[1]));
			return failure(
				'xml_invalid',
				`The name "${reserved[1]}" is refused: it is reserved in JavaScript and could pollute objects`,
				at.line,
				at.column
			);
		}
		return failure('xml_invalid', `The XML cannot be read: ${message}`);
	}
}

/** The first child element with this name, or undefined. */
export function childNamed(element: XmlElement, name: string): XmlElement | undefined {
	return element.children.find((c) => c.name === name);
}
