import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Interpretation } from '../../src/lib/core/response';
import type { FetchedMessages } from '../../src/lib/core/response/fetched-messages';
import { createProfile, serverWithAdmin, servicesDocument } from '../helpers/fixtures';
import { stopAllServers, type Client } from '../helpers/server';
import { startUpstream, type Upstream } from '../helpers/upstream';

/**
 * Fetch Messages test calls through the built server to a real local upstream answering each
 * shape a provider's server gives: modern JSON and XML, the legacy shape, each trap, bad input.
 */

interface Call {
	request: { method: string; url: string; body: string | null };
	interpretation?: Interpretation;
	error?: { code: string; message: string };
}

let admin: Client;
let upstream: Upstream;

beforeAll(async () => {
	({ admin } = await serverWithAdmin({
		OUTBOUND_ALLOW: '127.0.0.1/32',
		OUTBOUND_PORTS: '1024-65535',
		OUTBOUND_TOTAL_TIMEOUT_MS: '4000'
	}));
	upstream = await startUpstream();
});

afterAll(async () => {
	await upstream.stop();
	await stopAllServers();
});

const message = (id: string, date: string, extra: object = {}) => ({
	sms_id: id,
	sending_date: date,
	sender: '+14155550123',
	sms_text: `hello ${id}`,
	content_type: 'text/plain',
	...extra
});

/** Makes a Fetch Messages test call (a JSON POST with both last known ids) answered by `answer`. */
async function fetchWith(answer: { status?: number; type: string; body: string }): Promise<Call> {
	upstream.answerNext({
		status: answer.status ?? 200,
		headers: { 'content-type': answer.type },
		body: answer.body
	});
	const result = await admin.json<{ calls?: Call[] }>('/api/test-calls', {
		method: 'POST',
		json: {
			service: 'fetchMessages',
			settings: {
				genericSmsFetchUrl: `${upstream.url}/fetch`,
				genericSmsFetchPostData:
					'{"user": "%account[username]%", "last_id": "%last_known_sms_id%", "last_sent_id": "%last_known_sent_sms_id%"}',
				genericSmsFetchContentType: 'application/json'
			},
			values: { 'account[username]': 'alice', last_known_sms_id: 'r0', last_known_sent_sms_id: '' }
		}
	});
	expect(result.status).toBe(200);
	expect(result.body.calls).toHaveLength(1);
	return result.body.calls![0];
}

function fetched(call: Call): FetchedMessages {
	const action = call.interpretation?.action;
	if (action?.kind !== 'fetchedMessages')
		throw new Error(call.interpretation?.summary ?? 'no interpretation');
	return action.result;
}

const codes = (call: Call) => call.interpretation?.issues.map((i) => i.code) ?? [];

