import { describe, expect, it } from 'vitest';
import type { Issue } from '../issues';
import { interpretResponse } from './interpret';
import { readFetchedLists, readFetchedMessages, type FetchedMessages } from './fetched-messages';

const JSON_TYPE = { 'Content-Type': 'application/json' };
const XML_TYPE = { 'Content-Type': 'application/xml' };

function received(id: string, date: string, extra: Record<string, unknown> = {}) {
	return {
		sms_id: id,
		sending_date: date,
		sender: '+14155550123',
		sms_text: `text ${id}`,
		content_type: 'text/plain',
		...extra
	};
}

const MODERN = {
	date: '2026-03-01T10:00:00Z',
	received_smss: [
		received('r1', '2026-03-01T09:00:00Z', { stream_id: 't1' }),
		received('r2', '2026-03-01T10:01:00+01:00', { stream_id: 't2', displayed: true }),
		received('r3', '2026-03-01T09:05:00Z', { stream_id: 't1' })
	],
	sent_smss: [
		{
			sms_id: 's1',
			sending_date: '2026-03-01T09:02:00Z',
			recipient: '+14155550123',
			sms_text: 'hi',
			content_type: 'text/plain',
			disposition_notification: 'Msg-1:positive-delivery,display',
			stream_id: 't1'
		}
	]
};

function read(body: string, type: string | null = 'application/json') {
	const issues: Issue[] = [];
	const result = readFetchedMessages(body, type, issues);
	return { result, issues, codes: issues.map((i) => i.code) };
}

function ok(
	body: string,
	type?: string | null
): { result: FetchedMessages; codes: string[]; issues: Issue[] } {
	const read_ = read(body, type);
	if (!read_.result) throw new Error(read_.issues.map((i) => i.message).join('\n'));
	return { ...read_, result: read_.result };
}

