import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { lineColumn } from '../issues';
import { isXmlChar, XML_INVALID } from './chars';
import type { XmlElement } from './element';
import type { ElementSpan } from './spans';

/**
 * The one strict reading of XML: a conforming XML 1.0 parser (saxes) decides whether the text is
 * well-formed, and the element tree and each element's place in the text are built in the same
 * pass, so nothing reads a document this check has not accepted. On top of XML 1.0: a DOCTYPE is
 * refused (with it, entity declarations and every other markup declaration), nesting is bounded,
 * and names that are special in JavaScript (`__proto__`, `constructor`, `prototype`) are refused.
 */

/** What breaks the rules, and the offset in the read text where it starts. */
export interface StrictFault {
	code: 'xml_invalid' | 'xml_doctype' | 'xml_too_deep';
	message: string;
	offset: number;
}

/** A well-formed document: its root element and where the root and its descendants are. */
export interface StrictDocument {
	root: XmlElement;
	span: ElementSpan;
}

/** Options of {@link readStrict}. */
export interface StrictOptions {
	/** The deepest nesting allowed (a self-closing element counts as a level). */
	maxDepth: number;
	/**
	 * The root is a wrapper around a fragment: its own tags are not the author's, so text directly
	 * inside it is refused, a closing tag that would close it has no opening tag, and it does not
	 * count as a level.
	 */
	wrapper?: boolean;
	/**
	 * Line and column of an offset, as the author sees them (for messages that cite a place); by
	 * default, those of the offset in the text read.
	 */
	place?: (offset: number) => { line: number; column: number };
}

/** Element and attribute names that could reach an object's prototype if used as keys. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** A reference after its `&`: character reference, or a name up to `;`. */
const REFERENCE = /#x([0-9A-Fa-f]+);|#([0-9]+);|([^\s;&<>"']+);/y;

class Fault extends Error {
	constructor(readonly fault: StrictFault) {
		super(fault.message);
	}
}

function fail(code: StrictFault['code'], message: string, offset: number): never {
	throw new Fault({ code, message, offset });
}

/** The parts of saxes' state that the reference reader below works with. */
interface SaxesState {
	chunk: string;
	i: number;
	text: string;
	state: number;
	entityReturnState?: number;
	stateTable: ((this: SaxesState) => void)[];
}

const saxesEntityState = (SaxesParser.prototype as unknown as { sEntity: () => void }).sEntity;

/**
 * Reads the reference after a `&` in text or in an attribute value (in place of saxes' own,
 * which reads up to the next `;` wherever it is): a `&` that starts no reference, an entity XML
 * does not define and a reference to a character XML 1.0 cannot carry are refused at the `&`.
 */
function readReference(this: SaxesState): void {
	const amp = this.i - 1;
	REFERENCE.lastIndex = this.i;
	const match = REFERENCE.exec(this.chunk);
	if (!match) fail('xml_invalid', 'a “&” that starts no reference (write it as &amp;)', amp);
	const [whole, hex, decimal, name] = match;
	let value: string;
	if (name !== undefined) {
		if (name.startsWith('#')) {
			fail('xml_invalid', `“&${name};” is not a character reference (write &#x…; or &#…;)`, amp);
		}
		if (!Object.hasOwn(PREDEFINED, name)) {
			fail('xml_invalid', `the entity &${name}; is not defined in XML`, amp);
		}
		value = PREDEFINED[name];
	} else {
		const cp = hex !== undefined ? parseInt(hex, 16) : parseInt(decimal, 10);
		if (!isXmlChar(cp)) {
			fail('xml_invalid', `&${whole} refers to a character XML 1.0 cannot carry`, amp);
		}
		value = String.fromCodePoint(cp);
	}
	this.i += whole.length;
	this.text += value;
	this.state = this.entityReturnState!;
}

function newParser(): SaxesParser {
	const parser = new SaxesParser({ position: true });
	const state = parser as unknown as SaxesState;
	const index = state.stateTable.indexOf(saxesEntityState);
	if (index === -1) throw new Error('saxes no longer reads references in a state of its own');
	state.stateTable = state.stateTable.slice();
	state.stateTable[index] = readReference;
	return parser;
}

/** Anything but XML whitespace. */
const NOT_SPACE = /[^ \t\n\r]/;

