import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Interpretation } from '../../src/lib/core/response';
import { serverWithAdmin } from '../helpers/fixtures';
import { stopAllServers, type Client } from '../helpers/server';
import { startUpstream, type Answer, type Upstream } from '../helpers/upstream';

/**
 * Account Removal Reporter and Push Notification Reporter test calls through the built server to
 * a real local upstream: a 2xx, a 404, an HTML page and one that never answers.
 */

/** The test calls may reach only the local upstream's address; a silent one ends fast. */
const LOCAL_UPSTREAM_ONLY = {
	OUTBOUND_ALLOW: '127.0.0.1/32',
	OUTBOUND_PORTS: '1024-65535',
	OUTBOUND_HEADERS_TIMEOUT_MS: '1000',
	OUTBOUND_TOTAL_TIMEOUT_MS: '4000'
};

let admin: Client;
let upstream: Upstream;

beforeAll(async () => {
	let started;
	[upstream, started] = await Promise.all([startUpstream(), serverWithAdmin(LOCAL_UPSTREAM_ONLY)]);
	admin = started.admin;
});

afterAll(async () => {
	await stopAllServers();
	await upstream.stop();
});

interface Call {
	interpretation?: Interpretation;
	error?: { code: string; message: string };
}

async function call(
	service: string,
	settings: Record<string, string>,
	values: Record<string, string>,
	answer: Answer
): Promise<Call> {
	upstream.answerNext(answer);
	const result = await admin.json<{ calls?: Call[] }>('/api/test-calls', {
		method: 'POST',
		json: { service, settings, values }
	});
	expect(result.status).toBe(200);
	expect(result.body.calls).toHaveLength(1);
	return result.body.calls![0];
}

const removal = (answer: Answer) =>
	call(
		'accountRemovalReporter',
		{
			accountRemovalReporterUrl: `${upstream.url}/remove`,
			accountRemovalReporterPostData:
				'user=%account[username]%&selector=%selector%&token=%pushToken%'
		},
		{
			'account[username]': 'alice',
			selector: '12869E0E6E553673C54F29105A0647204C416A2A:7C3A0D14',
			pushToken: 'Udl99X2JFP1bWwS5gR/wGeLE1hmAB2CMpr1Ej0wxkrY='
		},
		answer
	);

const delivery = (answer: Answer, push: Record<string, string>) =>
	call(
		'pushNotificationReporter',
		{ pushNotificationReporterUrl: `${upstream.url}/delivered?id=%pushId%&type=%type%` },
		push,
		answer
	);

const interpretation = (result: Call) => {
	expect(result.error).toBeUndefined();
	return result.interpretation!;
};

describe('Account Removal Reporter test calls', () => {
	it('posts the selector and the token, and a 2xx tells the provider to delete the tokens', async () => {
		const before = upstream.requests.length;
		const result = interpretation(await removal({ status: 204, body: '' }));
		expect(upstream.requests[before]).toMatchObject({
			method: 'POST',
			url: '/remove',
			body: 'user=alice&selector=12869E0E6E553673C54F29105A0647204C416A2A%3A7C3A0D14&token=Udl99X2JFP1bWwS5gR%2FwGeLE1hmAB2CMpr1Ej0wxkrY%3D'
		});
		expect(result).toMatchObject({
			success: true,
			shownToUser: null,
			action: { kind: 'report', delivered: true },
			summary:
				'The report is delivered. The provider should now delete the push tokens it stored for this selector: the account was signed out or removed, so no push may go to it.',
			issues: []
		});
	});

	it('reads a 404 as not delivered, a warning, with nothing shown to the user', async () => {
		const result = interpretation(
			await removal({
				status: 404,
				headers: { 'content-type': 'application/json' },
				body: '{"message": "no such route"}'
			})
		);
		expect(result).toMatchObject({
			success: false,
			shownToUser: null,
			action: { kind: 'report', delivered: false, duty: null }
		});
		expect(result.summary).toBe(
			'HTTP 404: the report is not delivered, so the provider has nothing to do with it; the app shows nothing to the user.'
		);
		expect(result.issues).toEqual([
			expect.objectContaining({ code: 'reporter_not_2xx', severity: 'warning' })
		]);
	});

	it('ends an upstream that never answers with the timeout', async () => {
		const result = await removal(() => {});
		expect(result.interpretation).toBeUndefined();
		expect(result.error).toMatchObject({ code: 'headers_timeout' });
		expect(result.error!.message).toContain(`${upstream.url}/remove`);
	});
});

describe('Push Notification Reporter test calls', () => {
	it('sends the push keys; a 2xx counts a push test, or the delivery of a push', async () => {
		const before = upstream.requests.length;
		const test = interpretation(
			await delivery({ status: 200, body: '' }, { pushId: 'test-42', type: '' })
		);
		expect(upstream.requests[before]).toMatchObject({
			method: 'GET',
			url: '/delivered?id=test-42&type='
		});
		expect(test.success).toBe(true);
		expect(test.action).toEqual({
			kind: 'report',
			delivered: true,
			duty: 'The provider should now count push test “test-42” as delivered.'
		});
		const message = interpretation(
			await delivery({ status: 200, body: '' }, { pushId: '', type: 'sm' })
		);
		expect(message.summary).toBe(
			'The report is delivered. The provider should now count the delivery of this push (type “sm”) in its statistics.'
		);
	});

	it('notes a 2xx HTML page, which a proxy often answers in place of the service', async () => {
		const result = interpretation(
			await delivery(
				{
					status: 200,
					headers: { 'content-type': 'text/html' },
					body: '<!DOCTYPE html><html><head><title>Sign in</title></head></html>'
				},
				{ pushId: '', type: 'sm' }
			)
		);
		expect(result.success).toBe(true);
		expect(result.issues).toEqual([
			expect.objectContaining({
				code: 'reporter_html_answer',
				severity: 'warning',
				message: expect.stringContaining('“Sign in”')
			})
		]);
	});

	it('reads a 404 as not delivered', async () => {
		const result = interpretation(await delivery({ status: 404, body: '' }, { pushId: 'x' }));
		expect([result.success, result.action]).toEqual([
			false,
			{ kind: 'report', delivered: false, duty: null }
		]);
	});
});
