import type { OutboundLimits } from './send';
import { parsePolicy, type OutboundPolicy } from './policy';

/** The outbound module's configuration, from the environment (documented in README.md). */
export interface OutboundConfig {
	policy: OutboundPolicy;
	limits: OutboundLimits;
	/** Test calls one user may have running at once; more are answered 429. */
	maxInFlightPerUser: number;
}

function number(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
	const raw = env[name];
	if (raw === undefined || raw === '') return fallback;
	const value = Number(raw);
	if (!Number.isInteger(value) || value <= 0) {
		throw new Error(`${name} must be a positive whole number, not "${raw}".`);
	}
	return value;
}

/** Reads `OUTBOUND_*`; a value that makes no sense stops the server with a message naming it. */
export function readOutboundConfig(env: NodeJS.ProcessEnv = process.env): OutboundConfig {
	return {
		policy: parsePolicy(env.OUTBOUND_ALLOW ?? '', env.OUTBOUND_PORTS ?? ''),
		limits: {
			connectMs: number(env, 'OUTBOUND_CONNECT_TIMEOUT_MS', 5_000),
			headersMs: number(env, 'OUTBOUND_HEADERS_TIMEOUT_MS', 10_000),
			bodyMs: number(env, 'OUTBOUND_BODY_TIMEOUT_MS', 10_000),
			totalMs: number(env, 'OUTBOUND_TOTAL_TIMEOUT_MS', 15_000),
			maxRawBytes: number(env, 'OUTBOUND_MAX_RAW_BYTES', 2 * 1024 * 1024),
			maxBodyBytes: number(env, 'OUTBOUND_MAX_BODY_BYTES', 1024 * 1024)
		},
		maxInFlightPerUser: number(env, 'OUTBOUND_MAX_IN_FLIGHT', 4)
	};
}

/** Counts each user's calls in flight. */
export class InFlight {
	readonly #counts = new Map<number, number>();

	constructor(readonly max: number) {}

	/** Takes a slot for `userId`; false when the user already has `max` calls running. */
	acquire(userId: number): boolean {
		const count = this.#counts.get(userId) ?? 0;
		if (count >= this.max) return false;
		this.#counts.set(userId, count + 1);
		return true;
	}

	/** Gives a slot back. */
	release(userId: number): void {
		const count = (this.#counts.get(userId) ?? 1) - 1;
		if (count <= 0) this.#counts.delete(userId);
		else this.#counts.set(userId, count);
	}
}
