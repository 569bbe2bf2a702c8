import { Client } from 'undici';
import { hasLineBreak } from '$lib/core/request/headers';
import { MANAGED_HEADERS } from '$lib/core/request';
import { readCapped } from './body';
import { guardedConnector, type ConnectRecord, type ConnectTimings } from './connector';
import { OutboundError, toOutboundError } from './errors';
import { checkTarget, type OutboundPolicy } from './policy';

/**
 * Sends one HTTP request under the outbound policy, on a connection of its own, and reads the
 * response within the time and size limits. Redirects are answered as they are (never
 * followed). This is the only code of the app that opens network connections.
 */

/** One header, as sent or received. */
export interface HeaderField {
	name: string;
	value: string;
}

/** What to send: the request the core built. */
export interface OutboundRequest {
	method: string;
	url: string;
	headers: HeaderField[];
	body: string | null;
	/**
	 * The URL as every message names it: the redacted URL (secrets masked) when the request
	 * carries secrets. The URL itself when absent.
	 */
	shownUrl?: string;
}

/** Time and size limits of one call. */
export interface OutboundLimits {
	connectMs: number;
	headersMs: number;
	bodyMs: number;
	totalMs: number;
	/** Bytes read from the wire at most. */
	maxRawBytes: number;
	/** Bytes kept after decoding the Content-Encoding at most. */
	maxBodyBytes: number;
}

/** Timings of one call in milliseconds (null: the step did not happen). */
export interface Timings extends ConnectTimings {
	firstByte: number | null;
	total: number;
}