describe('readFetchedMessages', () => {
	it('reads the modern JSON answer: new messages per thread and the ids of the next call', () => {
		const { result, codes } = ok(JSON.stringify(MODERN));
		expect(codes).toEqual([]);
		expect(result).toMatchObject({
			shape: 'modern',
			format: 'json',
			received: 3,
			sent: 1,
			newMessages: 2,
			nextLastKnownSmsId: 'r3',
			nextLastKnownSentSmsId: 's1'
		});
		expect(
			result.threads.map((t) => [t.thread, t.received, t.sent, t.unread, t.last.smsId])
		).toEqual([
			['t1', 2, 1, 2, 'r3'],
			['t2', 1, 0, 0, 'r2']
		]);
		expect(result.summary).toBe(
			'The app shows 2 new messages in 1 thread and syncs 1 sent message; next time last_known_sms_id is “r3” and last_known_sent_sms_id is “s1”.'
		);
		const sent =
			result.threads[0].last.direction === 'received' ? undefined : result.threads[0].last;
		expect(sent).toBeUndefined();
	});

	it('reads the XML answer, whatever the element wrapping each message', () => {
		const xml = `<response>
	<date>2026-03-01T10:00:00Z</date>
	<received_smss>
		<sms><sms_id>r1</sms_id><sending_date>2026-03-01T09:00:00Z</sending_date><sender>+1555</sender><sms_text>a &amp; b</sms_text></sms>
		<item><sms_id>r2</sms_id><sending_date>2026-03-01T09:01:00Z</sending_date><sender>+1555</sender><sms_text>c</sms_text><displayed>true</displayed></item>
	</received_smss>
	<sent_smss/>
</response>`;
		const { result, codes } = ok(xml, 'application/xml');
		expect(codes).toEqual([]);
		expect(result).toMatchObject({ format: 'xml', received: 2, sent: 0, newMessages: 1 });
		expect(result.threads[0].last.text).toBe('c');
		expect(result.nextLastKnownSentSmsId).toBeNull();
		expect(result.summary).toContain('last_known_sent_sms_id stays as it was');
	});

	it('reads the legacy unread_smss answer and names it legacy', () => {
		const body = JSON.stringify({
			date: '2026-03-01T10:00:00Z',
			unread_smss: [received('u1', '2026-03-01T09:00:00Z')]
		});
		const { result, issues } = ok(body);
		expect(result).toMatchObject({ shape: 'legacy', received: 1, nextLastKnownSmsId: 'u1' });
		expect(issues).toEqual([
			expect.objectContaining({
				code: 'fetch_legacy_shape',
				message: expect.stringContaining('legacy shape (unread_smss at $.unread_smss)')
			})
		]);
	});

	it.each([
		[
			'message_id for sms_id',
			{
				...MODERN,
				received_smss: [
					{ ...received('x', '2026-03-01T09:00:00Z'), sms_id: undefined, message_id: 'm1' }
				]
			},
			'fetch_message_id',
			'$.received_smss[0]'
		],
		[
			'received_messages for received_smss',
			{ date: MODERN.date, received_messages: MODERN.received_smss, sent_smss: [] },
			'fetch_received_messages',
			'$.received_messages'
		],
		[
			'a date without a time zone',
			{ ...MODERN, received_smss: [received('r1', '2026-03-01T09:00:00')] },
			'fetch_date_no_zone',
			'$.received_smss[0]'
		],
		[
			'the same sms_id twice',
			{ ...MODERN, sent_smss: [{ ...MODERN.sent_smss[0], sms_id: 'r1' }] },
			'fetch_duplicate_sms_id',
			'$.sent_smss[0] is the same as at $.received_smss[0]'
		],
		[
			'a list not in order',
			{
				...MODERN,
				received_smss: [
					received('a', '2026-03-01T09:05:00Z'),
					received('b', '2026-03-01T09:00:00Z')
				]
			},
			'fetch_not_in_order',
			'$.received_smss[1] is older than the one at $.received_smss[0]'
		],
		[
			'a media message whose text is not the file-transfer JSON',
			{
				...MODERN,
				received_smss: [
					received('m', '2026-03-01T09:00:00Z', {
						content_type: 'application/x-acro-filetransfer+json',
						sms_text: 'photo.jpg'
					})
				]
			},
			'fetch_media_not_filetransfer',
			'$.received_smss[0] (application/x-acro-filetransfer+json)'
		],
		[
			'a date of 1,000 characters',
			{ ...MODERN, received_smss: [received('d', '2'.repeat(1000))] },
			'fetch_date_invalid',
			'$.received_smss[0] is not a date the app reads: it is 1000 characters long'
		]
	])('names the trap of %s with its JSON path', (_, answer, code, where) => {
		const { issues } = read(JSON.stringify(answer));
		const issue = issues.find((i) => i.code === code);
		expect(issue?.message).toContain(where);
	});

	it('accepts a media message whose text is the file-transfer JSON', () => {
		const media = JSON.stringify({
			body: 'look',
			attachments: [{ 'content-type': 'image/jpeg', 'content-url': 'https://m.example.com/1' }]
		});
		const answer = {
			...MODERN,
			received_smss: [
				received('m', '2026-03-01T09:00:00Z', {
					content_type: 'application/x-acro-filetransfer+json',
					sms_text: media
				})
			]
		};
		expect(read(JSON.stringify(answer)).codes).toEqual([]);
	});

	it('places XML traps by line and column', () => {
		const xml =
			'<response>\n<date>2026-03-01T10:00:00Z</date>\n<received_smss>\n  <sms><message_id>1</message_id><sending_date>2026-03-01T09:00:00Z</sending_date><sender>a</sender><sms_text>x</sms_text></sms>\n</received_smss>\n</response>';
		const { issues } = read(xml, 'text/xml');
		expect(issues.find((i) => i.code === 'fetch_message_id')?.message).toContain(
			'line 4, column 3'
		);
	});

	it.each([
		[
			'HTML',
			'<!DOCTYPE html><html><body>Login</body></html>',
			'text/html',
			'the answer is HTML (text/html)'
		],
		[
			'XML with a DOCTYPE',
			'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "b">]><response/>',
			'application/xml',
			'DOCTYPE'
		],
		[
			'XML 10,000 levels deep',
			`${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}`,
			'application/xml',
			'line 1, column'
		],
		['JSON that is not an object', '[1, 2]', 'application/json', 'not an object (at $)'],
		['an empty body', '', null, 'the body is empty']
	])('gives a clear verdict for %s', (_, body, type, words) => {
		const { result, issues } = read(body, type);
		expect(result).toBeNull();
		expect(issues).toEqual([
			expect.objectContaining({
				code: 'fetch_answer_unreadable',
				message: expect.stringContaining(words)
			})
		]);
	});

	it('reads 10,000 messages in a megabyte, listing a bounded number of issues', () => {
		const many = Array.from({ length: 10_000 }, (_, i) =>
			received('same', `2026-03-01T09:00:${String(i % 60).padStart(2, '0')}Z`, {
				stream_id: `t${i}`
			})
		);
		const body = JSON.stringify({ date: MODERN.date, received_smss: many, sent_smss: [] });
		expect(body.length).toBeGreaterThan(1_000_000);
		const { result, issues } = ok(body);
		expect(result.received).toBe(10_000);
		expect(result.threads).toHaveLength(50);
		expect(result.moreThreads).toBe(9_950);
		expect(issues.length).toBeLessThan(50);
		expect(issues.findLast((i) => i.code === 'fetch_duplicate_sms_id')?.message).toMatch(
			/more like it follow/
		);
	});

	it('keeps 200 characters of a 100 KB text', () => {
		const answer = {
			...MODERN,
			received_smss: [received('big', '2026-03-01T09:00:00Z', { sms_text: 'x'.repeat(100_000) })]
		};
		const { result } = ok(JSON.stringify(answer));
		expect(result.threads[0].last.text).toHaveLength(200);
		expect(result.threads[0].last.cut).toBe(true);
	});
});

