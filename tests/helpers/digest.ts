import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A Digest-protected resource (RFC 7616, qop auth) for a local upstream to answer with: a
 * request without a right `Authorization` gets a 401 challenge; one whose response is the digest
 * computed here, with node:crypto, gets the resource.
 */

/** The parameters of a Digest header, unquoted. */
export function digestParams(header: string): Record<string, string> {
	const found: Record<string, string> = {};
	for (const m of header.matchAll(/(\w+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]+))/g)) {
		found[m[1]] = m[2] ?? m[3];
	}
	return found;
}

export interface DigestResource {
	algorithm: 'MD5' | 'SHA-256';
	username: string;
	password: string;
	/** What a right answer gets. */
	status: number;
	headers: Record<string, string>;
	body: string;
	/** A `domain` the challenge names (it must never be called). */
	domain?: string;
}

/** An upstream's answer: the challenge, or the resource for a right Digest answer. */
export function digestProtected(resource: DigestResource) {
	const hash = (text: string) =>
		createHash(resource.algorithm === 'MD5' ? 'md5' : 'sha256')
			.update(text)
			.digest('hex');
	const nonce = randomBytes(12).toString('hex');
	const realm = 'contacts@example.com';
	const domain = resource.domain ? `, domain="${resource.domain}"` : '';
	return (req: IncomingMessage, res: ServerResponse) => {
		const p = digestParams(req.headers.authorization ?? '');
		const ha1 = hash(`${p.username}:${realm}:${resource.password}`);
		const ha2 = hash(`${req.method}:${p.uri}`);
		const right =
			p.username === resource.username &&
			p.nonce === nonce &&
			p.uri === req.url &&
			p.opaque === 'op-1' &&
			p.qop === 'auth' &&
			p.response === hash(`${ha1}:${nonce}:${p.nc}:${p.cnonce}:auth:${ha2}`);
		if (right) {
			res.writeHead(resource.status, resource.headers);
			res.end(resource.body);
			return;
		}
		res.writeHead(401, {
			'www-authenticate': `Digest realm="${realm}", qop="auth", algorithm=${resource.algorithm}, nonce="${nonce}", opaque="op-1"${domain}`
		});
		res.end();
	};
}