describe('Fetch Messages test calls', () => {
	it('sends the POST the preview shows and reads the modern JSON answer', async () => {
		const before = upstream.requests.length;
		const call = await fetchWith({
			type: 'application/json',
			body: JSON.stringify({
				date: '2026-03-01T10:00:00Z',
				received_smss: [
					message('r1', '2026-03-01T09:00:00Z', { stream_id: 'a' }),
					message('r2', '2026-03-01T09:01:00Z', { stream_id: 'b' })
				],
				sent_smss: [
					{ ...message('s1', '2026-03-01T09:02:00Z'), sender: undefined, recipient: '+1555' }
				]
			})
		});
		expect(upstream.requests[before].body).toBe(
			'{"user": "alice", "last_id": "r0", "last_sent_id": ""}'
		);
		expect(call.request.method).toBe('POST');
		const result = fetched(call);
		expect(result).toMatchObject({
			shape: 'modern',
			newMessages: 2,
			nextLastKnownSmsId: 'r2',
			nextLastKnownSentSmsId: 's1'
		});
		expect(result.threads.map((t) => t.thread)).toEqual(['a', 'b', '+1555']);
		expect(call.interpretation?.summary).toContain('2 new messages in 2 threads');
		expect(codes(call)).toEqual([]);
	});

	it('reads the XML answer', async () => {
		const call = await fetchWith({
			type: 'text/xml; charset=utf-8',
			body: '<response><date>2026-03-01T10:00:00Z</date><received_smss><sms><sms_id>x1</sms_id><sending_date>2026-03-01T09:00:00Z</sending_date><sender>+1555</sender><sms_text>hi</sms_text></sms></received_smss><sent_smss/></response>'
		});
		expect(fetched(call)).toMatchObject({ format: 'xml', received: 1, nextLastKnownSmsId: 'x1' });
	});

	it('reads the legacy answer and names it legacy', async () => {
		const call = await fetchWith({
			type: 'application/json',
			body: JSON.stringify({
				date: '2026-03-01T10:00:00Z',
				unread_smss: [message('u1', '2026-03-01T09:00:00Z')]
			})
		});
		expect(fetched(call).shape).toBe('legacy');
		expect(codes(call)).toEqual(['fetch_legacy_shape']);
	});

	it.each([
		[
			'fetch_message_id',
			{ received_smss: [{ ...message('', '2026-03-01T09:00:00Z'), message_id: 'm' }] }
		],
		['fetch_received_messages', { received_messages: [message('r1', '2026-03-01T09:00:00Z')] }],
		['fetch_date_no_zone', { received_smss: [message('r1', '2026-03-01 09:00:00')] }],
		[
			'fetch_duplicate_sms_id',
			{
				received_smss: [message('d', '2026-03-01T09:00:00Z'), message('d', '2026-03-01T09:01:00Z')]
			}
		],
		[
			'fetch_not_in_order',
			{
				received_smss: [message('b', '2026-03-01T09:05:00Z'), message('a', '2026-03-01T09:00:00Z')]
			}
		],
		[
			'fetch_media_not_filetransfer',
			{
				received_smss: [
					message('m', '2026-03-01T09:00:00Z', {
						content_type: 'application/x-acro-filetransfer+json',
						sms_text: 'img.jpg'
					})
				]
			}
		]
	])('names the trap %s as a warning with its place', async (code, lists) => {
		const call = await fetchWith({
			type: 'application/json',
			body: JSON.stringify({ date: '2026-03-01T10:00:00Z', sent_smss: [], ...lists })
		});
		const issue = call.interpretation?.issues.find((i) => i.code === code);
		expect(issue?.severity).toBe('warning');
		expect(issue?.message).toMatch(/\$\.received_(smss|messages)/);
	});

	it('reads 10,000 messages in a megabyte and gives a bounded list of issues', async () => {
		const many = Array.from({ length: 10_000 }, (_, i) => ({
			sms_id: `m${i}`,
			sending_date: '2026-03-01T09:00:00',
			sender: `+1${i % 400}`,
			sms_text: 'x'.repeat(8)
		}));
		const body = JSON.stringify({
			date: '2026-03-01T10:00:00Z',
			received_smss: many,
			sent_smss: []
		});
		expect(body.length).toBeGreaterThan(900_000);
		expect(body.length).toBeLessThan(1024 * 1024);
		const call = await fetchWith({ type: 'application/json', body });
		const result = fetched(call);
		expect(result).toMatchObject({ received: 10_000, newMessages: 10_000, moreThreads: 350 });
		expect(call.interpretation!.issues.length).toBeLessThanOrEqual(21);
	});

	it.each([
		['HTML', 'text/html', '<!doctype html><html><body>Sign in</body></html>', 'the answer is HTML'],
		[
			'XML with a DOCTYPE',
			'application/xml',
			'<!DOCTYPE response [<!ENTITY x "y">]><response/>',
			'DOCTYPE'
		],
		[
			'XML 10,000 levels deep',
			'application/xml',
			`${'<r>'.repeat(10_000)}${'</r>'.repeat(10_000)}`,
			'line 1, column'
		]
	])('gives a clear verdict for %s, and no messages', async (_, type, body, words) => {
		const call = await fetchWith({ type, body });
		expect(call.interpretation?.success).toBe(false);
		expect(call.interpretation?.summary).toContain('shows no new messages');
		const issue = call.interpretation?.issues.find((i) => i.code === 'fetch_answer_unreadable');
		expect(issue?.message).toContain(words);
		expect(issue?.severity).toBe('warning');
	});

	it('names a message with a 100 KB text and shows only its start', async () => {
		const long = 'é'.repeat(100 * 1024);
		const call = await fetchWith({
			type: 'application/json',
			body: JSON.stringify({
				date: '2026-03-01T10:00:00Z',
				received_smss: [message('r1', '2026-03-01T09:00:00Z', { sms_text: long })],
				sent_smss: []
			})
		});
		const result = fetched(call);
		expect(result.threads[0].last).toMatchObject({ cut: true });
		expect(result.threads[0].last.text.length).toBeLessThanOrEqual(200);
		const issue = call.interpretation?.issues.find((i) => i.code === 'fetch_text_long');
		expect(issue?.message).toContain('sms_text at $.received_smss[0] is 102,400 characters');
		expect(JSON.stringify(call.interpretation)).not.toContain(long.slice(0, 1000));
	});

	it('names a date string of 1,000 characters where it is, without repeating it', async () => {
		const date = `2026-03-01T10:00:00Z${'9'.repeat(980)}`;
		const call = await fetchWith({
			type: 'application/json',
			body: JSON.stringify({
				date,
				received_smss: [message('r1', date)],
				sent_smss: []
			})
		});
		const messages = call.interpretation?.issues.map((i) => i.message) ?? [];
		expect(messages).toContain(
			'date at $.date is not a date the app reads: it is 1000 characters long.'
		);
		expect(messages).toContain(
			'sending_date at $.received_smss[0] is not a date the app reads: it is 1000 characters long.'
		);
		expect(JSON.stringify(call.interpretation)).not.toContain('9'.repeat(100));
	});

	it('changes nothing stored, whatever the answer', async () => {
		const id = await createProfile(
			admin,
			'Bad fetch answers',
			servicesDocument({ fetchMessages: { genericSmsFetchUrl: `${upstream.url}/fetch` } })
		);
		const before = await admin.json<{ profile: { revision: number } }>(`/api/profiles/${id}`);
		for (const [type, body] of [
			['text/html', '<html><body>Sign in</body></html>'],
			['application/xml', '<!DOCTYPE response [<!ENTITY x "y">]><response/>'],
			['application/json', JSON.stringify({ date: 'x'.repeat(1000), received_smss: [] })]
		]) {
			upstream.answerNext({ status: 200, headers: { 'content-type': type }, body });
			const made = await admin.json<{ calls?: Call[] }>('/api/test-calls', {
				method: 'POST',
				json: {
					service: 'fetchMessages',
					settings: { genericSmsFetchUrl: `${upstream.url}/fetch` },
					secretsFrom: { profileId: id }
				}
			});
			expect(made.status, made.text).toBe(200);
			expect(codes(made.body.calls![0])).toContainEqual(expect.stringMatching(/^fetch_/));
		}
		const after = await admin.json<{ profile: { revision: number } }>(`/api/profiles/${id}`);
		expect(after.body.profile.revision).toBe(before.body.profile.revision);
		expect(after.body).toEqual(before.body);
	});

	it('makes a non-2xx answer a failure the app retries later', async () => {
		const call = await fetchWith({
			status: 500,
			type: 'application/json',
			body: '{"message":"down"}'
		});
		expect(call.interpretation?.action.kind).toBe('retryLater');
	});
});
