import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../profile/secrets';
import { buildRequests } from './strict-build';
import { maskSecretsIn, redactRequest, scrubSecrets, secretForms, shownOrigin } from './redact';

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

describe('secretForms', () => {
	const sent = 'Cl0ud%20Secret%2F2%26x!';
	const forms = secretForms([sent]);

	it('masks a secret echoed decoded, form-decoded, JSON- and XML-escaped', () => {
		const echoed = [
			'Cl0ud Secret/2&x!',
			'Cl0ud+Secret%2F2%26x!',
			'Cl0ud%20Secret%2F2%26x%21',
			'"Cl0ud Secret\\/2&x!"',
			'<p>Cl0ud Secret/2&amp;x!</p>'
		];
		for (const text of echoed) {
			const masked = scrubSecrets(text, forms);
			expect(masked, text).toContain(SECRET_MASK);
			expect(masked, text).not.toMatch(/Cl0ud|Secret/);
		}
	});

	it('masks a secret typed into a host name as the URL parser writes it', () => {
		const host = new URL('http://MyHost-Secret.example.invalid/').hostname;
		expect(scrubSecrets(host, secretForms(['MyHost-Secret']))).toBe(
			`${SECRET_MASK}.example.invalid`
		);
	});

	it('masks a non-ASCII secret escaped to \\u as ASCII-only JSON writers do', () => {
		const masked = scrubSecrets('{"p":"p\\u00e4ss-w\\u00f6rd"}', secretForms(['päss-wörd']));
		expect(masked).toBe(`{"p":"${SECRET_MASK}"}`);
	});

	it('lists longer forms first and leaves out texts too short to mask', () => {
		expect(forms.map((f) => f.length)).toEqual(
			[...forms.map((f) => f.length)].sort((a, b) => b - a)
		);
		expect(secretForms(['ab'])).toEqual([]);
	});
});

describe('maskSecretsIn', () => {
	it('masks every string of a value, keys such as __proto__ kept as keys', () => {
		const value = JSON.parse('{"__proto__":{"m":"x hunter2"},"list":["hunter2",3,null]}');
		const masked = maskSecretsIn(value, ['hunter2']);
		expect(JSON.stringify(masked)).toBe(
			`{"__proto__":{"m":"x ${SECRET_MASK}"},"list":["${SECRET_MASK}",3,null]}`
		);
		expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
	});
});

describe('shownOrigin', () => {
	it('names the origin with the mask where a secret landed in the host', () => {
		const request = firstRequest(
			{ genericSmsSendUrl: 'http://%account[cloud_password]%.example.invalid:22/x' },
			{ 'account[cloud_password]': 'Topsecret1' }
		);
		expect(shownOrigin(request)).toBe(`http://${SECRET_MASK}.example.invalid:22`);
	});

	it('is the URL origin when no secret is in the host', () => {
		const request = firstRequest(
			{ genericSmsSendUrl: 'https://SMS.example.com:443/send?p=%account[cloud_password]%' },
			{ 'account[cloud_password]': 'Topsecret1' }
		);
		expect(shownOrigin(request)).toBe('https://sms.example.com');
	});
});
