import { describe, expect, it } from 'vitest';
import type { XmlElement } from './element';
import { childNamed, parseXml } from './parse';

/** An element as compact text: `name[attr=value]{text}(children)`. */
function render(element: XmlElement): string {
	const attributes = Object.entries(element.attributes)
		.map(([k, v]) => `${k}=${JSON.stringify(v)}`)
		.join(' ');
	const text = element.text === '' ? '' : `{${JSON.stringify(element.text)}}`;
	const children = element.children.length ? `(${element.children.map(render).join(' ')})` : '';
	return `${element.name}${attributes ? `[${attributes}]` : ''}${text}${children}`;
}

function read(text: string): string {
	const parsed = parseXml(text);
	if (!parsed.ok) throw new Error(`not read: ${parsed.issue.message}`);
	return render(parsed.root);
}

function refused(text: string, limits?: Parameters<typeof parseXml>[1]) {
	const parsed = parseXml(text, limits);
	if (parsed.ok) throw new Error(`read, but should be refused: ${render(parsed.root)}`);
	return parsed.issue;
}

function nested(depth: number, open = '<a>'): string {
	return open.repeat(depth) + '</a>'.repeat(depth);
}

describe('parseXml: values', () => {
	const cases: { rule: string; xml: string; expected: string }[] = [
		{
			rule: 'keeps 007 as 007 (values stay strings)',
			xml: '<r><n>007</n><b>true</b><f>1e3</f></r>',
			expected: 'r(n{"007"} b{"true"} f{"1e3"})'
		},
		{
			rule: 'keeps attributes as strings',
			xml: '<r id="007" on="true" n="+14155550123"/>',
			expected: 'r[id="007" on="true" n="+14155550123"]'
		},
		{
			rule: 'decodes the predefined entities once',
			xml: '<r a="&quot;&apos;&lt;">&amp; &lt;b&gt; &amp;lt; &amp;amp;</r>',
			expected: 'r[a="\\"\'<"]{"& <b> &lt; &amp;"}'
		},
		{
			rule: 'decodes character references, decimal and hexadecimal',
			xml: '<r a="&#13;&#x41;">Caf&#233; &#x1F389;&#13;&#10;</r>',
			expected: 'r[a="\\rA"]{"Café 🎉\\r\\n"}'
		},
		{
			rule: 'skips comments',
			xml: '<r><!-- <x>not an element</x> --><a>1</a><!--c--></r>',
			expected: 'r(a{"1"})'
		},
		{
			rule: 'keeps whitespace of text as sent',
			xml: '<r><a>  padded\n</a></r>',
			expected: 'r(a{"  padded\\n"})'
		},
		{
			rule: 'reads CDATA as text',
			xml: '<r><![CDATA[<b>&amp;]]></r>',
			expected: 'r{"<b>&amp;"}'
		},
		{
			rule: 'skips the XML declaration and processing instructions',
			xml: '<?xml version="1.0" encoding="UTF-8"?>\n<?pi x?><r>1</r>',
			expected: 'r{"1"}'
		},
		{
			rule: 'allows comments, processing instructions and whitespace after the root',
			xml: '<r/>\n<!-- done -->\n<?pi x?>\n',
			expected: 'r'
		},
		{
			rule: 'keeps element and attribute names that are Object.prototype methods',
			xml: '<r toString="1"><valueOf>2</valueOf><hasOwnProperty/></r>',
			expected: 'r[toString="1"](valueOf{"2"} hasOwnProperty)'
		}
	];

	it.each(cases)('$rule', ({ xml, expected }) => {
		expect(read(xml)).toBe(expected);
	});

	it('finds a child by name with childNamed', () => {
		const parsed = parseXml('<r><a>1</a><b>2</b><b>3</b></r>');
		expect(parsed.ok && childNamed(parsed.root, 'b')?.text).toBe('2');
		expect(parsed.ok && childNamed(parsed.root, 'c')).toBeUndefined();
	});
});

