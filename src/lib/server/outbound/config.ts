import type { OutboundLimits } from './send';
import { checkedValues } from '../platform/environment';
import { parsePolicy, type OutboundPolicy } from './policy';

/** The outbound module's configuration, from the environment (documented in docs/configuration.md). */
export interface OutboundConfig {
	policy: OutboundPolicy;
	limits: OutboundLimits;
	/** Test calls one user may have running at once; more are answered 429. */
	maxInFlightPerUser: number;
}

const NAMES = [
	'OUTBOUND_ALLOW',
	'OUTBOUND_PORTS',
	'OUTBOUND_CONNECT_TIMEOUT_MS',
	'OUTBOUND_HEADERS_TIMEOUT_MS',
	'OUTBOUND_BODY_TIMEOUT_MS',
	'OUTBOUND_TOTAL_TIMEOUT_MS',
	'OUTBOUND_MAX_RAW_BYTES',
	'OUTBOUND_MAX_BODY_BYTES',
	'OUTBOUND_MAX_IN_FLIGHT'
] as const;

/**
 * Reads `OUTBOUND_*`, each checked by its rule in the one schema of variables; a value that
 * makes no sense throws a `ConfigurationError` naming it (the app checks them all at start).
 */
export function readOutboundConfig(env: NodeJS.ProcessEnv = process.env): OutboundConfig {
	const v = checkedValues(env, NAMES);
	const number = (name: (typeof NAMES)[number], fallback: number) =>
		v[name] === undefined ? fallback : Number(v[name]);
	return {
		policy: parsePolicy(v.OUTBOUND_ALLOW ?? '', v.OUTBOUND_PORTS ?? ''),
		limits: {
			connectMs: number('OUTBOUND_CONNECT_TIMEOUT_MS', 5_000),
			headersMs: number('OUTBOUND_HEADERS_TIMEOUT_MS', 10_000),
			bodyMs: number('OUTBOUND_BODY_TIMEOUT_MS', 10_000),
			totalMs: number('OUTBOUND_TOTAL_TIMEOUT_MS', 15_000),
			maxRawBytes: number('OUTBOUND_MAX_RAW_BYTES', 2 * 1024 * 1024),
			maxBodyBytes: number('OUTBOUND_MAX_BODY_BYTES', 1024 * 1024)
		},
		maxInFlightPerUser: number('OUTBOUND_MAX_IN_FLIGHT', 4)
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