/** What saxes reported, told in the product's words and placed where the problem starts. */
function explain(
	text: string,
	message: string,
	at: number,
	mark: number,
	rooted: boolean
): StrictFault {
	const reason = message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
	const construct = text.indexOf('<', mark);
	const constructAt = construct === -1 || construct > at ? at : construct;
	const bare = text.slice(mark).search(NOT_SPACE);
	const content = bare === -1 ? at : mark + bare;
	if (/^<!doctype/i.test(text.slice(content, content + 9))) return doctypeFault(content);
	const invalid = (what: string, offset: number): StrictFault => ({
		code: 'xml_invalid',
		message: what,
		offset
	});
	switch (reason) {
		case 'text data outside of root node':
		case 'documents may contain only one root':
			return rooted
				? invalid('there is content after the root element', content)
				: invalid('there is text before the root element', content);
		case 'document must contain a root element':
			return invalid('there is no root element', 0);
		case 'the string "]]>" is disallowed in char data':
			return invalid('“]]>” in text (write “]]&gt;”)', text.lastIndexOf(']]>', at));
		case 'malformed comment':
			return invalid('“--” inside a comment', text.lastIndexOf('--', at));
		case 'incorrect syntax': {
			const declaration = /^<!(ENTITY|ELEMENT|ATTLIST|NOTATION)/.exec(
				text.slice(constructAt, constructAt + 12)
			);
			return invalid(
				declaration
					? `“<!${declaration[1]}” is a markup declaration: it belongs in a DOCTYPE, which is not accepted`
					: '“<!” starts neither a comment (“<!--”) nor a CDATA section (“<![CDATA[”)',
				constructAt
			);
		}
		case 'disallowed character':
			if (text[at] === '<')
				return invalid('a “<” inside an attribute value (write it as &lt;)', at);
			break;
		case 'unquoted attribute value': {
			const name = /([^\s=<]+)\s*=\s*$/.exec(text.slice(constructAt, at));
			return name
				? invalid(`the value of attribute “${name[1]}” is not in quotes`, constructAt + name.index)
				: invalid('an attribute value is not in quotes', at);
		}
		case 'weird empty close tag':
			return invalid('a closing tag without a name', constructAt);
		case 'processing instruction without a target':
			return invalid('a processing instruction without a name', constructAt);
		case 'an XML declaration must be at the start of the document':
		case 'the XML declaration must appear at the start of the document':
			return invalid(
				'an XML declaration (“<?xml … ?>”, in lower case) may only open the document, at its very start',
				constructAt
			);
	}
	if (text.startsWith('<?xml') && at < text.indexOf('?>') + 2) {
		return invalid(`the XML declaration is not well-formed: ${reason}`, at);
	}
	return invalid(reason, at);
}

function doctypeFault(offset: number): StrictFault {
	return {
		code: 'xml_doctype',
		message: 'DOCTYPE declarations are not accepted (they can define entities)',
		offset
	};
}

function reservedAttributeAt(text: string, name: string, before: number): number {
	for (let at = text.lastIndexOf(name, before); at !== -1; at = text.lastIndexOf(name, at - 1)) {
		if (
			/^\s*=/.test(text.slice(at + name.length, at + name.length + 40)) &&
			/\s/.test(text[at - 1])
		) {
			return at;
		}
	}
	return before;
}

function reservedFault(name: string, offset: number): never {
	fail(
		'xml_invalid',
		`The name "${name}" is refused: it is reserved in JavaScript and could pollute objects`,
		offset
	);
}

interface Open {
	element: XmlElement;
	span: ElementSpan;
}

/** One reading in progress: the text, what is open, and where the last construct ended. */
interface Reading {
	text: string;
	options: StrictOptions;
	wrapper: boolean;
	maxDepth: number;
	stack: Open[];
	root: Open | null;
	/** Where the last construct the parser reported ends: the next one starts at or after it. */
	mark: number;
}

const TOP_LEVEL = '(only elements, comments and processing instructions may stand there)';

/**
 * A parser whose handlers work on `reading()`: parsers are reused (creating one and setting its
 * handlers costs more than reading a small element), one per reading in progress.
 */
