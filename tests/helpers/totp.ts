import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import { sleep } from './fixtures';
import type { Client } from './server';

/**
 * A second factor as an authenticator app makes its codes: from the library and the secret the
 * server answered.
 */

/** The answers of `/api/me/totp`. */
export interface TotpAnswer {
	secret?: string;
	uri?: string;
	recoveryCodes?: string[];
	enabled?: boolean;
	recoveryCodesLeft?: number;
	error?: { code: string; message: string };
	entries?: { action: string; target: string | null; details: Record<string, unknown> | null }[];
}

export const STEP_MS = 30_000;

/** The code of `secret` for the step `offset` steps from now. */
export function code(secret: string, offset = 0): string {
	return TOTP.generate({
		secret: Secret.fromBase32(secret),
		timestamp: Date.now() + offset * STEP_MS
	});
}

/**
 * Waits, when the current step ends within 8 seconds, for the next one: a test then uses the
 * steps before, at and after now without one of them leaving the window meanwhile.
 */
export async function freshStep(): Promise<void> {
	const left = STEP_MS - (Date.now() % STEP_MS);
	if (left < 8_000) await sleep(left + 200);
}

export async function enrol(client: Client): Promise<{ secret: string; uri: string }> {
	const started = await client.json<TotpAnswer>('/api/me/totp', { method: 'POST' });
	expect(started.status).toBe(200);
	return { secret: started.body.secret!, uri: started.body.uri! };
}

/** Sets up and turns on the second factor of a signed-in client: its secret and codes. */
export async function turnOn(client: Client, offset = -1) {
	const { secret } = await enrol(client);
	const on = await client.json<TotpAnswer>('/api/me/totp', {
		method: 'PUT',
		json: { code: code(secret, offset) }
	});
	expect(on.status).toBe(200);
	return { secret, recoveryCodes: on.body.recoveryCodes! };
}