/** A response as received (headers filtered, body decoded and capped). */
export interface OutboundResponse {
	status: number;
	statusText: string;
	headers: HeaderField[];
	body: Buffer;
	rawBytes: number;
	truncated: boolean;
	decodeError: string | null;
	timings: Timings;
	address: ConnectRecord['address'];
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Why a call's connection is closed once its answer was read (or the call failed). */
const CALL_ENDED = new Error('The call has ended; its connection is closed.');

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the ones the client sets itself. */
const STRIPPED = new Set([...MANAGED_HEADERS, 'proxy-authorization', 'proxy-authenticate']);

/** Headers not shown from a response: they describe the connection, not the answer. */
const HOP_BY_HOP = new Set([
	'connection',
	'keep-alive',
	'transfer-encoding',
	'te',
	'trailer',
	'upgrade',
	'proxy-connection',
	'proxy-authenticate'
]);

/** The headers to send: invalid ones refuse the call, managed ones are dropped. */
export function outgoingHeaders(headers: HeaderField[]): Record<string, string[]> {
	const out: Record<string, string[]> = Object.create(null);
	for (const { name, value } of headers) {
		if (!TOKEN.test(name)) {
			throw new OutboundError('invalid_header', `"${name}" is not a valid header name.`);
		}
		if (hasLineBreak(value)) {
			throw new OutboundError(
				'invalid_header',
				`The ${name} header holds a line break or NUL; it cannot be sent.`
			);
		}
		const key = name.toLowerCase();
		if (STRIPPED.has(key)) continue;
		(out[name] ??= []).push(value);
	}
	return out;
}

function responseHeaders(raw: Buffer[] | string[]): HeaderField[] {
	const fields: HeaderField[] = [];
	for (let i = 0; i + 1 < raw.length; i += 2) {
		const name = raw[i].toString();
		if (HOP_BY_HOP.has(name.toLowerCase())) continue;
		fields.push({ name, value: raw[i + 1].toString('latin1') });
	}
	return fields;
}

function parseUrl(url: string, shown: string): URL {
	try {
		return new URL(url);
	} catch {
		throw new OutboundError('invalid_url', `"${shown}" is not a URL the server can call.`, {
			rule: 'url',
			address: shown
		});
	}
}

/** The host of a URL as written (after any user info, before the port). */
function writtenHost(url: string): string | null {
	const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^@/?#\\]*@)?([^/?#\\]*)/.exec(url);
	if (!authority) return null;
	return authority[1].replace(/:\d*$/, '');
}

/**
 * The error with the URL's host name replaced by the host as shown, in its message and
 * address: the network layer (resolver, TLS) names the host it was given, which holds a secret
 * when a secret was placed in the host.
 */
function withShownHost(
	error: OutboundError,
	url: URL,
	request: { url: string; shownUrl: string }
): OutboundError {
	const shown = writtenHost(request.shownUrl);
	// The host as written is the same: nothing was masked in it.
	if (shown === null || shown === writtenHost(request.url)) return error;
	const real = [url.hostname, url.hostname.replace(/^\[(.*)\]$/, '$1')].filter((h) => h !== '');
	const hide = (text: string) => real.reduce((out, host) => out.split(host).join(shown), text);
	return new OutboundError(error.code, hide(error.message), {
		rule: error.rule,
		address: error.address === undefined ? undefined : hide(error.address)
	});
}

/**
 * Sends `request` and reads the answer. Throws {@link OutboundError}: refusals (nothing was
 * sent) and failures (timeouts, refused connections, TLS).
 */
export async function sendOutbound(
	request: OutboundRequest,
	options: { policy: OutboundPolicy; limits: OutboundLimits; signal?: AbortSignal }
): Promise<OutboundResponse> {
	const { policy, limits } = options;
	// Messages name the request as shown: a secret in the URL never reaches a message.
	const target = { method: request.method, url: request.shownUrl ?? request.url };
	const shownRequest = { url: request.url, shownUrl: target.url };
	const url = parseUrl(request.url, target.url);
	const denial = checkTarget(url, request.method, policy);
	if (denial) throw withShownHost(OutboundError.denied(denial), url, shownRequest);
	const headers = outgoingHeaders(request.headers);

	const record: ConnectRecord = { timings: { dns: null, connect: null, tls: null }, address: null };
	const client = new Client(url.origin, {
		connect: guardedConnector(policy, record, limits.connectMs),
		headersTimeout: limits.headersMs,
		bodyTimeout: limits.bodyMs,
		pipelining: 1
	});
	// One controller for the overall limit and the caller's cancel, released when the call ends
	// (a timeout signal would live on for its whole delay, and composed signals hold on to their
	// sources: under load both keep memory that a finished call no longer needs).
	const controller = new AbortController();
	const signal = controller.signal;
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		controller.abort();
	}, limits.totalMs);
	const cancel = () => controller.abort();
	if (options.signal?.aborted) controller.abort();
	options.signal?.addEventListener('abort', cancel, { once: true });
	const started = performance.now();
	try {
		const answer = await client.request({
			method: request.method as 'GET',
			path: url.pathname + url.search,
			headers,
			body: request.body ?? undefined,
			signal,
			responseHeaders: 'raw'
		});
		const firstByte = performance.now() - started;
		const fields = responseHeaders(answer.headers as unknown as Buffer[]);
		const encoding = fields.find((h) => h.name.toLowerCase() === 'content-encoding')?.value ?? null;
		const body = await readCapped(answer.body, encoding, {
			raw: limits.maxRawBytes,
			decoded: limits.maxBodyBytes
		});
		return {
			status: answer.statusCode,
			statusText: answer.statusText ?? '',
			headers: fields,
			body: body.bytes,
			rawBytes: body.rawBytes,
			truncated: body.truncated,
			decodeError: body.decodeError,
			timings: {
				dns: record.timings.dns,
				connect: record.timings.connect,
				tls: record.timings.tls,
				firstByte,
				total: performance.now() - started
			},
			address: record.address
		};
	} catch (error) {
		if (options.signal?.aborted) throw OutboundError.cancelled(target);
		if (timedOut) throw OutboundError.timedOut(target, limits.totalMs);
		throw withShownHost(toOutboundError(error, target.method, target.url), url, shownRequest);
	} finally {
		clearTimeout(timer);
		options.signal?.removeEventListener('abort', cancel);
		// The connection is closed once the answer is on its way. The reason given is made once:
		// undici's own would be a new error, with its stack, for every call.
		setImmediate(() => client.destroy(CALL_ENDED).catch(() => {}));
	}
}
