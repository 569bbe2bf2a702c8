import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkBody } from '../request/checks';
import { readXmlBody } from '../request/strict-build';
import { importXml } from './import';
import { parseXml } from './parse';

/** The refusal of a document read on its own and of the same text imported (as a fragment). */
function refusals(text: string) {
	const document = parseXml(text);
	const imported = importXml(text);
	if (document.ok || imported.ok) throw new Error(`accepted: ${JSON.stringify(text)}`);
	return { document: document.issue, imported: imported.issues[0] };
}

describe('the strict reading refuses what XML 1.0 refuses, saying what and where', () => {
	it.each([
		['an undeclared entity', '<a>&nbsp;</a>', 'the entity &nbsp; is not defined', 1, 4],
		['a reference to NUL', '<a>&#0;</a>', '&#0; refers to a character', 1, 4],
		['a reference to U+0001', '<a x="&#x1;"/>', '&#x1; refers to a character', 1, 7],
		['a reference to a surrogate', '<a>&#xD800;</a>', '&#xD800; refers to a character', 1, 4],
		['a malformed character reference', '<a>&#X41;</a>', 'is not a character reference', 1, 4],
		['a bare ampersand', '<a>fish & chips</a>', 'starts no reference', 1, 9],
		['a bare ampersand before a later “;”', '<a>a & b</a>\n<b>c;</b>', 'starts no reference', 1, 6],
		[']]> in text', '<a>x]]>y</a>', '“]]>” in text', 1, 5],
		['< in an attribute', '<a x="1<2"/>', '“<” inside an attribute value', 1, 8],
		['an unquoted attribute', '<a>\n  <b c=1/></a>', 'attribute “c” is not in quotes', 2, 6],
		['a duplicate attribute', '<a x="1" x="2"/>', 'duplicate attribute: x', 1, 16],
		['-- in a comment', '<a><!-- a -- b --></a>', '“--” inside a comment', 1, 11],
		['a raw control character', '<a>\u0001</a>', 'U+0001', 1, 4],
		['U+FFFE', '<a>\uFFFE</a>', 'U+FFFE', 1, 4],
		['a lone surrogate', '<a>\uD800x</a>', 'U+D800', 1, 4],
		[
			'an entity declaration',
			'<a>\n<!ENTITY a "b"></a>',
			'“<!ENTITY” is a markup declaration',
			2,
			1
		],
		[
			'an element declaration',
			'<a><!ELEMENT a ANY></a>',
			'“<!ELEMENT” is a markup declaration',
			1,
			4
		],
		['a bang that starts nothing', '<account><!x></account>', '“<!” starts neither', 1, 10],
		['a CDATA section with a space', '<doc><![CDATA [ x]]></doc>', '“<!” starts neither', 1, 6],
		['lower-case cdata', '<doc><![cdata[x]]></doc>', '“<!” starts neither', 1, 6],
		['a processing instruction without a name', '<doc><? ?></doc>', 'without a name', 1, 6],
		[
			'a closing tag with a slash at the end',
			'<doc/></doc/>',
			'disallowed character in closing tag',
			1,
			12
		],
		['a closing tag without a name', '<doc></></doc>', 'a closing tag without a name', 1, 6],
		[
			'an upper-case XML declaration',
			'<?XML version="1.0"?>\n<doc/>',
			'may only open the document',
			1,
			1
		],
		[
			'a second XML declaration',
			'<?xml version="1.0"?><doc>\n<?xml version="1.0"?></doc>',
			'may only open the document',
			2,
			1
		],
		[
			'a declaration after a comment',
			'<!-- c -->\n<?xml version="1.0"?><doc/>',
			'may only open the document',
			2,
			1
		],
		[
			'a declaration without its version',
			'<?xml encoding="UTF-8"?><doc/>',
			'XML declaration is not well-formed',
			1,
			15
		],
		[
			'a bad standalone value',
			'<?xml version="1.0" standalone="YES"?><doc/>',
			'XML declaration is not well-formed',
			1,
			36
		],
		[
			'an unclosed comment',
			'<doc>\n<!-- no end</doc>',
			'the comment that starts here has no end',
			2,
			1
		],
		[
			'an unclosed processing instruction',
			'<doc><?pi x></doc>',
			'processing instruction that starts here has no end',
			1,
			6
		],
		[
			'an unclosed CDATA section',
			'<doc><![CDATA[x</doc>',
			'CDATA section that starts here has no end',
			1,
			6
		],
		[
			'a mismatched closing tag',
			'<r>\n<a>\n</r>',
			"Expected closing tag 'a' (opened in line 2, col 1) instead of closing tag 'r'",
			3,
			1
		],
		['closing tags in the wrong case', '<doc></DOC>', "instead of closing tag 'DOC'", 1, 6]
	])('%s', (_, text, message, line, column) => {
		const { document, imported } = refusals(text);
		for (const issue of [document, imported]) {
			expect(issue.code).toBe('xml_invalid');
			expect(issue.message).toContain(message);
			expect(issue.message).toContain(`(line ${line}, column ${column})`);
		}
	});

	it('refuses a DOCTYPE, in any case and after a declaration, where it starts', () => {
		for (const [text, line, column] of [
			['<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', 1, 1],
			['<?xml version="1.0"?>\n  <!doctype a><a/>', 2, 3],
			['<!-- first -->\n<!DOCTYPE a SYSTEM "http://evil.test/a.dtd"><a/>', 2, 1]
		] as const) {
			const { document, imported } = refusals(text);
			for (const issue of [document, imported]) {
				expect(issue.code).toBe('xml_doctype');
				expect(issue.message).toContain(`(line ${line}, column ${column})`);
			}
		}
	});

	it('accepts what XML 1.0 accepts: references, CDATA, comments, declarations, other names', () => {
		for (const text of [
			'<a>&lt;&gt;&amp;&apos;&quot;&#10;&#x1F389;&#00065;</a>',
			'<a x="a &amp; b" y=\'q"\'><![CDATA[x ]]]]><![CDATA[> & < ]]></a>',
			'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><!-- one - dash --><a><?pi x?></a>',
			'<?xml-stylesheet href="a.xsl"?><a/>',
			'\uFEFF<a:b xmlns:a="urn:x" é="1"/>'
		]) {
			expect(parseXml(text).ok, text).toBe(true);
		}
	});

	it('keeps text that looks like markup declarations inside comments and CDATA', () => {
		const parsed = parseXml(
			'<a><!-- <!DOCTYPE x> <!ENTITY y "z"> & --><b><![CDATA[<!DOCTYPE html> &nbsp;]]></b></a>'
		);
		expect(parsed.ok && parsed.root.children[0].text).toBe('<!DOCTYPE html> &nbsp;');
	});
});

