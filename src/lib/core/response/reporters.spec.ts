import { describe, expect, it } from 'vitest';
import { readReporterAnswer } from './reporters';

const ok = { status: 200, headers: {}, body: '' };

describe('readReporterAnswer', () => {
	it('counts a 2xx as success, an inference for the reporters the contract does not define', () => {
		for (const reporter of ['pushNotificationReporter', 'accountRemovalReporter'] as const) {
			const reading = readReporterAnswer(reporter, { ...ok, status: 204 });
			expect(reading.success).toBe(true);
			expect(reading.rule).toEqual({ kind: 'inference', ref: expect.any(String) });
			expect(reading.issues).toEqual([]);
		}
		expect(readReporterAnswer('pushTokenReporter', ok).rule.kind).toBe('contract');
	});

	it('says what the provider should do with each call', () => {
		expect(readReporterAnswer('accountRemovalReporter', ok).verdict).toBe(
			'The report is delivered. The provider should now delete the push tokens it stored for this selector: the account was signed out or removed, so no push may go to it.'
		);
		expect(readReporterAnswer('pushTokenReporter', ok).verdict).toContain(
			'store pushToken and pushTokenIncomingCall with their application ids under the selector'
		);
		const test = readReporterAnswer('pushNotificationReporter', ok, { pushId: 'test-42' });
		expect(test.verdict).toContain('count push test “test-42” as delivered');
		const message = readReporterAnswer('pushNotificationReporter', ok, { type: 'sm' });
		expect(message.verdict).toContain('count the delivery of this push (type “sm”)');
	});

	it('counts a non-2xx as a failure, a warning at most', () => {
		const reading = readReporterAnswer('accountRemovalReporter', { ...ok, status: 500 });
		expect(reading.success).toBe(false);
		expect(reading.verdict).toContain('HTTP 500');
		expect(reading.issues[0]).toMatchObject({ code: 'reporter_not_2xx', severity: 'warning' });
	});

	it('notes a 2xx HTML page or a 1 MB body, which the app does not read', () => {
		const html = readReporterAnswer('pushNotificationReporter', {
			status: 200,
			headers: { 'Content-Type': 'text/html' },
			body: '<!DOCTYPE html><html><title>Sign in</title></html>'
		});
		expect(html.success).toBe(true);
		expect(html.issues[0]).toMatchObject({ code: 'reporter_html_answer', severity: 'warning' });
		expect(html.issues[0].message).toContain('“Sign in”');
		const big = readReporterAnswer('pushNotificationReporter', {
			...ok,
			body: 'x'.repeat(1024 * 1024)
		});
		expect(big.issues[0]).toMatchObject({ code: 'reporter_body_large', severity: 'info' });
	});

	it('quotes at most 80 characters of a 1,000-character push id', () => {
		const reading = readReporterAnswer('pushNotificationReporter', ok, {
			pushId: 'p'.repeat(1000)
		});
		expect(reading.verdict.length).toBeLessThan(300);
	});
});
