import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Encryption at rest of secret values: AES-256-GCM with a key from `SECRET_KEY` (32 bytes, as
 * base64 or hex) or from a key file created beside the database with mode 0600. The key is
 * never stored in the database.
 */

const KEY_FILE = 'secret.key';
const AAD = Buffer.from('provisioning-studio/secrets/v1');

/** Thrown when SECRET_KEY is not a usable key; the message says how to make one. */
export class SecretKeyError extends Error {
	readonly code = 'SECRET_KEY_INVALID';
}

/** The key written as 64 hex digits or base64 (32 bytes); throws {@link SecretKeyError} otherwise. */
export function decodeKey(text: string): Buffer {
	const trimmed = text.trim();
	const hex = /^[0-9a-f]{64}$/i.test(trimmed);
	const base64 = /^[A-Za-z0-9+/]{43}=?$|^[A-Za-z0-9_-]{43}$/.test(trimmed);
	const key = hex
		? Buffer.from(trimmed, 'hex')
		: base64
			? Buffer.from(
					trimmed,
					trimmed.includes('-') || trimmed.includes('_') ? 'base64url' : 'base64'
				)
			: Buffer.alloc(0);
	if (key.length !== 32) {
		throw new SecretKeyError(
			'SECRET_KEY must be 32 random bytes written as 64 hex digits or base64 ' +
				'(for example: openssl rand -base64 32).'
		);
	}
	return key;
}

/** Loads the key from the environment, else from (or into) the key file in `dataDir`. */
export function loadSecretKey(dataDir: string, fromEnv = process.env.SECRET_KEY): Buffer {
	if (fromEnv) return decodeKey(fromEnv);
	const file = path.join(dataDir, KEY_FILE);
	if (existsSync(file)) return decodeKey(readFileSync(file, 'utf8'));
	const key = randomBytes(32);
	writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
	return key;
}

/** Seals a text: `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
export function seal(key: Buffer, plaintext: string): string {
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', key, iv);
	cipher.setAAD(AAD);
	const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
	const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'));
	return `v1.${parts.join('.')}`;
}

/** Opens a sealed text; throws if it was altered or sealed with another key. */
export function unseal(key: Buffer, sealed: string): string {
	const [version, iv, tag, data] = sealed.split('.');
	if (version !== 'v1' || !iv || !tag || data === undefined) {
		throw new Error('Not a sealed value');
	}
	const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
	decipher.setAAD(AAD);
	decipher.setAuthTag(Buffer.from(tag, 'base64url'));
	return Buffer.concat([
		decipher.update(Buffer.from(data, 'base64url')),
		decipher.final()
	]).toString('utf8');
}
