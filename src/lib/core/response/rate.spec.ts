import { describe, expect, it } from 'vitest';
import { readRateAnswer } from './rate';

const XML = { 'Content-Type': 'text/xml' };
const JSON_H = { 'Content-Type': 'application/json' };
const read = (body: string, headers: Record<string, string> = {}, status = 200, smart = false) =>
	readRateAnswer({ status, headers, body }, { smart });
const codes = (reading: ReturnType<typeof read>) => reading.issues.map((i) => i.code);

describe('readRateAnswer', () => {
	it('shows the call and message rates of the JSON answer', () => {
		const reading = read('{"callRateString": "1¢/min", "messageRateString": "5¢"}', JSON_H);
		expect(reading.shown).toEqual([
			{ text: 'call', label: 'Call rate', value: '1¢/min' },
			{ text: 'message', label: 'Message rate', value: '5¢' }
		]);
		expect(reading.verdict).toBe('The app shows the call rate “1¢/min” and the message rate “5¢”.');
		expect(reading.issues).toEqual([]);
	});

	it('shows the smart rates for a smart number, and says they are unused otherwise', () => {
		const body =
			'{"callRateString": "1¢", "messageRateString": "5¢", "smartCallRateString": "free", "smartMessageRateString": "free"}';
		const smart = read(body, JSON_H, 200, true);
		expect(smart.shown.map((s) => s.value)).toEqual(['free', 'free']);
		const plain = read(body, JSON_H);
		expect(plain.shown.map((s) => s.value)).toEqual(['1¢', '5¢']);
		expect(plain.issues[0]).toMatchObject({ code: 'rate_smart_unused', severity: 'info' });
	});

	it('falls back to the plain rates for a smart number without smart ones, as an inference', () => {
		const reading = read('{"callRateString": "1¢"}', JSON_H, 200, true);
		expect(reading.shown.map((s) => s.value)).toEqual(['1¢']);
		expect(reading.issues[0]).toMatchObject({
			code: 'rate_smart_missing',
			source: { kind: 'inference' }
		});
	});

	it('shows the legacy rateString when error is 0 or missing, and nothing otherwise', () => {
		for (const body of [
			'<response><error>0</error><rateString>2¢/min</rateString></response>',
			'<response><rateString>2¢/min</rateString></response>'
		]) {
			const reading = read(body, XML);
			expect(reading.shown).toEqual([{ text: 'rate', label: 'Rate', value: '2¢/min' }]);
			expect(reading.issues).toEqual([]);
		}
		const failed = read('<response><error>2</error><rateString>x</rateString></response>', XML);
		expect(failed.shown).toEqual([]);
		expect(failed.issues[0]).toMatchObject({ code: 'rate_error_flag', source: { kind: 'docs' } });
	});

	it('says why nothing is shown: no rate text, non-2xx, HTML, broken JSON', () => {
		const none = read('{"rate": 0.01}', JSON_H);
		expect(none.shown).toEqual([]);
		expect(none.issues[0]).toMatchObject({ code: 'rate_strings_missing', severity: 'warning' });
		expect(read('', {}, 404).verdict).toBe('HTTP 404 is not a success: the app shows no rate.');
		const html = read('<html><body>Oops</body></html>');
		expect(codes(html)).toEqual(['answer_html']);
		const broken = read('{"callRateString": ', JSON_H);
		expect(broken.issues[0]).toMatchObject({
			code: 'answer_invalid_json',
			at: 'line 1, column 20'
		});
	});

	it('warns about a 100 KB rate text', () => {
		const reading = read(JSON.stringify({ callRateString: 'z'.repeat(100 * 1024) }), JSON_H);
		expect(codes(reading)).toEqual(['answer_large', 'value_too_long']);
		expect(reading.verdict.length).toBeLessThan(200);
	});
});
