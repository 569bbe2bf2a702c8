import { createHash, randomBytes } from 'node:crypto';

/** Random secrets for sessions, API tokens and setup links, and how they are stored (hashed). */

/** A new random secret (256 bits), base64url, with an optional recognisable prefix. */
export function newSecret(prefix = ''): string {
	return prefix + randomBytes(32).toString('base64url');
}

/** The stored form of a secret: its SHA-256, hex. A leaked database yields no usable token. */
export function hashSecret(secret: string): string {
	return createHash('sha256').update(secret).digest('hex');
}

/** The prefix of API tokens, so they are easy to recognise in logs and secret scanners. */
export const API_TOKEN_PREFIX = 'pst_';
