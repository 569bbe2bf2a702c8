import { randomBytes, scryptSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
	hashPassword,
	PASSWORD_WORK,
	PasswordBusyError,
	passwordProblem,
	setPasswordCost,
	verifyNothing,
	verifyPassword
} from './password';

const PHC = /^\$scrypt\$ln=17,r=8,p=1\$[\w-]{22}\$[\w-]{43}$/;

// Each hash or check at N=2^17 takes a good fraction of a second (seconds on a busy machine):
// one hash serves the file, and the tests that compute allow for a slow machine.
const SLOW = { timeout: 60_000 };
const PASSWORD = 'caf\u00e9 horse battery';
let hash: string;

/** A hash of the smallest cost, in the app's format (a check reads the cost from the hash). */
function cheapHash(password: string): string {
	const salt = randomBytes(16);
	const key = scryptSync(password, salt, 32, { N: 2 ** 10, r: 8, p: 1 });
	return `$scrypt$ln=10,r=8,p=1$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

beforeAll(async () => {
	hash = await hashPassword(PASSWORD);
}, SLOW.timeout);

describe('hashPassword', SLOW, () => {
	it('writes a PHC-style scrypt string with the OWASP parameters and a fresh salt', async () => {
		const again = await hashPassword(PASSWORD);
		expect(hash).toMatch(PHC);
		expect(again).toMatch(PHC);
		expect(again).not.toBe(hash);
		expect(hash).not.toContain('horse');
	});
});

describe('verifyPassword', SLOW, () => {
	it('accepts the password and refuses any other', async () => {
		expect(await verifyPassword(PASSWORD, hash)).toBe(true);
		expect(await verifyPassword('caf\u00e9 horse batterY', hash)).toBe(false);
	});

	it('reads the parameters from the hash, so they can grow', async () => {
		const salt = Buffer.from('0123456789abcdef');
		const key = scryptSync('small parameters', salt, 32, { N: 2 ** 10, r: 8, p: 1 });
		const small = `$scrypt$ln=10,r=8,p=1$${salt.toString('base64url')}$${key.toString('base64url')}`;
		expect(await verifyPassword('small parameters', small)).toBe(true);
		expect(await verifyPassword('other', small)).toBe(false);
	});

	it('compares passwords after NFKC normalisation', async () => {
		expect(await verifyPassword('cafe\u0301 horse battery', hash)).toBe(true);
	});

	it.each([
		['an empty string', ''],
		['another algorithm', '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA'],
		['missing parts', '$scrypt$ln=17,r=8,p=1$c2FsdA'],
		['bad parameters', '$scrypt$ln=x,r=8,p=1$c2FsdA$aGFzaA'],
		['text around it', ' $scrypt$ln=10,r=8,p=1$c2FsdA$aGFzaA'],
		['a truncated hash', '$scrypt$ln=10,r=8,p=1$MDEyMzQ1Njc4OWFiY2RlZg$aGFzaA']
	])('answers false for a malformed hash: %s', async (_, hash) => {
		expect(await verifyPassword('anything at all', hash)).toBe(false);
	});
});

describe('setPasswordCost', SLOW, () => {
	it('sets the cost of the hashes made from now on; older hashes keep theirs', async () => {
		try {
			setPasswordCost(11);
			const cheap = await hashPassword(PASSWORD);
			expect(cheap).toMatch(/^\$scrypt\$ln=11,r=8,p=1\$/);
			expect(await verifyPassword(PASSWORD, cheap)).toBe(true);
			expect(await verifyPassword(PASSWORD, hash)).toBe(true);
		} finally {
			setPasswordCost(17);
		}
		expect(await hashPassword(PASSWORD)).toMatch(PHC);
	});

	it('refuses a cost outside 10 to 18', () => {
		for (const wrong of [9, 19, 12.5, Number.NaN]) {
			expect(() => setPasswordCost(wrong)).toThrow(RangeError);
		}
	});
});

describe('verifyNothing', SLOW, () => {
	it('always answers false', async () => {
		expect(await verifyNothing('not a password of anyone')).toBe(false);
	});
});

describe('passwordProblem', () => {
	it('asks for 12 to 256 characters', () => {
		const long = Array.from({ length: 200 }, (_, i) => i.toString(36)).join('');
		expect(passwordProblem('velvet lant')).toMatch(/at least 12/);
		expect(passwordProblem('velvet lante')).toBeNull();
		expect(passwordProblem(long.slice(0, 256))).toBeNull();
		expect(passwordProblem(long.slice(0, 257))).toMatch(/at most 256/);
	});

	it.each([
		['passwordpassword', /commonly used/],
		['123456789012', /commonly used/],
		['qwertyuiopas', /neighbouring keys/],
		['aaaaaaaaaaaa', /repeats “a”/],
		['PASSWORDPASSWORD', /commonly used/],
		['iloveyou2024!!', /commonly used/],
		['!!Sunshine123', /commonly used/],
		['qwerty123456', /commonly used/],
		['abcdefghijklm', /neighbouring keys/],
		['zyxwvutsrqpon', /neighbouring keys/],
		['567890123456', /neighbouring keys/],
		['2wsx3edc4rfv5tgb', /neighbouring keys/],
		['azertyuiopqsd', /neighbouring keys/],
		["hjkl;'asdfgh", /neighbouring keys/],
		['poiuytrewq12', /neighbouring keys/],
		['abcabcabcabc', /repeats “abc”/],
		['Tr0ub4dor&3Tr0ub4dor&3', /repeats “tr0ub4dor&3”/],
		['éééééééééééé', /repeats “é”/],
		['aabbaabbabab', /fewer than 5 different/],
		['1111222233331', /fewer than 5 different/]
	])('refuses %j', (password, why) => {
		expect(passwordProblem(password)).toMatch(why);
	});

	it.each([
		['ada.lovelace@example.test', 'ada.lovelace@example.test'],
		['Ada.Lovelace@Example.Test', 'ada.lovelace@example.test'],
		['ada.lovelace2024!', 'ada.lovelace@example.test'],
		['ada.lovelace@example.test1', 'ada.lovelace@example.test']
	])('refuses the own e-mail address: %j for %s', (password, email) => {
		expect(passwordProblem(password)).toBeNull();
		expect(passwordProblem(password, email)).toMatch(/your e-mail address/);
	});

	it.each([
		'correct horse battery staple',
		'velvet lantern orbit 42',
		'admin-password-1',
		'café horse battery',
		'Tr0ub4dor&3xyz',
		'9fK#2mQ!vL7p',
		'電話番号を設定するパスワード'
	])('accepts %j', (password) => {
		expect(passwordProblem(password, 'ada.lovelace@example.test')).toBeNull();
	});
});

describe('the bound on password work', () => {
	it(
		'refuses a check at once when 2 run and 8 wait, and lets hashing wait its turn',
		async () => {
			// Turns are given and refused as the checks are called, whatever each costs: the checks
			// here are of a cheap hash, so the test waits for the one hash at the full cost.
			const cheap = cheapHash('right password');
			const checks = Array.from({ length: 14 }, () =>
				verifyPassword('wrong password', cheap).then(
					() => 'checked',
					(e: unknown) => (e instanceof PasswordBusyError ? 'busy' : 'error')
				)
			);
			const hashing = hashPassword('waits however long');
			const outcomes = await Promise.all(checks);
			expect(outcomes.filter((o) => o === 'checked')).toHaveLength(
				PASSWORD_WORK.atOnce + PASSWORD_WORK.waiting
			);
			expect(outcomes.filter((o) => o === 'busy')).toHaveLength(
				14 - PASSWORD_WORK.atOnce - PASSWORD_WORK.waiting
			);
			expect(await hashing).toMatch(PHC);
			// Once the queue has drained, checks run again.
			expect(await verifyPassword('right password', cheap)).toBe(true);
		},
		2 * SLOW.timeout
	);
});
