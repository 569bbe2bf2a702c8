import { describe, expect, it } from 'vitest';
import { digestAuthorization, maskDigestResponse } from './digest';
import { md5Hex, sha256Hex } from './hashes';

describe('md5Hex and sha256Hex', () => {
	it('give the published test vectors', () => {
		expect(md5Hex('')).toBe('d41d8cd98f00b204e9800998ecf8427e');
		expect(md5Hex('abc')).toBe('900150983cd24fb0d6963f7d28e17f72');
		expect(sha256Hex('abc')).toBe(
			'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
		);
		expect(sha256Hex('a'.repeat(64))).toBe(
			'ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb'
		);
	});
});

// RFC 7616, section 3.9.1.
const RFC7616 = {
	method: 'GET',
	uri: '/dir/index.html',
	username: 'Mufasa',
	password: 'Circle of Life',
	cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ'
};
const challenge7616 = (algorithm: string) =>
	`Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=${algorithm}, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`;

describe('digestAuthorization', () => {
	it('answers RFC 7616’s SHA-256 example', () => {
		const answer = digestAuthorization({ ...RFC7616, challenge: challenge7616('SHA-256') });
		expect(answer).toEqual({
			ok: true,
			value:
				'Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", nc=00000001, cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", qop=auth, response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
			issues: []
		});
	});

	it('answers RFC 7616’s MD5 example', () => {
		const answer = digestAuthorization({ ...RFC7616, challenge: challenge7616('MD5') });
		expect(answer.ok && answer.value).toContain('response="8ca523f5e9506fed4657c9700eebdbec"');
	});

	it('answers RFC 2617’s example (MD5 by default, among other schemes)', () => {
		const answer = digestAuthorization({
			challenge:
				'Basic realm="x", Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
			method: 'GET',
			uri: '/dir/index.html',
			username: 'Mufasa',
			password: 'Circle Of Life',
			cnonce: '0a4f113b'
		});
		expect(answer.ok && answer.value).toContain('response="6629fae49393a05397450978507c4ef1"');
		expect(answer.ok && answer.value).not.toContain('algorithm=');
	});

	it('never puts the password in the header', () => {
		const answer = digestAuthorization({ ...RFC7616, challenge: challenge7616('MD5-sess') });
		expect(answer.ok && answer.value).not.toContain('Circle');
		expect(answer.ok && answer.value).toContain('algorithm=MD5-sess');
	});

	it('refuses what it cannot answer, saying why', () => {
		const refused = (challenge: string, extra: Partial<typeof RFC7616> = {}) => {
			const answer = digestAuthorization({ ...RFC7616, ...extra, challenge });
			return answer.ok ? null : answer.issues[0].code;
		};
		expect(refused('Basic realm="x"')).toBe('digest_no_challenge');
		expect(refused('Digest realm="r"')).toBe('digest_no_nonce');
		expect(refused('Digest realm="r", nonce="n", algorithm=SHA-512-256')).toBe(
			'digest_algorithm_unsupported'
		);
		expect(refused('Digest realm="r", nonce="n", qop="auth-int"')).toBe('digest_qop_unsupported');
		expect(refused('Digest realm="r", nonce="n"', { username: 'a\r\nX-Evil: 1' })).toBe(
			'digest_value_invalid'
		);
		expect(refused('Digest realm="r", nonce="' + 'n'.repeat(5000) + '"')).toBe(
			'digest_challenge_too_long'
		);
	});

	it('escapes quotes the server put in its realm', () => {
		const answer = digestAuthorization({
			...RFC7616,
			challenge: 'Digest realm="a \\"b\\"", nonce="n", qop=auth'
		});
		expect(answer.ok && answer.value).toContain('realm="a \\"b\\""');
	});
});

describe('maskDigestResponse', () => {
	it('masks the response hash of a Digest answer and leaves other values alone', () => {
		const value = 'Digest username="alice", realm="r", nonce="n", response="0a1b2c", opaque="o"';
		expect(maskDigestResponse(value, '***')).toBe(
			'Digest username="alice", realm="r", nonce="n", response="***", opaque="o"'
		);
		expect(maskDigestResponse('Bearer response="x"', '***')).toBe('Bearer response="x"');
	});
});
