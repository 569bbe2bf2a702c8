import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt at OWASP's parameters (N = 2^17, r = 8, p = 1), stored as a
 * PHC-style string so the parameters can grow: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`.
 */

const PARAMS = { ln: 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
const MAX_MEMORY = 256 * 1024 * 1024;

/** Shortest and longest password accepted. */
export const PASSWORD_LIMITS = { min: 12, max: 256 };

function derive(password: string, salt: Buffer, ln: number, r: number, p: number): Promise<Buffer> {
	const options: ScryptOptions = { N: 2 ** ln, r, p, maxmem: MAX_MEMORY };
	return new Promise((resolve, reject) => {
		scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
			error ? reject(error) : resolve(key)
		);
	});
}

/** A problem with a new password, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
	if (password.length < PASSWORD_LIMITS.min) {
		return `The password needs at least ${PASSWORD_LIMITS.min} characters.`;
	}
	if (password.length > PASSWORD_LIMITS.max) {
		return `The password may have at most ${PASSWORD_LIMITS.max} characters.`;
	}
	return null;
}

/** Hashes a password into a PHC-style string. */
export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(16);
	const key = await derive(password, salt, PARAMS.ln, PARAMS.r, PARAMS.p);
	const params = `ln=${PARAMS.ln},r=${PARAMS.r},p=${PARAMS.p}`;
	return `$scrypt$${params}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Checks a password against a stored hash in constant time; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
	const match = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
	if (!match) return false;
	const [, ln, r, p, salt, hash] = match;
	const expected = Buffer.from(hash, 'base64url');
	const key = await derive(password, Buffer.from(salt, 'base64url'), +ln, +r, +p);
	return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummyHash: Promise<string> | undefined;

/** Spends the time of a real check, so an unknown e-mail takes as long as a wrong password. */
export async function verifyNothing(password: string): Promise<false> {
	dummyHash ??= hashPassword('not a password of anyone');
	await verifyPassword(password, await dummyHash);
	return false;
}
