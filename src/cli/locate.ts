import { deprecatedXmlKeyNamed, xmlKeyNamed } from '$lib/core/catalogue';
import { lineColumn } from '$lib/core/issues';
import { parseXml, type XmlElement } from '$lib/core/xml';
import { tagEnd, type ElementSpan } from '$lib/core/xml/spans';
import type { Place } from './model';

/**
 * Where a setting's value, and a place inside it, is in the file it was read from: the core's
 * issues say "offset 12 of genericSmsSendUrl"; a CI report says "line 7, column 31".
 */

/** Finds the place of `offset` in the value of `key` (of `service`); undefined when unknown. */
export type Locator = (service: string, key: string, offset?: number) => Place | undefined;

interface ValueSpan {
	/** Offsets in the parsed source of the element's content. */
	start: number;
	end: number;
}

/**
 * The raw offset, in `raw` (an element's content as written), of the decoded text offset
 * `target`: entity and character references count as the text they stand for, CDATA sections
 * as their content, comments as nothing.
 */
function rawOffset(raw: string, target: number): number {
	let decoded = 0;
	let i = 0;
	while (i < raw.length) {
		if (raw.startsWith('<![CDATA[', i)) {
			const end = raw.indexOf(']]>', i + 9);
			const stop = end === -1 ? raw.length : end;
			const length = stop - (i + 9);
			if (decoded + length >= target) return i + 9 + (target - decoded);
			decoded += length;
			i = stop + 3;
		} else if (raw.startsWith('<!--', i)) {
			const end = raw.indexOf('-->', i + 4);
			i = end === -1 ? raw.length : end + 3;
		} else if (raw[i] === '&') {
			if (decoded >= target) return i;
			const end = raw.indexOf(';', i);
			const ref = raw.slice(i + 1, end);
			const cp = ref.startsWith('#x')
				? parseInt(ref.slice(2), 16)
				: ref.startsWith('#')
					? Number(ref.slice(1))
					: 0;
			decoded += cp > 0xffff ? 2 : 1;
			i = end === -1 ? raw.length : end + 1;
		} else {
			if (decoded >= target) return i;
			decoded++;
			i++;
		}
	}
	return raw.length;
}

/** A locator for XML text (either form or a fragment), from the same strict reading as the import. */
export function xmlLocator(text: string): Locator {
	// Read on the first question only: a file with no findings is not read twice.
	let located: ((service: string, key: string, offset?: number) => Place | undefined) | undefined;
	return (service, key, offset) => {
		located ??= readLocations(text);
		return located(service, key, offset);
	};
}

function readLocations(text: string): Locator {
	const parsed = parseXml(text, undefined, { fragment: true });
	if (!parsed.ok) return () => undefined;
	const { source, place } = parsed;
	const spans = new Map<string, ValueSpan>();
	const walk = (element: XmlElement, span: ElementSpan) => {
		element.children.forEach((child, i) => {
			const childSpan = span.children[i];
			const placed = xmlKeyNamed(child.name) ?? deprecatedXmlKeyNamed(child.name);
			if (placed) {
				const id = `${placed.service.id}\u0000${child.name}`;
				if (!spans.has(id)) {
					const start = tagEnd(source, childSpan.start);
					const selfClosing = source[start - 2] === '/';
					const end = selfClosing ? start : source.lastIndexOf('</', childSpan.end - 1);
					spans.set(id, { start, end: Math.max(start, end) });
				}
			}
			walk(child, childSpan);
		});
	};
	walk(parsed.root, parsed.span);
	return (service, key, offset) => {
		const span = spans.get(`${service}\u0000${key}`);
		if (!span) return undefined;
		const raw = source.slice(span.start, span.end);
		return place(span.start + rawOffset(raw, offset ?? 0));
	};
}

/** A JSON string's raw offset for a decoded offset (escapes count as the character they stand for). */
function jsonRawOffset(text: string, open: number, target: number): number {
	let decoded = 0;
	let i = open + 1;
	while (i < text.length && text[i] !== '"') {
		if (decoded >= target) return i;
		if (text[i] === '\\') i += text[i + 1] === 'u' ? 6 : 2;
		else i++;
		decoded++;
	}
	return i;
}

/**
 * A locator for a JSON backup: the value of `document.services.<service>.<key>`, found by its
 * keys in order (backups are written by the product, one key per setting).
 */
export function jsonLocator(text: string): Locator {
	return (service, key, offset) => {
		const services = text.indexOf('"services"');
		if (services === -1) return undefined;
		const inService = text.indexOf(JSON.stringify(service), services);
		if (inService === -1) return undefined;
		const at = text.indexOf(JSON.stringify(key), inService);
		if (at === -1) return undefined;
		const colon = text.indexOf(':', at + JSON.stringify(key).length);
		const open = text.indexOf('"', colon);
		if (colon === -1 || open === -1) return undefined;
		return lineColumn(text, jsonRawOffset(text, open, offset ?? 0));
	};
}

/** Where a member or element of a JSON text is: its key (of an object) or its value. */
interface JsonNode {
	/** Offset of the value. */
	start: number;
	members?: Map<string, { key: number; node: JsonNode }>;
	items?: JsonNode[];
}

/** Reads valid JSON text into the offsets of its values and keys; undefined when it is not JSON. */
function jsonTree(text: string): JsonNode | undefined {
	let i = 0;
	const space = () => {
		while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
	};
	const string = (): string => {
		const start = i;
		i++;
		while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
		i++;
		return JSON.parse(text.slice(start, i)) as string;
	};
	const value = (): JsonNode => {
		space();
		const node: JsonNode = { start: i };
		if (text[i] === '{') {
			node.members = new Map();
			i++;
			space();
			while (text[i] === '"') {
				const key = i;
				const name = string();
				space();
				i++; // :
				node.members.set(name, { key, node: value() });
				space();
				if (text[i] === ',') i++;
				space();
			}
			i++; // }
		} else if (text[i] === '[') {
			node.items = [];
			i++;
			space();
			while (i < text.length && text[i] !== ']') {
				node.items.push(value());
				space();
				if (text[i] === ',') i++;
				space();
			}
			i++; // ]
		} else if (text[i] === '"') string();
		else while (i < text.length && !',}] \t\r\n'.includes(text[i])) i++;
		return node;
	};
	try {
		JSON.parse(text);
		return value();
	} catch {
		return undefined;
	}
}

/**
 * The place in a JSON text of the member or element at `path` (keys and indexes, as a schema's
 * issue gives it): of its key for an object's member, of its value for an array's element. A
 * path that goes further than the text does is placed on the deepest part that exists (a
 * missing member on the object that lacks it).
 */
export function jsonPlace(text: string, path: readonly PropertyKey[]): Place | undefined {
	const tree = jsonTree(text);
	if (!tree) return undefined;
	let node: JsonNode = tree;
	let at = node.start;
	for (const step of path) {
		const member: { key: number; node: JsonNode } | undefined = node.members?.get(String(step));
		const item = typeof step === 'number' ? node.items?.[step] : undefined;
		if (member) {
			at = member.key;
			node = member.node;
		} else if (item) {
			at = item.start;
			node = item;
		} else break;
	}
	return lineColumn(text, at);
}
