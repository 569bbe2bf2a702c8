import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Interpretation } from '../../src/lib/core/response';
import { serverWithAdmin } from '../helpers/fixtures';
import { stopAllServers, type Client } from '../helpers/server';
import { startUpstream, type Upstream } from '../helpers/upstream';

/**
 * Balance Checker and Rate Checker test calls through the built server to a real local upstream
 * answering each shape: the legacy XML, JSON, an error, an HTML page.
 */

let admin: Client;
let upstream: Upstream;

beforeAll(async () => {
	upstream = await startUpstream();
	// The test calls may reach only the local upstream's address.
	({ admin } = await serverWithAdmin({
		OUTBOUND_ALLOW: '127.0.0.1/32',
		OUTBOUND_PORTS: '1024-65535'
	}));
});

afterAll(async () => {
	await stopAllServers();
	await upstream.stop();
});

async function call(
	service: string,
	settings: Record<string, string>,
	values: Record<string, string>,
	answer: { status?: number; type: string; body: string }
): Promise<Interpretation> {
	upstream.answerNext({
		status: answer.status ?? 200,
		headers: { 'content-type': answer.type },
		body: answer.body
	});
	const result = await admin.json<{ calls?: { interpretation?: Interpretation }[] }>(
		'/api/test-calls',
		{
			method: 'POST',
			json: { service, settings, values }
		}
	);
	expect(result.status).toBe(200);
	expect(result.body.calls).toHaveLength(1);
	const interpretation = result.body.calls![0].interpretation;
	if (!interpretation) throw new Error('no interpretation');
	return interpretation;
}

const balance = (answer: { status?: number; type: string; body: string }) =>
	call(
		'balanceChecker',
		{
			genericBalanceCheckUrl: `${upstream.url}/balance?user=%account[username]%`,
			balanceCheckIntervalInSeconds: '600'
		},
		{ 'account[username]': 'alice' },
		answer
	);

const rate = (answer: { status?: number; type: string; body: string }, smartUri = '') =>
	call(
		'rateChecker',
		{
			genericRateCheckUrl: `${upstream.url}/rate`,
			genericRateCheckPostData: 'to=%targetNumber%&smart=%smartUri%'
		},
		{ targetNumber: '+15551231234', smartUri },
		answer
	);

describe('Balance Checker test calls', () => {
	it('sends the GET the preview shows and reads the legacy XML answer', async () => {
		const before = upstream.requests.length;
		const result = await balance({
			type: 'text/xml',
			body: '<response><error>0</error><balanceString>$60.20</balanceString></response>'
		});
		expect(upstream.requests[before]).toMatchObject({ method: 'GET', url: '/balance?user=alice' });
		expect(result).toMatchObject({
			success: true,
			shownToUser: '$60.20',
			action: { kind: 'balance', result: { shown: '$60.20', format: 'xml' } },
			summary: 'The app shows the balance “$60.20”.'
		});
	});

	it('reads the JSON answer, saying that balance and currency are not shown', async () => {
		const result = await balance({
			type: 'application/json',
			body: '{"balanceString": "€ 3.10", "balance": 3.1, "currency": "EUR"}'
		});
		expect(result.shownToUser).toBe('€ 3.10');
		expect(result.issues).toEqual([
			expect.objectContaining({ code: 'balance_fields_not_shown', severity: 'info' })
		]);
	});

	it('says why nothing is shown for an error flag, a failure and an HTML page', async () => {
		const flagged = await balance({
			type: 'application/xml',
			body: '<response><error>1</error></response>'
		});
		expect([flagged.success, flagged.shownToUser]).toEqual([false, null]);
		expect(flagged.summary).toBe('<error> is 1, not 0: the app shows no balance.');
		const failed = await balance({ status: 500, type: 'application/json', body: '{}' });
		expect(failed.action).toEqual({ kind: 'retryLater' });
		expect(failed.shownToUser).toBeNull();
		const html = await balance({
			type: 'text/html',
			body: '<!doctype html><html><head><title>Proxy login</title></head></html>'
		});
		expect(html.summary).toBe('The answer is an HTML page: the app shows no balance.');
		expect(html.issues).toEqual([
			expect.objectContaining({
				code: 'answer_html',
				message: expect.stringContaining('Proxy login')
			})
		]);
	});
});

describe('Rate Checker test calls', () => {
	it('posts the number and reads the JSON rates, the smart ones for a smart contact', async () => {
		const before = upstream.requests.length;
		const body = JSON.stringify({
			callRateString: '$0.02/min',
			messageRateString: '$0.01',
			smartCallRateString: 'free',
			smartMessageRateString: 'free'
		});
		const plain = await rate({ type: 'application/json', body });
		expect(upstream.requests[before]).toMatchObject({
			method: 'POST',
			body: 'to=%2B15551231234&smart='
		});
		expect(plain).toMatchObject({
			success: true,
			action: {
				kind: 'rate',
				result: {
					format: 'json',
					shown: [
						{ text: 'call', label: 'Call rate', value: '$0.02/min' },
						{ text: 'message', label: 'Message rate', value: '$0.01' }
					]
				}
			}
		});
		const smart = await rate({ type: 'application/json', body }, 'sip:bob@example.com');
		expect(smart.summary).toBe('The app shows the call rate “free” and the message rate “free”.');
	});

	it('reads the legacy XML rateString, and nothing when its error flag is set', async () => {
		const legacy = await rate({
			type: 'application/xml',
			body: '<response><error>0</error><rateString>5 c/min</rateString></response>'
		});
		expect(legacy.shownToUser).toBe('Rate: 5 c/min');
		const flagged = await rate({
			type: 'application/xml',
			body: '<response><error>3</error><rateString>5 c/min</rateString></response>'
		});
		expect([flagged.success, flagged.shownToUser]).toEqual([false, null]);
		expect(flagged.summary).toBe('<error> is 3, not 0: the app shows no rate.');
	});

	it('shows no rate for a failure or an HTML page', async () => {
		const failed = await rate({ status: 404, type: 'text/plain', body: 'no such number' });
		expect(failed.action).toEqual({ kind: 'retryLater' });
		const html = await rate({ type: 'text/html', body: '<html><body>Error</body></html>' });
		expect([html.success, html.summary]).toEqual([
			false,
			'The answer is an HTML page: the app shows no rate.'
		]);
	});
});
