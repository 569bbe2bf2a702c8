import { describe, expect, it } from 'vitest';
import { parseXml } from './parse';
import { strictFault } from './strict';

describe('strictFault', () => {
	it.each([
		['an undeclared entity', '<a>&nbsp;</a>', 'the entity &nbsp; is not defined', 3],
		['a reference to NUL', '<a>&#0;</a>', '&#0; refers to a character', 3],
		['a reference to U+0001', '<a x="&#x1;"/>', '&#x1; refers to a character', 6],
		['a bare ampersand', '<a>fish & chips</a>', 'starts no reference', 8],
		[']]> in text', '<a>x]]>y</a>', '“]]>” in text', 4],
		['< in an attribute', '<a x="1<2"/>', '“<” inside an attribute value', 7],
		['-- in a comment', '<a><!-- a -- b --></a>', '“--” inside a comment', 10],
		['a raw control character', '<a>\u0001</a>', 'U+0001', 3],
		['U+FFFE', '<a>\uFFFE</a>', 'U+FFFE', 3]
	])('finds %s', (_, text, message, offset) => {
		expect(strictFault(text)).toEqual({ message: expect.stringContaining(message), offset });
	});

	it.each([
		'<a>&lt;&gt;&amp;&apos;&quot;&#10;&#x1F389;</a>',
		'<a x="a &amp; b" y=\'q"\'><![CDATA[x ]]]]><![CDATA[> & < ]]></a>',
		'<?xml version="1.0"?><!-- one - dash --><a><?pi x?></a>'
	])('accepts %s', (text) => {
		expect(strictFault(text)).toBeNull();
	});
});

describe('parseXml refuses what the parser would let through', () => {
	it('names the rule and where it is broken', () => {
		const result = parseXml('<account>\n  <x>&nbsp;</x>\n</account>');
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.issue.message).toContain('&nbsp; is not defined');
			expect(result.issue.message).toMatch(/line 2, column 6/);
		}
	});
});
