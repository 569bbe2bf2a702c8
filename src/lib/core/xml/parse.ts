import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Issue } from '../issues';

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

const parser = new XMLParser({
	preserveOrder: true,
	ignoreAttributes: false,
	attributeNamePrefix: '',
	parseTagValue: false,
	parseAttributeValue: false,
	htmlEntities: false,
	trimValues: false,
	commentPropName: '#comment'
});

function failure(code: string, message: string, line = 1, column = 1): { ok: false; issue: Issue } {
	return {
		ok: false,
		issue: { code, severity: 'error', message: `${message} (line ${line}, column ${column})` }
	};
}

function depthOf(text: string): number {
	let depth = 0;
	let max = 0;
	for (let i = text.indexOf('<'); i !== -1; i = text.indexOf('<', i + 1)) {
		const next = text[i + 1];
		if (next === '/') depth--;
		else if (next !== '?' && next !== '!') {
			const close = text.indexOf('>', i);
			if (close !== -1 && text[close - 1] !== '/') depth++;
			max = Math.max(max, depth);
		}
	}
	return max;
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
		if (childName === undefined || childName === '#comment') continue;
		if (childName === '#text') text += String(child['#text']);
		else children.push(toElement(childName, child));
	}
	return { name, attributes, children, text };
}

/** Parses an XML document into its root element, or an issue saying what is wrong and where. */
export function parseXml(
	text: string,
	limits: XmlLimits = DEFAULT_XML_LIMITS
): { ok: true; root: XmlElement } | { ok: false; issue: Issue } {
	if (text.length > limits.maxBytes) {
		return failure('xml_too_large', `The XML is larger than ${limits.maxBytes} bytes`);
	}
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
	if (depthOf(text) > limits.maxDepth) {
		return failure('xml_too_deep', `The XML nests deeper than ${limits.maxDepth} levels`);
	}
	const valid = XMLValidator.validate(text);
	if (valid !== true) {
		return failure(
			'xml_invalid',
			`Not well-formed XML: ${valid.err.msg}`,
			valid.err.line,
			valid.err.col
		);
	}
	try {
		const nodes = parser.parse(text) as Node[];
		for (const node of nodes) {
			const name = Object.keys(node).find((k) => k !== ':@');
			if (name && !name.startsWith('?') && name !== '#comment' && name !== '#text') {
				return { ok: true, root: toElement(name, node) };
			}
		}
		return failure('xml_invalid', 'The XML has no root element');
	} catch (error) {
		const message = error instanceof Error ? error.message.replace(/^\[SECURITY\]\s*/, '') : '';
		return failure('xml_invalid', `The XML cannot be read: ${message}`);
	}
}

/** The first child element with this name, or undefined. */
export function childNamed(element: XmlElement, name: string): XmlElement | undefined {
	return element.children.find((c) => c.name === name);
}
