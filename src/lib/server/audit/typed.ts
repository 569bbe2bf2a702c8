import { createHmac, hkdfSync } from 'node:crypto';

/**
 * What the audit log keeps of text typed where an account's address was expected, when it is no
 * account's: not the text (it may be a password typed in the wrong box), but a keyed hash of
 * it. Keyed with a key derived from the app's secret key, the hash cannot be reversed by trying
 * common passwords without that key, while the same text always gives the same hash, so an
 * operator can still see repeated attempts with one text.
 */

/** What the audit log names as the actor of such an attempt. */
export const UNKNOWN_ADDRESS = '(unknown address)';

const keys = new WeakMap<Buffer, Buffer>();

function keyOf(secretKey: Buffer): Buffer {
	let key = keys.get(secretKey);
	if (!key) {
		key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'audit typed text', 32));
		keys.set(secretKey, key);
	}
	return key;
}

/**
 * The keyed hash of typed text, as the audit entry's `details.typed` shows it: 64 bits are
 * plenty to tell attempts apart. Case and surrounding spaces do not count, as for addresses.
 */
export function typedTextHash(secretKey: Buffer, text: string): string {
	const mac = createHmac('sha256', keyOf(secretKey)).update(text.trim().toLowerCase());
	return `hmac-sha256:${mac.digest('hex').slice(0, 16)}`;
}
