import { scryptSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, verifyNothing, verifyPassword } from './password';

const PHC = /^\$scrypt\$ln=17,r=8,p=1\$[\w-]{22}\$[\w-]{43}$/;

// Each hash or check at N=2^17 takes a good fraction of a second: one hash serves the file.
const PASSWORD = 'caf\u00e9 horse battery';
let hash: string;

beforeAll(async () => {
	hash = await hashPassword(PASSWORD);
});

describe('hashPassword', () => {
	it('writes a PHC-style scrypt string with the OWASP parameters and a fresh salt', async () => {
		const again = await hashPassword(PASSWORD);
		expect(hash).toMatch(PHC);
		expect(again).toMatch(PHC);
		expect(again).not.toBe(hash);
		expect(hash).not.toContain('horse');
	});
});

describe('verifyPassword', () => {
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

describe('verifyNothing', () => {
	it('always answers false', async () => {
		expect(await verifyNothing('not a password of anyone')).toBe(false);
	});
});

describe('passwordProblem', () => {
	it('asks for 12 to 256 characters and nothing else', () => {
		expect(passwordProblem('a'.repeat(11))).toMatch(/at least 12/);
		expect(passwordProblem('a'.repeat(12))).toBeNull();
		expect(passwordProblem('a'.repeat(256))).toBeNull();
		expect(passwordProblem('a'.repeat(257))).toMatch(/at most 256/);
	});
});
