import ipaddr from 'ipaddr.js';

/**
 * The outbound address policy: which URLs and addresses a test call may reach. Pure (no
 * network): the connector applies {@link checkAddress} to every address a name resolves to,
 * at connect time, and the request is sent only to the address that was checked.
 *
 * Denied by default: every address ipaddr.js does not classify as `unicast` (loopback, private,
 * link-local, carrier-grade NAT, reserved, multicast, IPv4-mapped and translated forms, …),
 * IPv4-compatible IPv6 (`::a.b.c.d`), and cloud metadata addresses that look public. The
 * operator opens addresses with `OUTBOUND_ALLOW`: CIDRs (which win over every rule) and host
 * names (whose addresses may be private, but never a metadata address).
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Ports reachable without configuration. */
export const DEFAULT_PORTS: readonly number[] = [80, 443, 8080, 8443];

/** Methods a test call may use (the catalogue's methods). */
export const ALLOWED_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT'];

/** The operator's choices, from the environment. */
export interface OutboundPolicy {
	/** Address ranges reachable whatever their class. */
	allowCidrs: [Address, number][];
	/** Host names (lowercase, no trailing dot) whose addresses are reachable; `*.x` matches subdomains. */
	allowHosts: string[];
	/** Reachable ports: a list, or every port. */
	ports: { any: true } | { any: false; ranges: [number, number][] };
}

/** Why a call is refused before anything is sent; `rule` is a stable snake_case name. */
export interface Denial {
	code:
		| 'blocked_scheme'
		| 'blocked_userinfo'
		| 'blocked_port'
		| 'blocked_method'
		| 'blocked_address'
		| 'invalid_url';
	rule: string;
	/** The address (or URL part) that was refused. */
	address: string;
	/** For an address: what it is (`a loopback address`). */
	reason?: string;
	message: string;
}

/** The sentence of an address refusal: `subject` is the address, or "name resolves to address". */
export function addressMessage(subject: string, reason: string): string {
	return `${subject} is ${reason}; the server does not connect to it unless OUTBOUND_ALLOW lists it.`;
}

/** Looks public but is a metadata service (Azure's wire server, Alibaba's, AWS's IPv6). */
const METADATA: [Address, number][] = [
	'168.63.129.16/32',
	'100.100.100.200/32',
	'169.254.169.254/32',
	'fd00:ec2::254/128'
].map((cidr) => ipaddr.parseCIDR(cidr));

/** IPv4-compatible IPv6 (deprecated): ipaddr.js calls it unicast, Linux may route it to IPv4. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

const HOST_NAME = /^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

function inRange(address: Address, [range, bits]: [Address, number]): boolean {
	return address.kind() === range.kind() && address.match(range, bits);
}

function parsePorts(raw: string): OutboundPolicy['ports'] {
	const ranges: [number, number][] = DEFAULT_PORTS.map((p) => [p, p]);
	for (const item of raw.split(',').map((s) => s.trim())) {
		if (item === '') continue;
		if (item === '*') return { any: true };
		const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(item);
		const from = Number(match?.[1]);
		const to = Number(match?.[2] ?? match?.[1]);
		if (!match || from < 1 || to > 65535 || from > to) {
			throw new Error(`OUTBOUND_PORTS: "${item}" is not a port or a range like 8000-8999.`);
		}
		ranges.push([from, to]);
	}
	return { any: false, ranges };
}

/** Reads `OUTBOUND_ALLOW` (CIDRs, addresses, host names) and `OUTBOUND_PORTS`; throws on nonsense. */
export function parsePolicy(allow = '', ports = ''): OutboundPolicy {
	const policy: OutboundPolicy = { allowCidrs: [], allowHosts: [], ports: parsePorts(ports) };
	for (const item of allow.split(',').map((s) => s.trim())) {
		if (item === '') continue;
		const bare = item.replace(/^\[(.*)\]$/, '$1');
		if (ipaddr.isValidCIDR(bare)) policy.allowCidrs.push(ipaddr.parseCIDR(bare));
		else if (ipaddr.isValid(bare)) {
			const address = ipaddr.parse(bare);
			policy.allowCidrs.push([address, address.kind() === 'ipv4' ? 32 : 128]);
		} else if (HOST_NAME.test(item.toLowerCase().replace(/\.$/, ''))) {
			policy.allowHosts.push(item.toLowerCase().replace(/\.$/, ''));
		} else {
			throw new Error(`OUTBOUND_ALLOW: "${item}" is neither a CIDR, an address nor a host name.`);
		}
	}
	return policy;
}

/** True when the operator allowed this host name (a URL's hostname, lowercase). */
export function hostAllowed(hostname: string, policy: OutboundPolicy): boolean {
	const name = hostname.toLowerCase().replace(/\.$/, '');
	return policy.allowHosts.some((entry) =>
		entry.startsWith('*.') ? name.endsWith(entry.slice(1)) : name === entry
	);
}

/** An IP literal without brackets, or null for a name. */
export function ipLiteral(hostname: string): string | null {
	const bare = hostname.replace(/^\[(.*)\]$/, '$1');
	return ipaddr.isValid(bare) && (bare.includes(':') || /^[\d.]+$/.test(bare)) ? bare : null;
}

/**
 * Checks one address the call would connect to. `byName`: the URL's host name is allowed by
 * the operator. Returns null when the address may be reached.
 */
export function checkAddress(
	address: string,
	policy: OutboundPolicy,
	byName = false
): Denial | null {
	const deny = (rule: string, reason: string): Denial => ({
		code: 'blocked_address',
		rule,
		address,
		reason,
		message: addressMessage(address, reason)
	});
	let parsed: Address;
	try {
		parsed = ipaddr.process(address);
	} catch {
		return deny('invalid_address', 'not an IP address');
	}
	if (policy.allowCidrs.some((range) => inRange(parsed, range))) return null;
	if (METADATA.some((range) => inRange(parsed, range))) {
		return deny('metadata', 'a cloud metadata address');
	}
	if (byName) return null;
	const range = parsed.range();
	if (range !== 'unicast') return deny(range, `a ${range} address`);
	if (inRange(parsed, IPV4_COMPATIBLE))
		return deny('ipv4_compatible', 'an IPv4-compatible address');
	return null;
}

function portOf(url: URL): number {
	if (url.port !== '') return Number(url.port);
	return url.protocol === 'https:' ? 443 : 80;
}

/** Checks what can be checked before connecting: scheme, userinfo, port and method. */
export function checkTarget(url: URL, method: string, policy: OutboundPolicy): Denial | null {
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return {
			code: 'blocked_scheme',
			rule: 'scheme',
			address: url.protocol,
			message: `Only http: and https: URLs are called, not ${url.protocol}.`
		};
	}
	if (url.username !== '' || url.password !== '') {
		return {
			code: 'blocked_userinfo',
			rule: 'userinfo',
			address: url.host,
			message: `The URL holds a user name or password before the host (${url.host}); such URLs are not called.`
		};
	}
	const port = portOf(url);
	const ports = policy.ports;
	if (!ports.any && !ports.ranges.some(([from, to]) => port >= from && port <= to)) {
		return {
			code: 'blocked_port',
			rule: 'port',
			address: String(port),
			message: `Port ${port} is not allowed (allowed: ${DEFAULT_PORTS.join(', ')} and OUTBOUND_PORTS).`
		};
	}
	if (!ALLOWED_METHODS.includes(method)) {
		return {
			code: 'blocked_method',
			rule: 'method',
			address: method,
			message: `${method} is not a method the callers use (${ALLOWED_METHODS.join(', ')}).`
		};
	}
	return null;
}
