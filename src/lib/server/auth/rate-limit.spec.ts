import { describe, expect, it } from 'vitest';
import {
	GUESS_LIMITS,
	guessAttempt,
	guessNotChecked,
	guessSucceeded,
	LOGIN_LIMITS,
	loginAttempt,
	loginNotChecked,
	loginSucceeded,
	secondFactorAttempt
} from './rate-limit';

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

describe('guessAttempt', () => {
	const token = (userId: number, credential: string) => ({
		userId,
		via: 'token' as const,
		credential
	});
	const session = (userId: number, credential: string) => ({
		userId,
		via: 'session' as const,
		credential
	});

	it("counts a credential's guesses apart from its account's other credentials and sign-in codes", async () => {
		const { perCredential } = GUESS_LIMITS;
		for (let i = 0; i < perCredential.points; i++) {
			expect(await guessAttempt(token(101, 'token-a'))).toBe(0);
		}
		const wait = await guessAttempt(token(101, 'token-a'));
		expect(wait).toBeGreaterThan(0);
		expect(wait).toBeLessThanOrEqual(perCredential.seconds);
		expect(await guessAttempt(session(101, 'session-b'))).toBe(0);
		expect(await secondFactorAttempt(101)).toBe(0);
	});

	it("holds an account's tokens together at the ceiling, and never its sessions", async () => {
		const tokens = GUESS_LIMITS.perUserTokens.points / GUESS_LIMITS.perCredential.points;
		for (let t = 0; t < tokens; t++) {
			for (let i = 0; i < GUESS_LIMITS.perCredential.points; i++) {
				expect(await guessAttempt(token(102, `token-${t}`))).toBe(0);
			}
		}
		expect(await guessAttempt(token(102, 'token-new'))).toBeGreaterThan(0);
		expect(await guessAttempt(session(102, 'session'))).toBe(0);
		expect(await secondFactorAttempt(102)).toBe(0);
	});

	it('gives back the point of a guess that was never checked, and of a right one', async () => {
		const me = token(103, 'token-c');
		for (let i = 0; i < GUESS_LIMITS.perCredential.points; i++) {
			expect(await guessAttempt(me)).toBe(0);
		}
		await guessNotChecked(me);
		expect(await guessAttempt(me)).toBe(0);
		expect(await guessAttempt(me)).toBeGreaterThan(0);
		await guessSucceeded(me);
		expect(await guessAttempt(me)).toBe(0);
	});
});
