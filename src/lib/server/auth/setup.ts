import { timingSafeEqual } from 'node:crypto';
import { hashSecret, newSecret } from './tokens';

/**
 * The one-time setup link of a fresh installation: while no user exists, the server prints a
 * link whose token creates the first admin. It expires after an hour and works once.
 */

const LIFETIME_MS = 60 * 60 * 1000;

let pending: { hash: string; expiresAt: number } | undefined;

/** Makes a new setup token (replacing any earlier one) and returns it. */
export function issueSetupToken(now = Date.now()): string {
	const token = newSecret();
	pending = { hash: hashSecret(token), expiresAt: now + LIFETIME_MS };
	return token;
}

/** True when the token is the pending, unexpired one. */
export function checkSetupToken(token: string, now = Date.now()): boolean {
	if (!pending || now >= pending.expiresAt || !token) return false;
	const a = Buffer.from(hashSecret(token), 'hex');
	const b = Buffer.from(pending.hash, 'hex');
	return timingSafeEqual(a, b);
}

/** Uses the token up. */
export function consumeSetupToken(): void {
	pending = undefined;
}
