import { describe, expect, it } from 'vitest';
import { LOGIN_LIMITS, loginAttempt, loginNotChecked, loginSucceeded } from './rate-limit';

// The limiters live in the module: each test uses addresses of its own.

describe('loginAttempt', () => {
	it('lets exactly 5 of 25 attempts sent at once through, before any is checked', async () => {
		const waits = await Promise.all(
			Array.from({ length: 25 }, () => loginAttempt('parallel@example.test', '192.0.2.1'))
		);
		expect(waits.filter((w) => w === 0)).toHaveLength(LOGIN_LIMITS.perUserAndIp.points);
		for (const wait of waits.filter((w) => w > 0)) {
			expect(wait).toBeGreaterThan(0);
			expect(wait).toBeLessThanOrEqual(LOGIN_LIMITS.perUserAndIp.seconds);
		}
		// Even the right password would now wait: nothing was refunded.
		expect(await loginAttempt('parallel@example.test', '192.0.2.1')).toBeGreaterThan(0);
	});

	it('counts the same e-mail in any case and with spaces as one', async () => {
		for (const email of ['Case@Example.test', ' case@example.test', 'CASE@EXAMPLE.TEST ']) {
			await loginAttempt(email, '192.0.2.2');
		}
		await loginAttempt('case@example.test', '192.0.2.2');
		await loginAttempt('case@example.test', '192.0.2.2');
		expect(await loginAttempt('case@example.test', '192.0.2.2')).toBeGreaterThan(0);
	});

	it('limits an address across e-mails, and a refusal by one limit costs the other nothing', async () => {
		const ip = '192.0.2.3';
		for (let i = 0; i < LOGIN_LIMITS.perIp.points; i++) {
			expect(await loginAttempt(`user-${i % 10}@example.test`, ip)).toBe(0);
		}
		expect(await loginAttempt('fresh@example.test', ip)).toBeGreaterThan(0);
		// The refused attempt did not use up fresh@example.test's own allowance elsewhere.
		for (let i = 0; i < LOGIN_LIMITS.perUserAndIp.points; i++) {
			expect(await loginAttempt('fresh@example.test', '192.0.2.4')).toBe(0);
		}
	});

	it('gives points back for an attempt that was never checked, and after a success', async () => {
		const ip = '192.0.2.5';
		for (let i = 0; i < 4; i++) expect(await loginAttempt('back@example.test', ip)).toBe(0);
		expect(await loginAttempt('back@example.test', ip)).toBe(0);
		await loginNotChecked('back@example.test', ip);
		expect(await loginAttempt('back@example.test', ip)).toBe(0);
		expect(await loginAttempt('back@example.test', ip)).toBeGreaterThan(0);
		await loginSucceeded('back@example.test', ip);
		expect(await loginAttempt('back@example.test', ip)).toBe(0);
	});
});