describe('a fragment (an import) holds elements only', () => {
	it.each([
		['text after the elements', '<account/>\njunk', 'text outside the elements', 2, 1],
		['a character reference outside them', '<a/>\n&#32;\n<b/>', 'text outside the elements', 2, 1],
		['CDATA outside them', '<a/><![CDATA[x]]>', 'a CDATA section outside the elements', 1, 5],
		['text before them', 'x<account/>', 'text outside the elements', 1, 1],
		[
			'a declaration after whitespace',
			'\n<?xml version="1.0"?><account/>',
			'may only open the document',
			2,
			1
		]
	])('refuses %s', (_, text, message, line, column) => {
		const result = importXml(text);
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.issues[0].message).toContain(message);
			expect(result.issues[0].message).toContain(`(line ${line}, column ${column})`);
			expect(result.issues[0].message).not.toContain('fragment-root');
		}
	});

	it.each(['', '  \n', '<!-- only a comment -->', '<?xml version="1.0"?>'])(
		'refuses %j: there is no element',
		(text) => {
			const result = importXml(text);
			expect(result.ok).toBe(false);
			if (!result.ok) expect(result.issues[0]).toMatchObject({ code: 'xml_invalid' });
		}
	);

	it('refuses two top elements when neither is a setting: a second root, not a list', () => {
		const result = importXml('<doc/>\n  <doc></doc>');
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.issues[0].message).toContain('there is content after the root element');
			expect(result.issues[0].message).toContain('(line 2, column 3)');
		}
	});

	it('reads a list of settings, with an unknown element among them', () => {
		const result = importXml(
			'<?xml version="1.0"?><genericSmsSendUrl>https://a/</genericSmsSendUrl>\n<branding/>'
		);
		expect(result.ok && result.value.services).toEqual({
			sendMessage: { genericSmsSendUrl: 'https://a/' }
		});
		expect(result.ok && result.value.preservedXml.map((p) => p.xml)).toEqual(['<branding/>']);
	});
});

describe('the strict reading never fails otherwise than with a placed issue', () => {
	const PIECE = fc.constantFrom(
		'<a>',
		'</a>',
		'<b x="1">',
		'</b>',
		'<c/>',
		'<!DOCTYPE a>',
		'<!ENTITY e "x">',
		'<!--',
		'-->',
		'<![CDATA[',
		']]>',
		'<?xml version="1.0"?>',
		'<?pi',
		'?>',
		'&',
		'&amp;',
		'&#',
		';',
		'"',
		'=',
		'\r\n',
		' ',
		'\uD800',
		'\uFFFF',
		'é'
	);

	it('refuses a lone surrogate at the very end of a processing instruction', () => {
		// The reader itself throws a RangeError on this one; it must come back as a placed issue.
		const read = parseXml('<?pi \uD800');
		expect(read.ok).toBe(false);
		if (!read.ok) expect(read.issue.message).toMatch(/U\+D800 .*\(line 1, column 6\)$/);
		const imported = importXml('<?pi \uD800');
		expect(imported.ok).toBe(false);
		if (!imported.ok) expect(imported.issues[0].message).toMatch(/\(line 1, column \d+\)$/);
	});

	it('for any text, read as a document, imported, or checked as a request body', () => {
		fc.assert(
			fc.property(
				fc.array(fc.oneof(PIECE, fc.string({ unit: 'binary', maxLength: 3 })), { maxLength: 20 }),
				(pieces) => {
					const text = pieces.join('');
					const read = parseXml(text);
					if (!read.ok) expect(read.issue.message).toMatch(/\(line \d+, column \d+\)$/);
					const imported = importXml(text);
					if (!imported.ok) expect(imported.issues[0].message).toMatch(/\(line \d+, column \d+\)$/);
					const body = checkBody(text, 'xml', 'application/xml', [], 'body', readXmlBody);
					expect(body.length).toBe(read.ok || read.issue.code === 'xml_too_deep' ? 0 : 1);
				}
			),
			{ numRuns: 2000 }
		);
	}, 60_000);
});
