import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSecretKey, seal, SecretKeyError, unseal } from './secrets';

const KEY = randomBytes(32);

/** Changes one character of a base64url part of a sealed value. */
function tamper(sealed: string, part: 1 | 2 | 3): string {
	const parts = sealed.split('.');
	const text = parts[part];
	parts[part] = (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
	return parts.join('.');
}

describe('seal', () => {
	it('round-trips any text through unseal', () => {
		for (const text of [
			'',
			'p@ss word&1',
			'\u2022 emoji \u{1F511} and \n newline',
			'x'.repeat(10_000)
		]) {
			expect(unseal(KEY, seal(KEY, text))).toBe(text);
		}
	});

	it('writes v1.<iv>.<tag>.<ciphertext> without the plain text, differently each time', () => {
		const a = seal(KEY, 'hunter2 hunter2');
		const b = seal(KEY, 'hunter2 hunter2');
		expect(a).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
		expect(a).not.toBe(b);
		expect(a).not.toContain('hunter2');
		expect(Buffer.from(a.split('.')[3], 'base64url').toString()).not.toContain('hunter2');
	});
});

describe('unseal', () => {
	const sealed = seal(KEY, 'the secret');

	it.each([
		['the iv', 1],
		['the tag', 2],
		['the ciphertext', 3]
	] as const)('throws when %s was altered', (_, part) => {
		expect(() => unseal(KEY, tamper(sealed, part))).toThrow();
	});

	it('throws with another key', () => {
		expect(() => unseal(randomBytes(32), sealed)).toThrow();
	});

	it.each(['', 'the secret', 'v2.a.b.c', 'v1.only-two'])(
		'throws for %j, not a sealed value',
		(text) => {
			expect(() => unseal(KEY, text)).toThrow();
		}
	);
});

describe('loadSecretKey', () => {
	let dir: string;
	afterEach(() => rmSync(dir, { recursive: true, force: true }));
	const fresh = () => (dir = mkdtempSync(path.join(tmpdir(), 'ps-secrets-')));

	it('decodes SECRET_KEY as 64 hex digits or as base64, and writes no key file then', () => {
		fresh();
		const key = randomBytes(32);
		expect(loadSecretKey(dir, key.toString('hex'))).toEqual(key);
		expect(loadSecretKey(dir, key.toString('hex').toUpperCase())).toEqual(key);
		expect(loadSecretKey(dir, key.toString('base64'))).toEqual(key);
		expect(loadSecretKey(dir, ` ${key.toString('base64')}\n`)).toEqual(key);
		expect(existsSync(path.join(dir, 'secret.key'))).toBe(false);
	});

	it.each([
		['too short', randomBytes(16).toString('base64')],
		['too long', randomBytes(48).toString('base64')],
		['63 hex digits', randomBytes(32).toString('hex').slice(1)],
		['a passphrase', 'my secret key'],
		[
			'a passphrase that base64 would decode to 32 bytes',
			'correct horse battery staple ok then some more word'
		]
	])('refuses a SECRET_KEY that is %s with a SecretKeyError saying how to make one', (_, text) => {
		fresh();
		let error: unknown;
		try {
			loadSecretKey(dir, text);
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(SecretKeyError);
		expect(error).toMatchObject({ code: 'SECRET_KEY_INVALID' });
		expect((error as Error).message).toMatch(/32 random bytes.*openssl rand/s);
	});

	it('creates secret.key with mode 0600 when there is no SECRET_KEY, and reuses it', () => {
		fresh();
		const first = loadSecretKey(dir, undefined);
		const file = path.join(dir, 'secret.key');
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(first).toHaveLength(32);
		expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toEqual(first);
		const second = loadSecretKey(dir, undefined);
		expect(second).toEqual(first);
		expect(unseal(second, seal(first, 'still readable'))).toBe('still readable');
	});

	it('refuses a key file that does not hold a key', () => {
		fresh();
		writeFileSync(path.join(dir, 'secret.key'), 'not a key\n', { mode: 0o600 });
		expect(() => loadSecretKey(dir, undefined)).toThrow(SecretKeyError);
	});
});
