import type { Issue, Result } from '../issues';
import { md5Hex, sha256Hex } from './hashes';

/**
 * HTTP Digest access authentication (RFC 7616), as the app answers a service's challenge when
 * its `…AuthUsername`/`…AuthPassword` are set: the `Authorization` header for a
 * `WWW-Authenticate: Digest …` challenge, with MD5 or SHA-256 (and their `-sess` forms), `qop=auth`
 * or no qop (RFC 2069). The client nonce is given, so the answer is a pure function.
 */

/** What answering a challenge needs. */
export interface DigestInput {
	/** The `WWW-Authenticate` header (other schemes beside Digest are skipped). */
	challenge: string;
	method: string;
	/** The request target as sent: path and query. */
	uri: string;
	username: string;
	password: string;
	/** The client nonce (random per answer in use; fixed in tests). */
	cnonce: string;
	/** How many requests used this nonce, from 1. */
	nc?: number;
}

/** The longest challenge read: a real one is a few hundred characters. */
const MAX_CHALLENGE = 4096;

const HASHES: Record<string, (text: string) => string> = { MD5: md5Hex, 'SHA-256': sha256Hex };

const TOKEN = /[!#$%&'*+.^_`|~0-9A-Za-z-]+/y;
const QUOTED = /"((?:[^"\\]|\\.)*)"/y;

function refuse(code: string, message: string): Result<string> {
	const issue: Issue = { code, severity: 'error', message };
	return { ok: false, issues: [issue] };
}

/** The parameters of the Digest challenge of a header, names in lower case; null without one. */
function digestParams(header: string): Map<string, string> | null {
	const start = /(?:^|,)\s*Digest(?:\s+|$)/i.exec(header);
	if (!start) return null;
	const params = new Map<string, string>();
	let at = start.index + start[0].length;
	while (at < header.length) {
		while (at < header.length && /[\s,]/.test(header[at])) at++;
		TOKEN.lastIndex = at;
		const name = TOKEN.exec(header);
		if (!name) break;
		let next = TOKEN.lastIndex;
		while (header[next] === ' ' || header[next] === '\t') next++;
		// A token without "=" starts the next scheme's challenge.
		if (header[next] !== '=') break;
		next++;
		while (header[next] === ' ' || header[next] === '\t') next++;
		const pattern = header[next] === '"' ? QUOTED : TOKEN;
		pattern.lastIndex = next;
		const value = pattern.exec(header);
		if (!value) break;
		const text = pattern === QUOTED ? value[1].replace(/\\(.)/g, '$1') : value[0];
		params.set(name[0].toLowerCase(), text);
		at = pattern.lastIndex;
	}
	return params;
}

/** A value as an HTTP quoted string. */
function quote(value: string): string {
	return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/**
 * The `Authorization` header answering a Digest challenge, or why it cannot be answered: no
 * Digest challenge, no nonce, an algorithm other than MD5 and SHA-256, only `auth-int` offered
 * (the body would be hashed), or a line break in any value (it would split the header).
 */
export function digestAuthorization(input: DigestInput): Result<string> {
	if (input.challenge.length > MAX_CHALLENGE) {
		return refuse(
			'digest_challenge_too_long',
			`The WWW-Authenticate header is ${input.challenge.length.toLocaleString('en')} characters long, over the ${MAX_CHALLENGE.toLocaleString('en')} read.`
		);
	}
	const params = digestParams(input.challenge);
	if (!params) {
		return refuse('digest_no_challenge', 'The WWW-Authenticate header holds no Digest challenge.');
	}
	const nonce = params.get('nonce');
	if (!nonce) return refuse('digest_no_nonce', 'The Digest challenge has no nonce.');
	const realm = params.get('realm') ?? '';
	const given = params.get('algorithm');
	const algorithm = given ?? 'MD5';
	const session = /-sess$/i.test(algorithm);
	const hash = HASHES[algorithm.replace(/-sess$/i, '').toUpperCase()];
	if (!hash) {
		return refuse(
			'digest_algorithm_unsupported',
			`The Digest algorithm ${algorithm.slice(0, 40)} is not answered: only MD5 and SHA-256 (and their -sess forms) are.`
		);
	}
	const offered = params.has('qop')
		? params
				.get('qop')!
				.split(',')
				.map((q) => q.trim())
		: null;
	if (offered && !offered.includes('auth')) {
		return refuse(
			'digest_qop_unsupported',
			`The challenge offers qop ${offered.join(', ').slice(0, 40)}: only auth is answered.`
		);
	}
	const values = [
		input.username,
		input.password,
		input.uri,
		input.method,
		input.cnonce,
		realm,
		nonce
	];
	if (values.some((v) => /[\r\n\0]/.test(v)) || /[\r\n\0]/.test(params.get('opaque') ?? '')) {
		return refuse('digest_value_invalid', 'A line break in a Digest value would split the header.');
	}
	const nc = (input.nc ?? 1).toString(16).padStart(8, '0');
	const secret = hash(`${input.username}:${realm}:${input.password}`);
	const ha1 = session ? hash(`${secret}:${nonce}:${input.cnonce}`) : secret;
	const ha2 = hash(`${input.method}:${input.uri}`);
	const response = offered
		? hash(`${ha1}:${nonce}:${nc}:${input.cnonce}:auth:${ha2}`)
		: hash(`${ha1}:${nonce}:${ha2}`);
	const parts = [
		`username=${quote(input.username)}`,
		`realm=${quote(realm)}`,
		`uri=${quote(input.uri)}`,
		...(given ? [`algorithm=${given}`] : []),
		`nonce=${quote(nonce)}`,
		...(offered ? [`nc=${nc}`, `cnonce=${quote(input.cnonce)}`, 'qop=auth'] : []),
		`response=${quote(response)}`,
		...(params.has('opaque') ? [`opaque=${quote(params.get('opaque')!)}`] : [])
	];
	return { ok: true, value: `Digest ${parts.join(', ')}`, issues: [] };
}

/**
 * A Digest `Authorization` value as it may be shown or kept: the response is a hash of the
 * password that a guess can be checked against, so it is masked like the password.
 */
export function maskDigestResponse(value: string, mask: string): string {
	if (!/^\s*Digest\s/i.test(value)) return value;
	return value.replace(/(\bresponse=)"[^"]*"/i, `$1"${mask}"`);
}
