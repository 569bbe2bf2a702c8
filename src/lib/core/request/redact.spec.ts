import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../profile/secrets';
import { buildRequests } from './build';
import { redactRequest, scrubSecrets } from './redact';

function firstRequest(settings: Record<string, string>, values: Record<string, string>) {
	const result = buildRequests({ service: 'sendMessage', settings, values });
	return result.requests[0];
}

describe('redactRequest', () => {
	it('masks a password in the URL, the body and a header, and nothing else', () => {
		const request = firstRequest(
			{
				genericSmsSendUrl:
					'https://sms.example.com/send?u=%account[username]%&p=%account[password]%',
				genericSmsSendPostData: '{"p":"%account[password]%","to":"%sms_to%"}',
				genericSmsSendContentType: 'application/json'
			},
			{ 'account[username]': 'alice', 'account[password]': 'p&ss"word', sms_to: '+1555' }
		);
		const redacted = redactRequest(request);
		expect(redacted.url).toBe(`https://sms.example.com/send?u=alice&p=${SECRET_MASK}`);
		expect(redacted.body).toBe(`{"p":"${SECRET_MASK}","to":"+1555"}`);
		expect(redacted.secrets).toEqual(['p%26ss%22word', 'p&ss\\"word']);
	});

	it('masks the SHA-1 of a password', () => {
		const request = firstRequest(
			{ genericSmsSendUrl: 'https://sms.example.com/send?h=%sha1(%account[password]%)%' },
			{ 'account[password]': 'secret' }
		);
		expect(redactRequest(request).url).toBe(`https://sms.example.com/send?h=${SECRET_MASK}`);
	});

	it('keeps a request without secrets byte for byte', () => {
		const request = firstRequest(
			{ genericSmsSendUrl: 'https://sms.example.com/send?to=%sms_to%' },
			{ sms_to: '+1555' }
		);
		const redacted = redactRequest(request);
		expect(redacted).toMatchObject({ url: request.url, body: null, secrets: [] });
	});
});

describe('scrubSecrets', () => {
	it('replaces every occurrence of a secret text in a response body', () => {
		expect(scrubSecrets('{"echo":"hunter2","again":"hunter2"}', ['hunter2'])).toBe(
			`{"echo":"${SECRET_MASK}","again":"${SECRET_MASK}"}`
		);
	});
});