describe('interpretResponse for Fetch Messages', () => {
	it('says what the app shows, as a fetchedMessages action', () => {
		const result = interpretResponse('fetchMessages', {
			status: 200,
			headers: JSON_TYPE,
			body: JSON.stringify(MODERN)
		});
		expect(result.success).toBe(true);
		expect(result.action.kind).toBe('fetchedMessages');
		expect(result.summary).toContain('2 new messages');
	});

	it('makes a trap a warning at most: the answer rule comes from providers', () => {
		const answer = { date: MODERN.date, received_messages: MODERN.received_smss };
		const result = interpretResponse('fetchMessages', {
			status: 200,
			headers: JSON_TYPE,
			body: JSON.stringify(answer)
		});
		const issue = result.issues.find((i) => i.code === 'fetch_received_messages');
		expect(issue?.severity).toBe('warning');
		expect(result.issues.every((i) => i.severity !== 'error')).toBe(true);
	});

	it('shows no new messages for an answer it cannot read, and retries a failure later', () => {
		const html = interpretResponse('fetchMessages', {
			status: 200,
			headers: { 'Content-Type': 'text/html' },
			body: '<html><body>x</body></html>'
		});
		expect(html.success).toBe(false);
		expect(html.summary).toContain('shows no new messages');
		const down = interpretResponse('fetchMessages', { status: 503, headers: XML_TYPE, body: '' });
		expect(down.action.kind).toBe('retryLater');
	});
});

describe('every message of an answer, for a virtual phone', () => {
	it('lists all of them, past the threads shown, with the content type as given', () => {
		const many = Array.from({ length: 60 }, (_, i) =>
			received(`m${i}`, '2026-03-01T09:00:00Z', { stream_id: `t${i}` })
		);
		many.push({ ...received('bare', '2026-03-01T09:00:00Z'), content_type: undefined as never });
		const body = JSON.stringify({ date: '2026-03-01T10:00:00Z', received_smss: many });
		const read = readFetchedLists(body, 'application/json', [])!;
		expect(read.received).toHaveLength(61);
		expect(read.result.threads).toHaveLength(50);
		expect(read.received[0].givenContentType).toBe('text/plain');
		expect(read.received[60]).toMatchObject({ contentType: 'text/plain', givenContentType: null });
		// The shown threads stay as the API describes them.
		expect(read.result.threads[0].last).not.toHaveProperty('givenContentType');
	});
});
