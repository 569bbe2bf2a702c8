import type { Denial } from './policy';

/**
 * Why an outbound call was refused or failed. `code` is stable (the API answers it); `rule` and
 * `address` name the policy and the address for a refusal. Messages name a request by its
 * method and its URL as shown (secrets masked), never by the URL that was sent.
 */

/** The stable codes of outbound failures. */
export type OutboundErrorCode =
	| Denial['code']
	| 'invalid_header'
	| 'dns_failed'
	| 'dns_timeout'
	| 'connect_refused'
	| 'connect_timeout'
	| 'connect_failed'
	| 'tls_failed'
	| 'headers_timeout'
	| 'body_timeout'
	| 'timeout'
	| 'cancelled'
	| 'upstream_error';

/** A refused or failed outbound call. */
export class OutboundError extends Error {
	readonly code: OutboundErrorCode;
	readonly rule: string | undefined;
	readonly address: string | undefined;

	constructor(
		code: OutboundErrorCode,
		message: string,
		detail: { rule?: string; address?: string } = {}
	) {
		super(message);
		this.name = 'OutboundError';
		this.code = code;
		this.rule = detail.rule;
		this.address = detail.address;
	}

	/** The error for a policy refusal. */
	static denied(denial: Denial): OutboundError {
		return new OutboundError(denial.code, denial.message, denial);
	}

	/** A call cancelled by its user; `request` as shown (secrets masked). */
	static cancelled(request: { method: string; url: string }): OutboundError {
		return new OutboundError('cancelled', `${request.method} ${request.url}: cancelled.`);
	}

	/** A call with no complete answer within the overall limit; `request` as shown. */
	static timedOut(request: { method: string; url: string }, limitMs: number): OutboundError {
		const within = `no complete answer within ${limitMs / 1000} s`;
		return new OutboundError('timeout', `${request.method} ${request.url}: ${within}.`);
	}

	/** Any failure of a request, as an outbound error naming its method and URL as shown. */
	static from(error: unknown, request: { method: string; url: string }): OutboundError {
		return toOutboundError(error, request.method, request.url);
	}

	/** True for refusals by policy (nothing was sent, no connection was opened). */
	get blocked(): boolean {
		return (
			this.code.startsWith('blocked_') ||
			this.code === 'invalid_header' ||
			this.code === 'invalid_url'
		);
	}
}

const NETWORK_CODES: Record<string, OutboundErrorCode> = {
	ECONNREFUSED: 'connect_refused',
	ECONNRESET: 'upstream_error',
	EHOSTUNREACH: 'connect_failed',
	ENETUNREACH: 'connect_failed',
	UND_ERR_CONNECT_TIMEOUT: 'connect_timeout',
	UND_ERR_HEADERS_TIMEOUT: 'headers_timeout',
	UND_ERR_BODY_TIMEOUT: 'body_timeout',
	UND_ERR_SOCKET: 'upstream_error'
};

/**
 * Maps what the network layer threw to an {@link OutboundError} naming method and URL: pass the
 * URL as shown (secrets masked).
 */
export function toOutboundError(error: unknown, method: string, url: string): OutboundError {
	if (error instanceof OutboundError) return error;
	const e = error as { code?: string; name?: string; message?: string; cause?: { code?: string } };
	const code = e?.code ?? e?.cause?.code ?? '';
	const mapped = NETWORK_CODES[code];
	const target = `${method} ${url}`;
	if (mapped === 'connect_refused') {
		return new OutboundError(
			mapped,
			`${target}: the connection was refused (nothing listens there).`
		);
	}
	if (mapped === 'connect_timeout') {
		return new OutboundError(mapped, `${target}: no connection within the connect time limit.`);
	}
	if (mapped === 'headers_timeout') {
		return new OutboundError(mapped, `${target}: no response headers within the time limit.`);
	}
	if (mapped === 'body_timeout') {
		return new OutboundError(mapped, `${target}: the body stopped arriving within the time limit.`);
	}
	if (/^(ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/.test(code)) {
		return new OutboundError(
			'tls_failed',
			`${target}: TLS failed (${code}): ${e.message ?? ''}`.trim()
		);
	}
	if (mapped) return new OutboundError(mapped, `${target}: ${e.message ?? code}`);
	return new OutboundError('upstream_error', `${target}: ${e?.message ?? String(error)}`);
}