function newReader(reading: () => Reading): SaxesParser {
	const parser = newParser();
	const at = () => parser.position;
	parser.on('error', (error) => {
		const r = reading();
		const { text, stack, wrapper, mark, options } = r;
		const fault = explain(text, error.message, Math.max(0, at() - 1), mark, r.root !== null);
		throw new Fault(unclosedFault(fault, stack, wrapper, mark, text, options) ?? fault);
	});
	parser.on('doctype', () => {
		const { text, mark } = reading();
		throw new Fault(doctypeFault(Math.max(0, text.indexOf('<!', mark))));
	});
	parser.on('opentagstart', (tag) => {
		const r = reading();
		const start = r.text.lastIndexOf('<', at() - 1);
		if (RESERVED.has(tag.name)) reservedFault(tag.name, start);
		if (r.stack.length >= r.maxDepth) {
			fail('xml_too_deep', `The XML nests deeper than ${r.options.maxDepth} levels`, start);
		}
		const open: Open = {
			element: { name: tag.name, attributes: Object.create(null), children: [], text: '' },
			span: { start, end: start, children: [] }
		};
		const parent = r.stack[r.stack.length - 1];
		if (parent) {
			parent.element.children.push(open.element);
			parent.span.children.push(open.span);
		} else r.root = open;
		r.stack.push(open);
	});
	parser.on('attribute', ({ name, value }) => {
		const { text, stack } = reading();
		if (RESERVED.has(name)) reservedFault(name, reservedAttributeAt(text, name, at() - 1));
		stack[stack.length - 1].element.attributes[name] = value;
	});
	parser.on('opentag', () => {
		reading().mark = at();
	});
	parser.on('closetag', (tag: SaxesTagPlain) => {
		const r = reading();
		const end = at();
		if (!tag.isSelfClosing) {
			const closeAt = r.text.lastIndexOf('</', end - 1);
			const name = r.text.slice(closeAt + 2, end - 1).trimEnd();
			if (name !== tag.name) {
				throw new Fault(mismatchFault(name, closeAt, r.stack, r.wrapper, r.text, r.options));
			}
		}
		r.stack.pop()!.span.end = end;
		r.mark = end;
	});
	parser.on('text', (value) => {
		const r = reading();
		const end = at() - 1;
		if (r.wrapper && r.stack.length === 1) {
			const stray = r.text.slice(r.mark, end).search(NOT_SPACE);
			if (stray !== -1)
				fail('xml_invalid', `text outside the elements ${TOP_LEVEL}`, r.mark + stray);
		}
		const parent = r.stack[r.stack.length - 1];
		if (parent) parent.element.text += value;
		r.mark = end;
	});
	parser.on('cdata', (value) => {
		const r = reading();
		if (r.wrapper && r.stack.length === 1) {
			const start = r.text.lastIndexOf('<![CDATA[', at());
			fail('xml_invalid', `a CDATA section outside the elements ${TOP_LEVEL}`, start);
		}
		const parent = r.stack[r.stack.length - 1];
		if (parent) parent.element.text += value;
		r.mark = at();
	});
	// A comment or a processing instruction is reported before its closing `>` is read.
	const skip = () => {
		const r = reading();
		r.mark = r.text[at()] === '>' ? at() + 1 : at();
	};
	parser.on('comment', skip);
	parser.on('processinginstruction', skip);
	parser.on('xmldecl', () => {
		reading().mark = at();
	});
	return parser;
}

/** Characters XML 1.0 cannot carry (the first one is enough). */
const NOT_XML = new RegExp(XML_INVALID.source);

let current: Reading | null = null;
/** A parser left ready by a reading that went to the end (one that stopped at a fault is dropped). */
let idle: SaxesParser | null = null;

/**
 * Reads `text` strictly: the document's root element and spans, or the first fault. Offsets are
 * of `text` as given (line breaks are read as XML reads them, but not rewritten). Nothing of the
 * text is used when there is a fault.
 */
