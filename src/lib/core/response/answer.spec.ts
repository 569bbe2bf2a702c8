import { describe, expect, it } from 'vitest';
import { headerOf, longText, quoted, readAnswerBody, ruleIssue, type RuleSource } from './answer';

const DOCS: RuleSource = { kind: 'docs', ref: 'api/client/rate_checker' };
const PROVIDERS: RuleSource = { kind: 'providers', ref: 'seen in real implementations' };
const INFERENCE: RuleSource = { kind: 'inference', ref: 'not documented by the platform' };

describe('ruleIssue', () => {
	it('keeps an error of a documented rule and says where it is', () => {
		const issue = ruleIssue(DOCS, 'x', 'error', 'Broken.', '$.a');
		expect(issue).toMatchObject({ severity: 'error', source: DOCS, at: '$.a' });
		expect(issue.message).toBe('Broken. (at $.a)');
	});

	it('makes an error of a rule from providers or an inference a warning', () => {
		expect(ruleIssue(PROVIDERS, 'x', 'error', 'Broken.').severity).toBe('warning');
		expect(ruleIssue(INFERENCE, 'x', 'error', 'Broken.').severity).toBe('warning');
		expect(ruleIssue(INFERENCE, 'x', 'info', 'Note.').severity).toBe('info');
	});
});

describe('headerOf', () => {
	it('finds a header by name in either form, whatever its case', () => {
		expect(headerOf({ 'Last-Modified': 'x' }, 'last-modified')).toBe('x');
		expect(headerOf([{ name: 'content-TYPE', value: 'y' }], 'Content-Type')).toBe('y');
		expect(headerOf({}, 'content-type')).toBeNull();
	});
});

describe('readAnswerBody', () => {
	const read = (body: string, contentType?: string) =>
		readAnswerBody(body, contentType ?? null, DOCS);

	it('reads JSON by its Content-Type and XML by its first character', () => {
		expect(read('{"a": 1}', 'application/json')).toEqual({ kind: 'json', value: { a: 1 } });
		const xml = read('<response><a>1</a></response>');
		expect(xml.kind === 'xml' && xml.root.name).toBe('response');
		expect(read('  ')).toEqual({ kind: 'empty' });
	});

	it('names an HTML page, with its title, at line 1, column 1', () => {
		const page = '<!DOCTYPE html><html><head><title>Sign in</title></head></html>';
		for (const reading of [read(page), read(page, 'application/json'), read('<p>', 'text/html')]) {
			expect(reading.kind).toBe('unreadable');
			if (reading.kind !== 'unreadable') continue;
			expect(reading.issue.code).toBe('answer_html');
			expect(reading.issue.severity).toBe('error');
		}
		const titled = read(page);
		expect(titled.kind === 'unreadable' && titled.issue.message).toContain('“Sign in”');
	});

	it('refuses a DOCTYPE and 10,000 nesting levels with line and column', () => {
		const doctype = read('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>');
		expect(doctype.kind === 'unreadable' && doctype.issue).toMatchObject({ code: 'xml_doctype' });
		expect(doctype.kind === 'unreadable' && doctype.issue.message).toContain('line 2, column 1');
		const deep = read('<a>'.repeat(10_000) + '</a>'.repeat(10_000));
		expect(deep.kind === 'unreadable' && deep.issue.code).toBe('xml_too_deep');
		expect(deep.kind === 'unreadable' && deep.issue.message).toMatch(/line 1, column \d+/);
	});

	it('says where JSON breaks when the engine says so', () => {
		const trailing = read('{"a": 1}\n x', 'application/json');
		expect(trailing.kind === 'unreadable' && trailing.issue.code).toBe('answer_invalid_json');
		expect(trailing.kind === 'unreadable' && trailing.issue.message).toContain('line 2, column 2');
		const cut = read('{"a": ', 'application/json');
		expect(cut.kind === 'unreadable' && cut.issue.message).toContain('line 1, column 7');
	});

	it('names plain text as neither JSON nor XML', () => {
		const text = read('OK', 'text/plain');
		expect(text.kind === 'unreadable' && text.issue.code).toBe('answer_not_json_or_xml');
	});

	it('reads a 1 MB body in one pass', () => {
		const body = JSON.stringify({ a: 'x'.repeat(1024 * 1024) });
		const reading = read(body, 'application/json');
		expect(reading.kind).toBe('json');
	});
});

describe('longText and quoted', () => {
	it('flags a value longer than its limit, with its length and place', () => {
		expect(longText('x'.repeat(1000), 100, 'balanceString', '$.balanceString')).toMatchObject({
			code: 'value_too_long',
			severity: 'warning',
			at: '$.balanceString'
		});
		expect(longText('short', 100, 'balanceString', '$.balanceString')).toBeNull();
	});

	it('quotes at most 80 characters of a text', () => {
		expect(quoted('abc')).toBe('“abc”');
		expect(quoted('y'.repeat(100_000))).toBe(`“${'y'.repeat(80)}…” (100,000 characters)`);
	});
});
