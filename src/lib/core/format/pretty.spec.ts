import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prettyBody, prettyJson, prettyXml } from './pretty';

describe('prettyJson', () => {
	it('indents objects and arrays and keeps values exactly as written', () => {
		const text = '{"a":1.50,"b":[1e3, "x\\"y, z"],"c":{},"d":[ ]}';
		expect(prettyJson(text)).toBe(
			'{\n  "a": 1.50,\n  "b": [\n    1e3,\n    "x\\"y, z"\n  ],\n  "c": {},\n  "d": []\n}'
		);
	});

	it('keeps the spaces inside strings', () => {
		expect(prettyJson('{"m":"a  b\\n  c"}')).toBe('{\n  "m": "a  b\\n  c"\n}');
	});

	it('answers null for text that is not JSON', () => {
		expect(prettyJson('{"a":')).toBeNull();
	});

	it('means the same JSON as the exact text', () => {
		fc.assert(
			fc.property(fc.jsonValue(), (value) => {
				const text = JSON.stringify(value);
				expect(JSON.parse(prettyJson(text)!)).toEqual(JSON.parse(text));
			})
		);
	});
});

describe('prettyXml', () => {
	it('puts one element per line and keeps text beside its tags', () => {
		expect(
			prettyXml('<?xml version="1.0"?><root><to>+1</to><e/><n><m>x &amp; y</m></n></root>')
		).toBe(
			'<?xml version="1.0"?>\n<root>\n  <to>+1</to>\n  <e/>\n  <n>\n    <m>x &amp; y</m>\n  </n>\n</root>'
		);
	});

	it('keeps markup as text: a script element is only a line', () => {
		expect(prettyXml('<script>alert(1)</script>')).toBe('<script>alert(1)</script>');
	});

	it('answers null for XML that is not well-formed', () => {
		expect(prettyXml('<a><b></a>')).toBeNull();
	});
});

describe('prettyBody', () => {
	it('follows the content type, and offers nothing for other bodies', () => {
		expect(prettyBody('{"a":1}', 'application/json; charset=utf-8')).toBe('{\n  "a": 1\n}');
		expect(prettyBody('<a><b/></a>', 'text/xml')).toBe('<a>\n  <b/>\n</a>');
		expect(prettyBody('a=1&b=2', 'application/x-www-form-urlencoded')).toBeNull();
		expect(prettyBody('', 'application/json')).toBeNull();
	});
});