export function readStrict(
	text: string,
	options: StrictOptions
): { ok: true; document: StrictDocument } | { ok: false; fault: StrictFault } {
	const wrapper = options.wrapper === true;
	const reading: Reading = {
		text,
		options: { ...options, place: options.place ?? ((offset) => lineColumn(text, offset)) },
		wrapper,
		maxDepth: options.maxDepth + (wrapper ? 1 : 0),
		stack: [],
		root: null,
		mark: 0
	};
	const parser = idle ?? newReader(() => current!);
	idle = null;
	const outer = current;
	current = reading;
	let fault: StrictFault | null = null;
	try {
		parser.write(text).close();
		idle = parser;
	} catch (error) {
		// saxes can stumble over a lone surrogate at the very end (a code point it cannot read):
		// that text is refused below for the character, which comes first.
		if (error instanceof Fault) fault = error.fault;
		else if (!NOT_XML.test(text)) throw error;
	} finally {
		current = outer;
	}
	// saxes refuses these characters too, but for lone high surrogates: say it the same way.
	const invalid = NOT_XML.exec(text);
	if (invalid && invalid.index <= (fault?.offset ?? text.length)) {
		const cp = invalid[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
		const message = `the character U+${cp} cannot be carried by XML 1.0`;
		return { ok: false, fault: { code: 'xml_invalid', message, offset: invalid.index } };
	}
	if (fault) return { ok: false, fault };
	const root = reading.root as Open | null;
	if (!root) {
		return {
			ok: false,
			fault: { code: 'xml_invalid', message: 'there is no root element', offset: 0 }
		};
	}
	return { ok: true, document: { root: root.element, span: root.span } };
}

/** What the text ends in the middle of, from how it starts. */
function unfinished(text: string, start: number): string {
	const head = start === -1 ? '' : text.slice(start, start + 9);
	if (head.startsWith('<!--')) return 'the comment that starts here has no end (“-->”)';
	if (head === '<![CDATA[') return 'the CDATA section that starts here has no end (“]]>”)';
	if (head.startsWith('<?')) return 'the processing instruction that starts here has no end (“?>”)';
	return 'the tag that starts here has no end (“>”)';
}

function opened(open: Open, options: StrictOptions): string {
	const { line, column } = options.place!(open.span.start);
	return `'${open.element.name}' (opened in line ${line}, col ${column})`;
}

/** A closing tag that does not close the element open last, told with where that one opened. */
function mismatchFault(
	name: string,
	closeAt: number,
	stack: Open[],
	wrapper: boolean,
	text: string,
	options: StrictOptions
): StrictFault {
	const open = stack[stack.length - 1];
	if (wrapper && stack.length === 1) {
		return {
			code: 'xml_invalid',
			message: `Closing tag '${name}' has no opening tag.`,
			offset: closeAt
		};
	}
	if (wrapper && name === stack[0].element.name && closeAt + name.length + 3 === text.length) {
		return {
			code: 'xml_invalid',
			message: `Expected closing tag ${opened(open, options)} before the end of the fragment.`,
			offset: open.span.start
		};
	}
	return {
		code: 'xml_invalid',
		message: `Expected closing tag ${opened(open, options)} instead of closing tag '${name}'.`,
		offset: closeAt
	};
}

/**
 * The end of the text with an element still open, or a closing tag with none open: said with
 * that element (or tag), never with the wrapper of a fragment.
 */
function unclosedFault(
	fault: StrictFault,
	stack: Open[],
	wrapper: boolean,
	mark: number,
	text: string,
	options: StrictOptions
): StrictFault | null {
	const unmatched = /^unmatched closing tag: (.*)\.$/.exec(fault.message);
	if (unmatched) {
		const closeAt = text.lastIndexOf('</', fault.offset);
		return {
			code: 'xml_invalid',
			message: `Closing tag '${unmatched[1]}' has no opening tag.`,
			offset: closeAt === -1 ? fault.offset : closeAt
		};
	}
	if (!/^(unclosed tag|unexpected end)/.test(fault.message)) return null;
	const open = stack[stack.length - 1];
	const start = text.indexOf('<', mark);
	const wrapperClose = wrapper ? text.length - stack[0].element.name.length - 3 : -1;
	if (!open || (wrapper && stack.length === 1) || (start !== -1 && start !== wrapperClose)) {
		return {
			code: 'xml_invalid',
			message: unfinished(text, start),
			offset: start === -1 ? fault.offset : start
		};
	}
	return {
		code: 'xml_invalid',
		message: `Expected closing tag ${opened(open, options)} before the end of the ${wrapper ? 'fragment' : 'document'}.`,
		offset: open.span.start
	};
}