describe('parseXml: refusals', () => {
	it('refuses a DOCTYPE with entities (xml_doctype) with its line and column', () => {
		const issue = refused(
			'<?xml version="1.0"?>\n  <!DOCTYPE r [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>\n<r>&lol2;</r>'
		);
		expect(issue).toMatchObject({ code: 'xml_doctype', severity: 'error' });
		expect(issue.message).toContain('line 2, column 3');
	});

	it.each([
		'<!DOCTYPE r SYSTEM "file:///etc/passwd"><r/>',
		'<!DOCTYPE r [<!ENTITY xxe SYSTEM "http://evil.test/x">]><r>&xxe;</r>',
		'<!doctype r PUBLIC "-//x//EN" "http://evil.test/x.dtd"><r/>'
	])('refuses an external entity or DTD: %s', (xml) => {
		expect(refused(xml).code).toBe('xml_doctype');
	});

	it.each(['<r>&xxe;</r>', '<r>a&nbsp;b &copy;</r>'])(
		'refuses an undeclared entity reference, fetching nothing: %s',
		(xml) => {
			const issue = refused(xml);
			expect(issue.code).toBe('xml_invalid');
			expect(issue.message).toMatch(
				/the entity &\w+; is not defined in XML \(line 1, column \d+\)/
			);
		}
	);

	it.each([
		{ name: '__proto__ as the root', xml: '<__proto__><polluted>1</polluted></__proto__>' },
		{
			name: '__proto__ as a child',
			xml: '<r>\n  <__proto__><polluted>1</polluted></__proto__>\n</r>'
		},
		{
			name: 'constructor as a child',
			xml: '<r>\n  <constructor><prototype>1</prototype></constructor></r>'
		},
		{ name: '__proto__ as an attribute', xml: '<r>\n  <a __proto__="x" polluted="1"/></r>' }
	])('refuses $name with a clear message and never pollutes Object.prototype', ({ xml }) => {
		const issue = refused(xml);
		expect(issue.code).toBe('xml_invalid');
		expect(issue.message).toMatch(/reserved/);
		expect(issue.message).toMatch(/__proto__|constructor/);
		const line = xml.split('\n').findIndex((l) => /__proto__|constructor/.test(l)) + 1;
		expect(issue.message).toContain(`line ${line},`);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.prototype).not.toHaveProperty('polluted');
	});

	it('refuses 5,000 nested elements (xml_too_deep)', () => {
		expect(refused(nested(5000)).code).toBe('xml_too_deep');
	});

	it('refuses 5,000 nested elements whose attribute values end in "/" (xml_too_deep)', () => {
		expect(refused(nested(5000, '<a x="/>">')).code).toBe('xml_too_deep');
		expect(refused(nested(5000, "<a x='/'>")).code).toBe('xml_too_deep');
	});

	it('reads 100 nested elements and refuses 101 (the default limit)', () => {
		expect(parseXml(nested(100)).ok).toBe(true);
		expect(refused(nested(101)).code).toBe('xml_too_deep');
	});

	it('counts a self-closing element as a level', () => {
		expect(parseXml('<a>'.repeat(99) + '<b/>' + '</a>'.repeat(99)).ok).toBe(true);
		expect(refused('<a>'.repeat(100) + '<b/>' + '</a>'.repeat(100)).code).toBe('xml_too_deep');
	});

	it('does not count tags inside comments, CDATA or attribute values as nesting', () => {
		const markup = '<p>'.repeat(200);
		expect(
			read(`<r a="${'&lt;p&gt;'.repeat(3)}"><!-- ${markup} --><m><![CDATA[${markup}]]></m></r>`)
		).toBe(`r[a="<p><p><p>"](m{"${markup}"})`);
	});

	it('honours a smaller depth limit', () => {
		expect(refused(nested(4), { maxDepth: 3, maxBytes: 1000 }).code).toBe('xml_too_deep');
		expect(parseXml(nested(3), { maxDepth: 3, maxBytes: 1000 }).ok).toBe(true);
	});

	it('refuses a document larger than the byte limit (xml_too_large)', () => {
		expect(refused('<r>' + 'x'.repeat(100) + '</r>', { maxDepth: 10, maxBytes: 50 }).code).toBe(
			'xml_too_large'
		);
	});

	it.each([
		{ what: 'a mismatched closing tag', xml: '<r>\n<a>\n</r>', line: 3, column: 1 },
		{ what: 'an unclosed root', xml: '<r>\n  <a>1</a>', line: 1, column: 1 },
		{ what: 'a bad attribute', xml: '<r>\n  <a b=1/>\n</r>', line: 2, column: 6 },
		{ what: 'two roots', xml: '<a/>\n<b/>', line: 2, column: 1 },
		{ what: 'two roots, the second self-closing', xml: '<a></a>\n  <b/>', line: 2, column: 3 },
		{ what: 'text after a self-closing root', xml: '<a/>\n junk', line: 2, column: 2 }
	])('refuses invalid XML ($what) with line and column', ({ xml, line, column }) => {
		const issue = refused(xml);
		expect(issue.code).toBe('xml_invalid');
		expect(issue.message).toContain(`line ${line}, column ${column}`);
	});

	it.each(['', '   ', 'just text', '<!-- only a comment -->'])(
		'refuses a document without a root element: %j',
		(xml) => {
			expect(refused(xml).code).toBe('xml_invalid');
		}
	);
});

describe('parseXml: errors in a fragment speak of the fragment', () => {
	it.each([
		['<a>', "Expected closing tag 'a' (opened in line 1, col 1) before the end of the fragment."],
		['</a>', "Closing tag 'a' has no opening tag."],
		['<x>1</x>\n<b>', "Expected closing tag 'b' (opened in line 2, col 1) before the end"]
	])('%j', (xml, message) => {
		const result = parseXml(xml, undefined, { fragment: true });
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.issue.message).toContain(message);
			expect(result.issue.message).not.toContain('fragment-root');
		}
	});
});
