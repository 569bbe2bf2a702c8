import { describe, expect, it } from 'vitest';
import { readBalanceAnswer } from './balance';

const XML = { 'Content-Type': 'application/xml' };
const JSON_H = { 'Content-Type': 'application/json' };
const read = (body: string, headers: Record<string, string> = {}, status = 200) =>
	readBalanceAnswer({ status, headers, body });
const codes = (reading: ReturnType<typeof read>) => reading.issues.map((i) => i.code);

describe('readBalanceAnswer', () => {
	it('shows the balanceString of the documented XML answer', () => {
		const reading = read(
			'<response><error>0</error><balanceString>$60.20</balanceString></response>',
			XML
		);
		expect(reading.shown).toBe('$60.20');
		expect(reading.format).toBe('xml');
		expect(reading.verdict).toBe('The app shows the balance “$60.20”.');
		expect(reading.issues).toEqual([]);
	});

	it('shows the balanceString of the JSON answer and says balance and currency are not shown', () => {
		const reading = read('{"balanceString": "€ 4.10", "balance": 4.1, "currency": "EUR"}', JSON_H);
		expect(reading.shown).toBe('€ 4.10');
		expect(reading.format).toBe('json');
		expect(codes(reading)).toEqual(['balance_fields_not_shown']);
		expect(reading.issues[0]).toMatchObject({ severity: 'info', source: { kind: 'providers' } });
	});

	it('shows nothing when the error flag is not 0, and says so from the documentation', () => {
		const reading = read(
			'<response><error>1</error><balanceString>$0</balanceString></response>',
			XML
		);
		expect(reading.shown).toBeNull();
		expect(reading.verdict).toBe('<error> is 1, not 0: the app shows no balance.');
		expect(reading.issues[0]).toMatchObject({
			code: 'balance_error_flag',
			severity: 'warning',
			source: { kind: 'docs' },
			at: 'response/error'
		});
	});

	it('reads an XML answer without an error flag, as an inference', () => {
		const reading = read('<response><balanceString>12 min</balanceString></response>');
		expect(reading.shown).toBe('12 min');
		expect(reading.issues[0]).toMatchObject({ code: 'balance_no_error_flag', severity: 'info' });
	});

	it('shows nothing without a balanceString: an error of the XML, a warning of the JSON', () => {
		const xml = read('<response><error>0</error></response>', XML);
		expect(xml.shown).toBeNull();
		expect(xml.issues[0]).toMatchObject({ code: 'balance_string_missing', severity: 'error' });
		const json = read('{"balance": 3, "currency": "USD"}', JSON_H);
		expect(json.shown).toBeNull();
		expect(json.issues[0]).toMatchObject({ code: 'balance_string_missing', severity: 'warning' });
		expect(json.verdict).toContain('no balanceString');
	});

	it('shows nothing for a balanceString that is not text', () => {
		const reading = read('{"balanceString": 60.2}', JSON_H);
		expect(reading.shown).toBeNull();
		expect(reading.issues[0]).toMatchObject({
			code: 'balance_string_not_text',
			at: '$.balanceString'
		});
	});

	it('shows nothing for a non-2xx answer', () => {
		const reading = read('{"message": "Down"}', JSON_H, 503);
		expect(reading.shown).toBeNull();
		expect(reading.verdict).toBe('HTTP 503 is not a success: the app shows no balance.');
	});

	it('shows nothing for an HTML page, and names it', () => {
		const reading = read('<!doctype html><title>Login</title>', { 'Content-Type': 'text/html' });
		expect(reading.shown).toBeNull();
		expect(codes(reading)).toEqual(['answer_html']);
		expect(reading.verdict).toContain('HTML page');
	});

	it('refuses a DOCTYPE and deep nesting with line and column', () => {
		const doctype = read('<!DOCTYPE response><response/>', XML);
		expect(doctype.shown).toBeNull();
		expect(doctype.issues[0]).toMatchObject({ code: 'xml_doctype', at: 'line 1, column 1' });
		const deep = read('<response>' + '<a>'.repeat(10_000) + '</a>'.repeat(10_000) + '</response>');
		expect(codes(deep)).toContain('xml_too_deep');
	});

	it('names a root that is not response', () => {
		const reading = read('<balance><balanceString>1</balanceString></balance>', XML);
		expect(reading.shown).toBeNull();
		expect(codes(reading)).toEqual(['balance_root_not_response']);
	});

	it('warns about a 1,000-character balanceString and a 1 MB answer, still quickly', () => {
		const long = read(JSON.stringify({ balanceString: 'x'.repeat(1000) }), JSON_H);
		expect(long.shown).toHaveLength(1000);
		expect(long.issues[0]).toMatchObject({ code: 'value_too_long', at: '$.balanceString' });
		expect(long.verdict.length).toBeLessThan(200);
		const huge = read(JSON.stringify({ balanceString: '1', pad: 'y'.repeat(1024 * 1024) }), JSON_H);
		expect(codes(huge)).toContain('answer_large');
	});

	it('says an empty 2xx answer shows nothing', () => {
		expect(read('', {}, 204).verdict).toContain('empty');
	});
});
