import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { messageBody, messageId, readAuditStreamConfig, retryDelay } from './stream';

const limits = { baseMs: 1000, maxMs: 60_000 };

describe('retryDelay', () => {
	it('doubles with every attempt, from the first wait up to the cap', () => {
		// With the largest random part the wait is the whole doubled delay.
		const most = () => 0.999_999;
		expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelay(n, limits, most))).toEqual([
			1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000
		]);
		// An attempt far along stays at the cap, however large its exponent.
		expect(retryDelay(10_000, limits, most)).toBe(60_000);
	});

	it('leaves out a random part of up to half, never more', () => {
		expect(retryDelay(1, limits, () => 0)).toBe(500);
		expect(retryDelay(3, limits, () => 0)).toBe(2000);
		expect(retryDelay(20, limits, () => 0)).toBe(30_000);
		expect(retryDelay(3, limits, () => 0.5)).toBe(3000);
		for (let i = 0; i < 200; i++) {
			const wait = retryDelay(4, limits);
			expect(wait).toBeGreaterThanOrEqual(4000);
			expect(wait).toBeLessThanOrEqual(8000);
		}
	});

	it('counts a first attempt for anything below one', () => {
		expect(retryDelay(0, limits, () => 0)).toBe(500);
		expect(retryDelay(-3, limits, () => 0)).toBe(500);
	});
});

describe('the message of an entry', () => {
	const entry = {
		id: 42,
		at: Date.UTC(2026, 10, 28, 4, 0, 0),
		actorId: 7,
		actor: 'ada@example.test',
		action: 'profile.saved',
		target: 'acme',
		ip: '192.0.2.1',
		details: { revision: 3, base: 2, requestId: 'req-1' }
	};

	it('is the entry in the envelope, with an id stable per entry', () => {
		expect(messageId(entry)).toBe('audit_42');
		expect(JSON.parse(messageBody(entry))).toEqual({
			type: 'audit.entry',
			timestamp: '2026-11-28T04:00:00.000Z',
			data: entry
		});
		expect(messageBody(entry)).toBe(messageBody({ ...entry }));
	});

	it("verifies with the library's own check when signed with the configured secret", () => {
		const secret = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
		const webhook = new Webhook(secret);
		const at = new Date();
		const body = messageBody(entry);
		const headers = {
			'webhook-id': messageId(entry),
			'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
			'webhook-signature': webhook.sign(messageId(entry), at, body)
		};
		expect(webhook.verify(body, headers)).toEqual(JSON.parse(body));
		const other = new Webhook(`whsec_${Buffer.alloc(32, 6).toString('base64')}`);
		expect(() => other.verify(body, headers)).toThrow();
	});
});

describe('readAuditStreamConfig', () => {
	const secret = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;

	it('is off with neither variable, on with both, its waits from the internal knobs', () => {
		expect(readAuditStreamConfig({})).toBeNull();
		const config = readAuditStreamConfig({
			AUDIT_WEBHOOK_URL: 'http://127.0.0.1:9000/in?key=k',
			AUDIT_WEBHOOK_SECRET: secret,
			AUDIT_STREAM_RETRY_MS: '20'
		});
		expect(config).toMatchObject({
			secret,
			retryMs: 20,
			retryMaxMs: 300_000,
			pollMs: 1000,
			leaseMs: 60_000
		});
		expect(config?.url.href).toBe('http://127.0.0.1:9000/in?key=k');
	});

	it('refuses one without the other, naming both', () => {
		expect(() => readAuditStreamConfig({ AUDIT_WEBHOOK_URL: 'https://siem.test/' })).toThrow(
			'AUDIT_WEBHOOK_URL is set without AUDIT_WEBHOOK_SECRET: set both, or neither.'
		);
	});
});
