import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverWithAdmin } from '../helpers/fixtures';
import { stopAllServers, type Client } from '../helpers/server';
import { startUpstream, TEST_CERTIFICATE, type Upstream } from '../helpers/upstream';

/**
 * Test calls over HTTPS to a real local upstream: with its certificate trusted, the envelope
 * carries the TLS handshake's time; without, the call fails as a TLS error and sends nothing.
 */

interface Answer {
	calls: {
		error?: { code: string; message: string };
		response?: {
			status: number;
			timings: { dns: number | null; connect: number | null; tls: number | null; total: number };
			address: { ip: string } | null;
		};
	}[];
}

const OUTBOUND = { OUTBOUND_ALLOW: '127.0.0.1/32', OUTBOUND_PORTS: '1024-65535' };
let upstream: Upstream;
let trusting: Client;
let strict: Client;

beforeAll(async () => {
	upstream = await startUpstream({ tls: true });
	({ admin: trusting } = await serverWithAdmin({
		...OUTBOUND,
		NODE_EXTRA_CA_CERTS: TEST_CERTIFICATE
	}));
	({ admin: strict } = await serverWithAdmin(OUTBOUND));
});

afterAll(async () => {
	await upstream.stop();
	await stopAllServers();
});

function call(client: Client) {
	return client.json<Answer>('/api/test-calls', {
		method: 'POST',
		json: {
			service: 'pushTokenReporter',
			settings: { pushTokenReporterUrl: `${upstream.url}/tokens` }
		}
	});
}

describe('test calls over HTTPS', () => {
	it('time the TLS handshake apart from the connection', async () => {
		upstream.answerNext({ status: 200 });
		const answer = await call(trusting);
		const response = answer.body.calls[0].response!;
		expect(answer.body.calls[0].error).toBeUndefined();
		expect(response.status).toBe(200);
		expect(response.address?.ip).toBe('127.0.0.1');
		expect(response.timings.dns).toBeNull();
		expect(response.timings.connect).toBeGreaterThan(0);
		expect(response.timings.tls).toBeGreaterThan(0);
		expect(upstream.requests.at(-1)?.url).toBe('/tokens');
	});

	it('refuse a certificate the server does not trust, and send no request', async () => {
		const before = upstream.requests.length;
		const answer = await call(strict);
		expect(answer.body.calls[0].error?.code).toBe('tls_failed');
		expect(upstream.requests.length).toBe(before);
	});
});
