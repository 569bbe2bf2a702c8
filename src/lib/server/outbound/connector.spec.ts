import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedConnector, type ConnectRecord, type Resolver } from './connector';
import { OutboundError } from './errors';
import { parsePolicy } from './policy';

/**
 * DNS answers that change between the check and the connection (rebinding), with a resolver
 * the test controls and a real upstream on 127.0.0.1 that counts its connections.
 */

let upstream: Server;
let port: number;
let connections = 0;

beforeAll(async () => {
	upstream = createServer((_req, res) => res.end('ok'));
	upstream.on('connection', () => connections++);
	await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
	port = (upstream.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

function record(): ConnectRecord {
	return { timings: { dns: null, connect: null, tls: null }, address: null };
}

async function get(resolver: Resolver, allow: string, into: ConnectRecord) {
	const client = new Client(`http://rebind.test:${port}`, {
		connect: guardedConnector(parsePolicy(allow, String(port)), into, 1000, resolver)
	});
	try {
		const answer = await client.request({ method: 'GET', path: '/' });
		return await answer.body.text();
	} finally {
		await client.destroy();
	}
}

describe('guardedConnector against a changing resolver', () => {
	it('refuses a name that answers a public and a loopback address, and connects to neither', async () => {
		const before = connections;
		const resolver: Resolver = async () => [
			{ address: '93.184.216.34', family: 4 },
			{ address: '127.0.0.1', family: 4 }
		];
		const error = await get(resolver, '', record()).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(OutboundError);
		expect((error as OutboundError).code).toBe('blocked_address');
		expect((error as OutboundError).message).toContain('rebind.test resolves to 127.0.0.1');
		expect(connections).toBe(before);
	});

	it('resolves once and connects to the address it checked, whatever later answers say', async () => {
		// 127.0.0.1 stands for the public address here (allowed by the operator's list); a later
		// answer would be 127.0.0.2, which is refused: it must never be asked for or used.
		let asked = 0;
		const resolver: Resolver = async () =>
			asked++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '127.0.0.2', family: 4 }];
		const into = record();
		const before = connections;
		expect(await get(resolver, '127.0.0.1/32', into)).toBe('ok');
		expect(asked).toBe(1);
		expect(into.address?.ip).toBe('127.0.0.1');
		expect(into.timings.dns).not.toBeNull();
		expect(connections).toBe(before + 1);
	});

	it('tries the next checked address when one refuses the connection (a dual-stack name)', async () => {
		// Nothing listens on 127.0.0.2: that connection is refused, and 127.0.0.1 answers.
		const resolver: Resolver = async () => [
			{ address: '127.0.0.2', family: 4 },
			{ address: '127.0.0.1', family: 4 }
		];
		const into = record();
		expect(await get(resolver, '127.0.0.0/8', into)).toBe('ok');
		expect(into.address?.ip).toBe('127.0.0.1');
	});
});
