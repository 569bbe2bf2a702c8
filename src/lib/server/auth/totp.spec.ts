import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { codeStep, openBeforeEnrolment, recoveryCodeHash } from './totp';

const secret = new Secret({ size: 20 }).base32;
const email = 'alice@example.test';
const at = 1_800_000_015_000;
const step = Math.floor(at / 30_000);
const codeAt = (timestamp: number) =>
	TOTP.generate({ secret: Secret.fromBase32(secret), timestamp });

describe('codeStep', () => {
	it('answers the step of a code within one step either side of now', () => {
		expect(codeStep(email, secret, codeAt(at), at)).toBe(step);
		expect(codeStep(email, secret, codeAt(at - 30_000), at)).toBe(step - 1);
		expect(codeStep(email, secret, codeAt(at + 30_000), at)).toBe(step + 1);
	});

	it('refuses codes two steps away, and what is not six digits', () => {
		const far = codeAt(at - 60_000);
		const near = [-1, 0, 1].map((o) => codeAt(at + o * 30_000));
		// (Unless, one time in about 300,000, it equals a code of the window.)
		expect(near.includes(far) || codeStep(email, secret, far, at) === null).toBe(true);
		expect(codeStep(email, secret, '12345', at)).toBeNull();
		expect(codeStep(email, secret, '1234567', at)).toBeNull();
		expect(codeStep(email, secret, 'abcdef', at)).toBeNull();
	});

	it('ignores spaces typed between the digits', () => {
		const code = codeAt(at);
		expect(codeStep(email, secret, `${code.slice(0, 3)} ${code.slice(3)}`, at)).toBe(step);
	});
});

describe('recoveryCodeHash', () => {
	it('reads a code without regard to case, spaces or dashes, and binds it to its account', () => {
		const hash = recoveryCodeHash(7, 'abcd-efgh-jkmn-pqrs');
		expect(recoveryCodeHash(7, 'ABCD EFGH JKMN PQRS')).toBe(hash);
		expect(recoveryCodeHash(7, 'abcdefghjkmnpqrs')).toBe(hash);
		expect(recoveryCodeHash(8, 'abcd-efgh-jkmn-pqrs')).not.toBe(hash);
	});
});

describe('openBeforeEnrolment', () => {
	it('leaves open the set-up, the session, signing out and the account page', () => {
		expect(openBeforeEnrolment('POST', '/api/me/totp')).toBe(true);
		expect(openBeforeEnrolment('PUT', '/api/me/totp')).toBe(true);
		expect(openBeforeEnrolment('GET', '/api/session')).toBe(true);
		expect(openBeforeEnrolment('DELETE', '/api/session')).toBe(true);
		expect(openBeforeEnrolment('POST', '/logout')).toBe(true);
		expect(openBeforeEnrolment('GET', '/account')).toBe(true);
		expect(openBeforeEnrolment('POST', '/account', '?/totpStart')).toBe(true);
		expect(openBeforeEnrolment('POST', '/account', '?/totpActivate')).toBe(true);
	});

	it('holds everything else, the account page’s other forms included', () => {
		expect(openBeforeEnrolment('GET', '/api/profiles')).toBe(false);
		expect(openBeforeEnrolment('POST', '/api/tokens')).toBe(false);
		expect(openBeforeEnrolment('PUT', '/api/me/password')).toBe(false);
		expect(openBeforeEnrolment('GET', '/profiles')).toBe(false);
		expect(openBeforeEnrolment('POST', '/account', '?/createToken')).toBe(false);
		expect(openBeforeEnrolment('POST', '/account', '?/totpDisable')).toBe(false);
		expect(openBeforeEnrolment('GET', '/api/me/totp/x')).toBe(false);
	});
});
