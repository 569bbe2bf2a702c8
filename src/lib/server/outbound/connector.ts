import { lookup } from 'node:dns/promises';
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';
import { OutboundError } from './errors';
import {
	addressMessage,
	checkAddress,
	hostAllowed,
	ipLiteral,
	type OutboundPolicy
} from './policy';

/**
 * The connector of every outbound connection: it resolves the host name itself, checks every
 * address it resolves to, and connects to the checked address (so a resolver cannot answer one
 * address for the check and another for the connection). IP literals are checked the same way.
 */

/** Times of one connection, in milliseconds; null when the step did not happen. */
export interface ConnectTimings {
	dns: number | null;
	connect: number | null;
	tls: number | null;
}

/** What the connector learned: the address it connected to and how long each step took. */
export interface ConnectRecord {
	timings: ConnectTimings;
	address: { ip: string; port: number; family: 4 | 6 } | null;
}

/** Resolves a host name to all its addresses (the system resolver; tests give their own). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** An address that passed the policy. */
interface Checked {
	address: string;
	family: 4 | 6;
}

/** Failures after which the next checked address of a name is tried (a dual-stack host). */
const TRY_NEXT = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

async function resolveChecked(
	hostname: string,
	policy: OutboundPolicy,
	dnsTimeoutMs: number,
	resolve: Resolver
): Promise<Checked[]> {
	const literal = ipLiteral(hostname);
	if (literal !== null) {
		const denial = checkAddress(literal, policy);
		if (denial) throw OutboundError.denied(denial);
		return [{ address: literal, family: literal.includes(':') ? 6 : 4 }];
	}
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(
			() => reject(new OutboundError('dns_timeout', `${hostname} did not resolve in time.`)),
			dnsTimeoutMs
		);
	});
	let answers: { address: string; family: number }[];
	try {
		answers = await Promise.race([resolve(hostname), timeout]);
	} catch (error) {
		if (error instanceof OutboundError) throw error;
		throw new OutboundError(
			'dns_failed',
			`${hostname} does not resolve (${(error as { code?: string }).code ?? 'error'}).`
		);
	} finally {
		clearTimeout(timer);
	}
	if (answers.length === 0) throw new OutboundError('dns_failed', `${hostname} has no address.`);
	const byName = hostAllowed(hostname, policy);
	// Every answer is checked: a name that resolves to one public and one private address is
	// refused, since the next lookup could pick the other one.
	for (const answer of answers) {
		const denial = checkAddress(answer.address, policy, byName);
		if (denial) {
			throw OutboundError.denied({
				...denial,
				message: addressMessage(
					`${hostname} resolves to ${answer.address}, which`,
					denial.reason ?? 'refused'
				)
			});
		}
	}
	return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** undici's connectors by connect timeout: they keep nothing of a connection between calls. */
const baseConnectors = new Map<number, buildConnector.connector>();

/**
 * undici's own connector, one per connect timeout. It keeps no TLS sessions (undici's would
 * resume a handshake with a session of an earlier call): every call's handshake is its own.
 */
function baseConnector(timeoutMs: number): buildConnector.connector {
	let base = baseConnectors.get(timeoutMs);
	if (!base) {
		base = buildConnector({ timeout: timeoutMs, maxCachedSessions: 0 });
		baseConnectors.set(timeoutMs, base);
	}
	return base;
}

/**
 * A connector for undici that applies the policy at connect time and fills `record`. The connect
 * timeout covers the TCP (and TLS) handshake; DNS has its own limit.
 */
export function guardedConnector(
	policy: OutboundPolicy,
	record: ConnectRecord,
	connectTimeoutMs: number,
	resolve: Resolver = systemResolver
): buildConnector.connector {
	const base = baseConnector(connectTimeoutMs);
	return (options, callback) => {
		const started = performance.now();
		resolveChecked(options.hostname, policy, connectTimeoutMs, resolve).then(
			(addresses) => {
				if (ipLiteral(options.hostname) === null) record.timings.dns = performance.now() - started;
				// Every address was checked; they are tried in the resolver's order, and only these.
				const attempt = (i: number) => {
					const { address, family } = addresses[i];
					const connectStart = performance.now();
					// The host (and so the TLS server name) stays the URL's; only the address is fixed.
					const socket = (base as unknown as (o: typeof options, cb: typeof callback) => Socket)(
						{ ...options, hostname: address },
						(error, connected) => {
							const code = (error as { code?: string } | null)?.code ?? '';
							if (error && TRY_NEXT.has(code) && i + 1 < addresses.length) {
								attempt(i + 1);
								return;
							}
							if (!error && options.protocol === 'https:') {
								record.timings.tls =
									performance.now() - connectStart - (record.timings.connect ?? 0);
							}
							if (!error) {
								const port = connected?.remotePort ?? Number(options.port);
								record.address = { ip: address, port, family };
							}
							callback(error as Error, connected as never);
						}
					);
					socket.once('connect', () => (record.timings.connect = performance.now() - connectStart));
				};
				attempt(0);
			},
			(error: unknown) => callback(error as Error, null)
		);
	};
}
