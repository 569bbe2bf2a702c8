import { describe, expect, it } from 'vitest';
import { formatBytes, prettyJson, prettyXml } from './pretty';

describe('prettyJson', () => {
	it('indents JSON and declines anything else', () => {
		expect(prettyJson('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
		expect(prettyJson('<a/>')).toBeNull();
	});
});

describe('prettyXml', () => {
	it('puts one element per line, text with its element', () => {
		expect(prettyXml('<?xml version="1.0"?><r><a>1</a><b/></r>')).toBe(
			'<?xml version="1.0"?>\n<r>\n  <a>1</a>\n  <b/>\n</r>'
		);
	});

	it('keeps markup as text: a script element is only lines', () => {
		expect(prettyXml('<script>alert(1)</script>')).toBe('<script>alert(1)</script>');
		expect(prettyXml('not xml')).toBeNull();
	});
});

describe('formatBytes', () => {
	it('uses B, KB and MB', () => {
		expect([formatBytes(512), formatBytes(1536), formatBytes(1048576)]).toEqual([
			'512 B',
			'1.5 KB',
			'1.0 MB'
		]);
	});
});
