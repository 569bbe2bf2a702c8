import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { checkAddress, checkTarget, hostAllowed, parsePolicy } from './policy';

const DEFAULT = parsePolicy();
const METADATA = new Set(['168.63.129.16', '100.100.100.200', '169.254.169.254']);

/** What the server would connect to for `http://<spelling>/`: the URL parser's host. */
function hostOf(spelling: string): string {
	return new URL(`http://${spelling}/`).hostname;
}

describe('checkAddress', () => {
	it('agrees with ipaddr.js on every IPv4 spelling: only unicast is reached', () => {
		fc.assert(
			fc.property(fc.ipV4Extended(), (spelling) => {
				const host = hostOf(spelling);
				const parsed = ipaddr.parse(spelling);
				// The URL parser and ipaddr.js read odd spellings (0x7f.1, 2130706433) alike.
				expect(host).toBe(parsed.toString());
				const allowed = parsed.range() === 'unicast' && !METADATA.has(host);
				expect(checkAddress(host, DEFAULT) === null).toBe(allowed);
			}),
			{ numRuns: 2000 }
		);
	});

	it('decides an IPv4-mapped IPv6 address as its IPv4 address', () => {
		fc.assert(
			fc.property(fc.ipV4(), (v4) => {
				const mapped = hostOf(`[::ffff:${v4}]`).slice(1, -1);
				expect(checkAddress(mapped, DEFAULT) === null).toBe(checkAddress(v4, DEFAULT) === null);
			})
		);
	});

	it.each([
		['127.0.0.1', 'loopback'],
		['::1', 'loopback'],
		['10.0.0.1', 'private'],
		['172.16.5.4', 'private'],
		['192.168.1.1', 'private'],
		['169.254.169.254', 'metadata'],
		['168.63.129.16', 'metadata'],
		['100.64.0.1', 'carrierGradeNat'],
		['0.0.0.0', 'unspecified'],
		['::ffff:7f00:1', 'loopback'],
		['::7f00:1', 'ipv4_compatible'],
		['fe80::1', 'linkLocal'],
		['fc00::1', 'uniqueLocal'],
		['64:ff9b::7f00:1', 'rfc6052'],
		['2002:7f00:1::', '6to4']
	])('refuses %s as %s', (address, rule) => {
		expect(checkAddress(address, DEFAULT)).toMatchObject({
			code: 'blocked_address',
			rule,
			address
		});
	});

	it.each(['93.184.215.14', '2606:4700::6810:85e5'])('reaches the public address %s', (address) => {
		expect(checkAddress(address, DEFAULT)).toBeNull();
	});

	it('opens what the operator allows: CIDRs for any address, names for all but metadata', () => {
		const policy = parsePolicy('127.0.0.1/32, 10.1.0.0/16, intranet.example.com, *.corp.test');
		expect(checkAddress('127.0.0.1', policy)).toBeNull();
		expect(checkAddress('10.1.2.3', policy)).toBeNull();
		expect(checkAddress('10.2.0.1', policy)?.rule).toBe('private');
		expect(checkAddress('192.168.0.9', policy, true)).toBeNull();
		expect(checkAddress('169.254.169.254', policy, true)?.rule).toBe('metadata');
		expect(hostAllowed('INTRANET.example.com.', policy)).toBe(true);
		expect(hostAllowed('a.b.corp.test', policy)).toBe(true);
		expect(hostAllowed('corp.test.evil.example', policy)).toBe(false);
	});
});

describe('parsePolicy', () => {
	it('names the entry it cannot read', () => {
		expect(() => parsePolicy('10.0.0.0/33x')).toThrow('"10.0.0.0/33x"');
		expect(() => parsePolicy('', '80-70')).toThrow('OUTBOUND_PORTS: "80-70"');
	});
});

describe('checkTarget', () => {
	const target = (url: string, method = 'GET') => checkTarget(new URL(url), method, DEFAULT);

	it('refuses other schemes, userinfo, other ports and other methods', () => {
		expect(target('file:///etc/passwd')?.code).toBe('blocked_scheme');
		expect(target('data:text/plain,hi')?.code).toBe('blocked_scheme');
		expect(target('https://user:pw@example.com/')?.code).toBe('blocked_userinfo');
		expect(target('https://sms.example.com@evil.test/')?.code).toBe('blocked_userinfo');
		expect(target('http://example.com:22/')).toMatchObject({ code: 'blocked_port', address: '22' });
		expect(target('http://example.com/', 'DELETE')?.code).toBe('blocked_method');
	});

	it('allows the default ports and configured ranges', () => {
		expect(target('https://example.com:8443/')).toBeNull();
		expect(
			checkTarget(new URL('http://x.test:9001/'), 'POST', parsePolicy('', '9000-9010'))
		).toBeNull();
		expect(checkTarget(new URL('http://x.test:1/'), 'POST', parsePolicy('', '*'))).toBeNull();
	});
});
