import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { SERVICES } from '../catalogue/services';
import { vocabularyOf } from '../catalogue/vocabulary';
import { encodeValue } from '../template';
import { parseXml } from '../xml/parse';
import { firstRequestValues, type BuildInput, type BuildResult } from './build';
import { buildRequests } from './strict-build';
import type { Settings } from './settings';
import type { Values } from './values';

const JSON_TYPE = 'application/json';
const XML_TYPE = 'application/xml';
const FORM = 'application/x-www-form-urlencoded';

function build(
	service: string,
	settings: Settings,
	values: Values = {},
	rawSubstitution = false
): BuildResult {
	return buildRequests({ service, settings, values, rawSubstitution });
}

function codes(result: BuildResult): string[] {
	return result.issues.map((i) => i.code);
}

function issue(result: BuildResult, code: string) {
	const found = result.issues.find((i) => i.code === code);
	if (!found) throw new Error(`no ${code} issue in ${codes(result).join(', ')}`);
	return found;
}

function sha1(text: string): string {
	return createHash('sha1').update(text, 'utf8').digest('hex');
}

/** One request in a compact form: method, body or -, Content-Type header or -. */
function brief(result: BuildResult): string {
	return result.requests
		.map((r) => {
			const type = r.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '-';
			return `${r.method} ${r.body ?? '-'} ${type}`;
		})
		.join(' | ');
}

describe('buildRequests: method rule', () => {
	const cases: { rule: string; service: string; settings: Settings; expected: string }[] = [
		{
			rule: 'Send Message: GET when genericSmsSendPostData is empty',
			service: 'sendMessage',
			settings: { genericSmsSendUrl: 'https://p.example/s?to=%sms_to%' },
			expected: 'GET - -'
		},
		{
			rule: 'Send Message: POST when genericSmsSendPostData is filled',
			service: 'sendMessage',
			settings: { genericSmsSendUrl: 'https://p.example/s', genericSmsSendPostData: 'a=1' },
			expected: `POST a=1 ${FORM}`
		},
		{
			rule: 'Media Reference Send: unset method, no post data: GET',
			service: 'mediaRefSend',
			settings: { genericMediaRefSendUrl: 'https://p.example/m' },
			expected: 'GET - -'
		},
		{
			rule: 'Media Reference Send: unset method, post data: POST',
			service: 'mediaRefSend',
			settings: {
				genericMediaRefSendUrl: 'https://p.example/m',
				genericMediaRefSendPostData: 'a=1'
			},
			expected: `POST a=1 ${FORM}`
		},
		{
			rule: 'Media Reference Send: explicit GET does not send the post data',
			service: 'mediaRefSend',
			settings: {
				genericMediaRefSendUrl: 'https://p.example/m',
				genericMediaRefSendPostData: 'a=1',
				genericMediaRefSendMethod: 'GET'
			},
			expected: 'GET - -'
		},
		{
			rule: 'Media Reference Send: explicit HEAD does not send the post data',
			service: 'mediaRefSend',
			settings: {
				genericMediaRefSendUrl: 'https://p.example/m',
				genericMediaRefSendPostData: 'a=1',
				genericMediaRefSendMethod: 'HEAD'
			},
			expected: 'HEAD - -'
		},
		{
			rule: 'Media Reference Send: with PUT the data is sent by PUT',
			service: 'mediaRefSend',
			settings: {
				genericMediaRefSendUrl: 'https://p.example/m',
				genericMediaRefSendPostData: 'a=1',
				genericMediaRefSendMethod: 'PUT'
			},
			expected: `PUT a=1 ${FORM}`
		},
		{
			rule: 'Media Reference Send: explicit POST',
			service: 'mediaRefSend',
			settings: {
				genericMediaRefSendUrl: 'https://p.example/m',
				genericMediaRefSendPostData: 'a=1',
				genericMediaRefSendMethod: 'POST'
			},
			expected: `POST a=1 ${FORM}`
		},
		{
			rule: 'External Authentication: GET (query string)',
			service: 'externalAuth',
			settings: { externalAuthUrl: 'https://p.example/auth?u=%username%' },
			expected: 'GET - -'
		},
		{
			rule: 'External Authentication: POST (JSON body)',
			service: 'externalAuth',
			settings: {
				externalAuthUrl: 'https://p.example/auth',
				externalAuthPostData: '{"u":"%username%"}',
				externalAuthContentType: JSON_TYPE
			},
			expected: `POST {"u":""} ${JSON_TYPE}`
		},
		{
			rule: 'Phone Number Verifier: GET without post data',
			service: 'phoneNumberVerifier',
			settings: { phoneNumberVerifierUrl: 'https://p.example/v?n=%phoneNumber%' },
			expected: 'GET - -'
		},
		{
			rule: 'Phone Number Verifier: POST with post data, form by default',
			service: 'phoneNumberVerifier',
			settings: {
				phoneNumberVerifierUrl: 'https://p.example/v',
				phoneNumberVerifierPostData: 'n=1'
			},
			expected: `POST n=1 ${FORM}`
		},
		{
			rule: 'Invitation Accepted: GET without post data',
			service: 'invitationAccepted',
			settings: { invitationAcceptedUrl: 'https://p.example/i' },
			expected: 'GET - -'
		},
		{
			rule: 'Invitation Accepted: POST, form by default',
			service: 'invitationAccepted',
			settings: { invitationAcceptedUrl: 'https://p.example/i', invitationAcceptedPostData: 'x=1' },
			expected: `POST x=1 ${FORM}`
		},
		{
			rule: 'New Smart Contact Notification: POST with a body built from the template',
			service: 'smartContactNotification',
			settings: {
				smartContactNotificationUrl: 'https://p.example/n',
				smartContactNotificationPostData: '{}',
				smartContactNotificationContentType: JSON_TYPE
			},
			expected: `POST {} ${JSON_TYPE}`
		},
		{
			rule: 'Push Token Reporter: GET without post data',
			service: 'pushTokenReporter',
			settings: { pushTokenReporterUrl: 'https://p.example/t/%selector%' },
			expected: 'GET - -'
		},
		{
			rule: 'Push Token Reporter: POST, form by default',
			service: 'pushTokenReporter',
			settings: { pushTokenReporterUrl: 'https://p.example/t', pushTokenReporterPostData: 't=1' },
			expected: `POST t=1 ${FORM}`
		}
	];

	it.each(cases)('$rule', ({ service, settings, expected }) => {
		const result = build(service, settings);
		expect(brief(result)).toBe(expected);
		expect(result.issues.filter((i) => i.severity === 'error')).toEqual([]);
	});

	it('reports body_ignored on the post data when GET or HEAD is chosen', () => {
		for (const method of ['GET', 'HEAD']) {
			const result = build('mediaRefSend', {
				genericMediaRefSendUrl: 'https://p.example/m',
				genericMediaRefSendPostData: 'a=1',
				genericMediaRefSendMethod: method
			});
			expect(issue(result, 'body_ignored')).toMatchObject({
				severity: 'warning',
				field: 'genericMediaRefSendPostData'
			});
		}
	});

	it('accepts a method setting written in lower case', () => {
		const result = build('mediaRefSend', {
			genericMediaRefSendUrl: 'https://p.example/m',
			genericMediaRefSendPostData: 'a=1',
			genericMediaRefSendMethod: 'put'
		});
		expect(result.requests[0].method).toBe('PUT');
	});

	it('reports invalid_method for a method outside GET, HEAD, POST, PUT and falls back to the body rule', () => {
		const result = build('mediaRefSend', {
			genericMediaRefSendUrl: 'https://p.example/m',
			genericMediaRefSendPostData: 'a=1',
			genericMediaRefSendMethod: 'DELETE'
		});
		expect(issue(result, 'invalid_method')).toMatchObject({
			severity: 'error',
			field: 'genericMediaRefSendMethod'
		});
		expect(result.requests[0].method).toBe('POST');
	});

	it('New Smart Contact is POST and reports body_required when the post data is empty', () => {
		const result = build('smartContactNotification', {
			smartContactNotificationUrl: 'https://p.example/n',
			smartContactNotificationContentType: JSON_TYPE
		});
		expect(result.requests[0].method).toBe('POST');
		expect(issue(result, 'body_required')).toMatchObject({
			severity: 'error',
			field: 'smartContactNotificationPostData'
		});
	});
});

describe('buildRequests: content types', () => {
	it('sends the configured Content-Type with the body, as the only Content-Type header', () => {
		const result = build('sendMessage', {
			genericSmsSendUrl: 'https://p.example/s',
			genericSmsSendPostData: '{"b":"%sms_body%"}',
			genericSmsSendContentType: 'application/json; charset=utf-8'
		});
		const types = result.requests[0].headers.filter((h) => h.name.toLowerCase() === 'content-type');
		expect(types).toEqual([{ name: 'Content-Type', value: 'application/json; charset=utf-8' }]);
		expect(result.requests[0].contentType).toBe('application/json; charset=utf-8');
	});

	it('sends no Content-Type without a body, and says the setting is unused', () => {
		const result = build('sendMessage', {
			genericSmsSendUrl: 'https://p.example/s',
			genericSmsSendContentType: JSON_TYPE
		});
		expect(result.requests[0].headers).toEqual([]);
		expect(result.requests[0].contentType).toBeNull();
		expect(issue(result, 'content_type_unused').severity).toBe('info');
	});

	it('sends no Content-Type with HEAD even when post data and a content type are set', () => {
		const result = build('mediaRefSend', {
			genericMediaRefSendUrl: 'https://p.example/m',
			genericMediaRefSendPostData: '{}',
			genericMediaRefSendContentType: JSON_TYPE,
			genericMediaRefSendMethod: 'HEAD'
		});
		expect(result.requests[0].headers).toEqual([]);
		expect(result.requests[0].body).toBeNull();
	});

	const allowed: { rule: string; service: string; type: string; ok: boolean }[] = [
		{
			rule: 'Invitation Accepted allows application/json',
			service: 'invitationAccepted',
			type: JSON_TYPE,
			ok: true
		},
		{
			rule: 'Invitation Accepted allows form',
			service: 'invitationAccepted',
			type: FORM,
			ok: true
		},
		{
			rule: 'Invitation Accepted allows application/xml',
			service: 'invitationAccepted',
			type: XML_TYPE,
			ok: true
		},
		{
			rule: 'Invitation Accepted allows a listed type with parameters',
			service: 'invitationAccepted',
			type: 'application/xml; charset=utf-8',
			ok: true
		},
		{
			rule: 'Invitation Accepted refuses text/plain',
			service: 'invitationAccepted',
			type: 'text/plain',
			ok: false
		},
		{
			rule: 'Invitation Accepted refuses text/xml',
			service: 'invitationAccepted',
			type: 'text/xml',
			ok: false
		},
		{
			rule: 'New Smart Contact allows application/json',
			service: 'smartContactNotification',
			type: JSON_TYPE,
			ok: true
		},
		{
			rule: 'New Smart Contact allows application/xml',
			service: 'smartContactNotification',
			type: XML_TYPE,
			ok: true
		},
		{
			rule: 'New Smart Contact refuses form',
			service: 'smartContactNotification',
			type: FORM,
			ok: false
		},
		{
			rule: 'New Smart Contact refuses text/plain',
			service: 'smartContactNotification',
			type: 'text/plain',
			ok: false
		}
	];

	it.each(allowed)('Limits, content types: $rule', ({ service, type, ok }) => {
		const prefix = service;
		const body = type.includes('json') ? '{}' : type.includes('xml') ? '<root/>' : 'a=1';
		const result = build(service, {
			[`${prefix}Url`]: 'https://p.example/x',
			[`${prefix}PostData`]: body,
			[`${prefix}ContentType`]: type
		});
		expect(codes(result).includes('content_type_not_allowed')).toBe(!ok);
		if (!ok) expect(issue(result, 'content_type_not_allowed').field).toBe(`${prefix}ContentType`);
	});

	it('reports content_type_missing for New Smart Contact with no content type set', () => {
		const result = build('smartContactNotification', {
			smartContactNotificationUrl: 'https://p.example/n',
			smartContactNotificationPostData: '{}'
		});
		expect(issue(result, 'content_type_missing')).toMatchObject({
			severity: 'error',
			field: 'smartContactNotificationContentType'
		});
		expect(result.requests[0].headers).toEqual([]);
	});

	it('expands %interestedParties% to a JSON array in a JSON body and an XML list in an XML body', () => {
		const parties = [{ username: 'a"b', device: 'x<y' }];
		const json = build(
			'smartContactNotification',
			{
				smartContactNotificationUrl: 'https://p.example/n',
				smartContactNotificationPostData: '{"interestedParties":%interestedParties%}',
				smartContactNotificationContentType: JSON_TYPE
			},
			{ interestedParties: parties }
		);
		expect(JSON.parse(json.requests[0].body ?? '')).toEqual({ interestedParties: parties });
		const xml = build(
			'smartContactNotification',
			{
				smartContactNotificationUrl: 'https://p.example/n',
				smartContactNotificationPostData:
					'<root><interested_parties>%interestedParties%</interested_parties></root>',
				smartContactNotificationContentType: XML_TYPE
			},
			{ interestedParties: parties }
		);
		expect(xml.requests[0].body).toBe(
			'<root><interested_parties><list><party><username>a&quot;b</username><device>x&lt;y</device></party></list></interested_parties></root>'
		);
	});
});

describe('buildRequests: recipients', () => {
	it.each([
		{ service: 'sendMessage', url: 'genericSmsSendUrl' },
		{ service: 'mediaRefSend', url: 'genericMediaRefSendUrl' }
	])('Limits, recipients per call: $service is called once per recipient', ({ service, url }) => {
		const result = build(
			service,
			{ [url]: 'https://p.example/x?to=%sms_to%' },
			{ sms_to: ['+111', '+222', 'bob@sip.example'] }
		);
		expect(result.requests.map((r) => [r.recipient, r.url])).toEqual([
			['+111', 'https://p.example/x?to=%2B111'],
			['+222', 'https://p.example/x?to=%2B222'],
			['bob@sip.example', 'https://p.example/x?to=bob%40sip.example']
		]);
	});

	it('sends one request without a recipient field when sms_to is a single value', () => {
		const result = build(
			'sendMessage',
			{ genericSmsSendUrl: 'https://p.example/x?to=%sms_to%' },
			{ sms_to: '+111' }
		);
		expect(result.requests).toHaveLength(1);
		expect(result.requests[0].recipient).toBeUndefined();
	});

	it('sends no request and reports no_recipients for an empty list', () => {
		const result = build(
			'sendMessage',
			{ genericSmsSendUrl: 'https://p.example/x?to=%sms_to%' },
			{ sms_to: [] }
		);
		expect(result.requests).toEqual([]);
		expect(issue(result, 'no_recipients').severity).toBe('warning');
	});
});

describe('firstRequestValues: the first request alone', () => {
	const settings = {
		genericSmsSendUrl: 'https://p.example/x',
		genericSmsSendPostData: '{"to":"%sms_to%","text":"%sms_body%"}',
		genericSmsSendContentType: JSON_TYPE
	};

	it('builds exactly the first of the requests of a list of recipients', () => {
		const values: Values = { sms_to: ['+111', '+222', 'bob@sip.example'], sms_body: 'Hi' };
		const all = build('sendMessage', settings, values);
		const first = build('sendMessage', settings, firstRequestValues('sendMessage', values));
		expect(all.requests).toHaveLength(3);
		expect(first.requests).toEqual([all.requests[0]]);
	});

	it('leaves one recipient, an empty list and services without recipients as they are', () => {
		const one: Values = { sms_to: '+111' };
		expect(firstRequestValues('sendMessage', one)).toBe(one);
		const none: Values = { sms_to: [] };
		expect(firstRequestValues('sendMessage', none)).toBe(none);
		const token: Values = { sms_to: ['+1', '+2'] };
		expect(firstRequestValues('pushTokenReporter', token)).toBe(token);
	});
});

describe('buildRequests: URL checks', () => {
	it.each(['not a url', '//p.example/x', 'https://', 'p.example/send?x=1'])(
		'reports invalid_url for %j',
		(url) => {
			const result = build('sendMessage', { genericSmsSendUrl: url });
			expect(issue(result, 'invalid_url')).toMatchObject({
				severity: 'error',
				field: 'genericSmsSendUrl',
				from: 0,
				to: url.length
			});
		}
	);

	it.each([
		'file:///etc/passwd',
		'data:text/plain,hello',
		'javascript:alert(1)',
		'ftp://p.example/x'
	])('reports invalid_url_scheme for %s', (url) => {
		const result = build('sendMessage', { genericSmsSendUrl: url });
		const found = issue(result, 'invalid_url_scheme');
		expect(found.severity).toBe('error');
		expect(url.slice(found.from, found.to)).toBe(url.slice(0, url.indexOf(':') + 1));
	});

	it.each([
		{ service: 'externalAuth', key: 'externalAuthUrl' },
		{ service: 'extSSOProv', key: 'extSSOProvUrl' }
	])(
		'Limits, URL scheme: $service reports https_required for http, with a fix to https',
		({ service, key }) => {
			const url = 'http://p.example/auth?u=%username%';
			const result = build(service, { [key]: url });
			const found = issue(result, 'https_required');
			expect(found).toMatchObject({ severity: 'error', field: key });
			expect(codes(result)).not.toContain('insecure_url');
			const fix = found.fix;
			expect(fix).toBeDefined();
			if (!fix) return;
			const fixed = url.slice(0, fix.from) + fix.insert + url.slice(fix.to);
			expect(fixed).toBe('https://p.example/auth?u=%username%');
			expect(codes(build(service, { [key]: fixed }))).not.toContain('https_required');
		}
	);

	it('reports insecure_url (a warning, with a fix) for http elsewhere', () => {
		const result = build('sendMessage', { genericSmsSendUrl: 'http://p.example/s' });
		expect(issue(result, 'insecure_url')).toMatchObject({
			severity: 'warning',
			fix: { from: 0, to: 5, insert: 'https:' }
		});
		expect(codes(result)).not.toContain('https_required');
	});

	it('does not speak of account values over http for a service that has none', () => {
		const result = build('initialProvisioning', {
			InitialProvisioningUrl: 'http://p.example/i?u=%username%'
		});
		expect(issue(result, 'insecure_url')?.message).toBe(
			'Plain http: sends credentials readable on the network. Use https:.'
		);
	});

	it('reports nothing about the scheme for https', () => {
		const result = build('sendMessage', { genericSmsSendUrl: 'https://p.example/s' });
		expect(result.issues).toEqual([]);
	});

	it('reports url_missing as info for Media Reference Send (delivered via SIP) and sends nothing', () => {
		const result = build('mediaRefSend', { genericMediaRefSendPostData: 'a=1' });
		expect(result.requests).toEqual([]);
		expect(issue(result, 'url_missing').severity).toBe('info');
	});

	it.each([
		'sendMessage',
		'externalAuth',
		'phoneNumberVerifier',
		'invitationAccepted',
		'pushTokenReporter'
	])('reports url_missing as a warning for %s and sends nothing', (service) => {
		const result = build(service, {
			[`${service === 'sendMessage' ? 'genericSmsSend' : service}Url`]: '  '
		});
		expect(result.requests).toEqual([]);
		expect(issue(result, 'url_missing').severity).toBe('warning');
	});
});

describe('buildRequests: origin checks', () => {
	const template = 'https://api.example.com%sms_to%/x';

	it('reports origin_changed in raw mode when a value after the host sends the request elsewhere', () => {
		const result = build(
			'sendMessage',
			{ genericSmsSendUrl: template },
			{ sms_to: '@evil.test' },
			true
		);
		expect(new URL(result.requests[0].url).hostname).toBe('evil.test');
		expect(issue(result, 'origin_changed')).toMatchObject({
			severity: 'error',
			field: 'genericSmsSendUrl'
		});
		expect(issue(result, 'origin_changed').message).toContain('https://evil.test');
	});

	it('with the default encoding the same value cannot change the origin', () => {
		const result = build('sendMessage', { genericSmsSendUrl: template }, { sms_to: '@evil.test' });
		expect(result.requests[0].url).toBe('https://api.example.com%40evil.test/x');
		expect(codes(result)).not.toContain('origin_changed');
		// %40 cannot stand in a host: the URL is refused rather than sent to evil.test.
		expect(URL.canParse(result.requests[0].url)).toBe(false);
		expect(codes(result)).toContain('invalid_url');
	});

	it('reports origin_changed when an encoded value extends the host name', () => {
		const result = build('sendMessage', { genericSmsSendUrl: template }, { sms_to: '.evil.test' });
		expect(codes(result)).toContain('origin_changed');
	});

	it('reports origin_changed in raw mode when a user-info value moves the host', () => {
		const result = build(
			'sendMessage',
			{ genericSmsSendUrl: 'https://%account[username]%@api.example.com/x' },
			{ 'account[username]': 'evil.test/' },
			true
		);
		expect(new URL(result.requests[0].url).hostname).toBe('evil.test');
		expect(codes(result)).toContain('origin_changed');
	});

	it('does not report origin_changed when a value completes the host name by design', () => {
		const result = build(
			'sendMessage',
			{ genericSmsSendUrl: 'https://sms.%account[host]%/send' },
			{ 'account[host]': 'sip.example.com' }
		);
		expect(result.requests[0].url).toBe('https://sms.sip.example.com/send');
		expect(result.issues).toEqual([]);
	});

	it('does not report origin_changed when the values only fill the path and query', () => {
		const result = build(
			'sendMessage',
			{ genericSmsSendUrl: 'https://api.example.com/%sms_to%?b=%sms_body%' },
			{ sms_to: '@evil.test', sms_body: '//evil.test/' },
			true
		);
		expect(codes(result)).not.toContain('origin_changed');
	});
});

describe('buildRequests: passwords over http', () => {
	const password = 'p@ss word&1';
	const values = { 'account[password]': password };

	it('sends **** for %account[password]% in URL and body over http, and reports password_masked', () => {
		const result = build(
			'sendMessage',
			{
				genericSmsSendUrl: 'http://p.example/s?p=%account[password]%',
				genericSmsSendPostData: 'p=%account[password]%'
			},
			values
		);
		const request = result.requests[0];
		expect(request.url).toBe('http://p.example/s?p=****');
		expect(request.body).toBe('p=****');
		expect(issue(result, 'password_masked').severity).toBe('warning');
	});

	it('sends the real SHA-1 inside %sha1(%account[password]%)% over http', () => {
		const result = build(
			'sendMessage',
			{
				genericSmsSendUrl: 'http://p.example/s?h=%sha1(%account[password]%)%',
				genericSmsSendPostData: 'h=%sha1(%account[password]%)%'
			},
			values
		);
		const digest = sha1(password);
		expect(result.requests[0].url).toBe(`http://p.example/s?h=${digest}`);
		expect(result.requests[0].body).toBe(`h=${digest}`);
		expect(codes(result)).not.toContain('password_masked');
	});

	it('sends the real password over https', () => {
		const result = build(
			'sendMessage',
			{ genericSmsSendUrl: 'https://p.example/s?p=%account[password]%' },
			values
		);
		expect(result.requests[0].url).toBe(`https://p.example/s?p=${encodeURIComponent(password)}`);
		expect(codes(result)).not.toContain('password_masked');
	});

	it.each([
		'HTTP://p.example/s?p=%account[password]%',
		'  http://p.example/s?p=%account[password]%'
	])('masks the password whenever the URL is read as http: (%j)', (url) => {
		const result = build('sendMessage', { genericSmsSendUrl: url }, values);
		expect(codes(result)).toContain('insecure_url');
		expect(result.requests[0].url).toContain('p=****');
		expect(result.requests[0].url).not.toContain(encodeURIComponent(password));
	});

	it('masks the password in a custom header over http and reports it', () => {
		const result = build(
			'mediaRefSend',
			{
				genericMediaRefSendUrl: 'http://p.example/m',
				genericMediaRefSendCustomHeaders: 'X-Pass: %account[password]%'
			},
			values
		);
		expect(result.requests[0].headers).toEqual([{ name: 'X-Pass', value: '****' }]);
		expect(codes(result)).toContain('password_masked');
	});
});

describe('buildRequests: body checks', () => {
	it('raw substitution: a value with a quote breaks the JSON and the issue points at the placeholder', () => {
		const template = '{"to":"%sms_to%","text":"%sms_body%"}';
		const result = build(
			'sendMessage',
			{
				genericSmsSendUrl: 'https://p.example/s',
				genericSmsSendPostData: template,
				genericSmsSendContentType: JSON_TYPE
			},
			{ sms_to: '+1', sms_body: 'Tom said "hi" to me' },
			true
		);
		const found = issue(result, 'body_invalid_json');
		expect(found).toMatchObject({ severity: 'error', field: 'genericSmsSendPostData' });
		expect(template.slice(found.from, found.to)).toBe('%sms_body%');
		expect(found.message).toContain('%sms_body%');
	});

	it('with the default JSON encoding the same value keeps the body valid', () => {
		const result = build(
			'sendMessage',
			{
				genericSmsSendUrl: 'https://p.example/s',
				genericSmsSendPostData: '{"text":"%sms_body%"}',
				genericSmsSendContentType: JSON_TYPE
			},
			{ sms_body: 'Tom said "hi" to me' }
		);
		expect(codes(result)).not.toContain('body_invalid_json');
		expect(JSON.parse(result.requests[0].body ?? '')).toEqual({ text: 'Tom said "hi" to me' });
	});

	it('raw substitution: a value with markup breaks the XML and the issue points at the placeholder', () => {
		const template = '<root><to>%sms_to%</to><text>%sms_body%</text></root>';
		const result = build(
			'sendMessage',
			{
				genericSmsSendUrl: 'https://p.example/s',
				genericSmsSendPostData: template,
				genericSmsSendContentType: XML_TYPE
			},
			{ sms_to: '+1', sms_body: 'if a < b then' },
			true
		);
		const found = issue(result, 'body_invalid_xml');
		expect(found.severity).toBe('error');
		expect(template.slice(found.from, found.to)).toBe('%sms_body%');
	});

	it('reports a JSON template that is broken by itself at the template text', () => {
		const template = '{"text": %sms_body%"}';
		const result = build(
			'sendMessage',
			{
				genericSmsSendUrl: 'https://p.example/s',
				genericSmsSendPostData: template,
				genericSmsSendContentType: 'application/vnd.acro+json'
			},
			{ sms_body: 'hi' }
		);
		expect(issue(result, 'body_invalid_json').severity).toBe('error');
	});

	it('does not check form or text bodies for JSON or XML', () => {
		const result = build(
			'sendMessage',
			{ genericSmsSendUrl: 'https://p.example/s', genericSmsSendPostData: '{"text":"%sms_body%' },
			{ sms_body: '<' }
		);
		expect(result.issues).toEqual([]);
	});
});

describe('buildRequests: one issue repeated through a large body', () => {
	it('builds a body of 200,000 unknown names (1.4 MB): the body as written, 20 issues listed', () => {
		const template = '%nope% '.repeat(200_000) + '%other%';
		const result = build('sendMessage', {
			genericSmsSendUrl: 'https://p.example/s',
			genericSmsSendPostData: template,
			genericSmsSendContentType: 'text/plain'
		});
		expect(result.requests[0].body).toBe(template);
		const nope = result.issues.filter((i) => i.message.startsWith('%nope%'));
		expect(nope).toHaveLength(20);
		expect(nope[19].message).toMatch(/ 199,980 more like it follow, not listed one by one\.$/);
		expect(result.issues.filter((i) => i.message.startsWith('%other%'))).toHaveLength(1);
	});

	it('raw substitution: a value that breaks the body is flagged at 20 of its 25 uses, then counted', () => {
		const template = `[${Array.from({ length: 25 }, () => '"%sms_body%"').join(',')}]`;
		const result = build(
			'sendMessage',
			{
				genericSmsSendUrl: 'https://p.example/s',
				genericSmsSendPostData: template,
				genericSmsSendContentType: JSON_TYPE
			},
			{ sms_body: 'say "hi"' },
			true
		);
		const breaks = result.issues.filter((i) => i.code === 'raw_breaks');
		expect(breaks).toHaveLength(20);
		expect(breaks.every((i) => i.field === 'genericSmsSendPostData')).toBe(true);
		expect(breaks[19].message).toMatch(/ 5 more like it follow/);
		expect(codes(result)).toContain('body_invalid_json');
	});
});

describe('buildRequests: settings', () => {
	it('uses the deprecated genericSmsPostData when genericSmsSendPostData is empty, with deprecated_key', () => {
		const result = build('sendMessage', {
			genericSmsSendUrl: 'https://p.example/s',
			genericSmsPostData: 'old=1'
		});
		expect(result.requests[0]).toMatchObject({ method: 'POST', body: 'old=1' });
		expect(issue(result, 'deprecated_key')).toMatchObject({
			severity: 'warning',
			field: 'genericSmsPostData'
		});
	});

	it('ignores genericSmsPostData when genericSmsSendPostData is set, and says so', () => {
		const result = build('sendMessage', {
			genericSmsSendUrl: 'https://p.example/s',
			genericSmsSendPostData: 'new=1',
			genericSmsPostData: 'old=1'
		});
		expect(result.requests[0].body).toBe('new=1');
		expect(issue(result, 'deprecated_key').message).toMatch(/ignored/);
	});

	it('reports unknown_setting for a key the service does not have', () => {
		const result = build('sendMessage', {
			genericSmsSendUrl: 'https://p.example/s',
			genericSmsTimeout: '10'
		});
		expect(issue(result, 'unknown_setting')).toMatchObject({
			severity: 'warning',
			field: 'genericSmsTimeout'
		});
	});

	it('sends a JSON body with the legacy genericSmsContentType when genericSmsSendContentType is empty, and says where it came from', () => {
		const result = build(
			'sendMessage',
			{
				genericSmsSendUrl: 'https://p.example/s',
				genericSmsPostData: '{"body":"%sms_body%"}',
				genericSmsContentType: JSON_TYPE
			},
			{ sms_body: 'a&b "c"' }
		);
		expect(brief(result)).toBe(`POST {"body":"a&b \\"c\\""} ${JSON_TYPE}`);
		expect(codes(result)).not.toContain('unknown_setting');
		expect(issue(result, 'content_type_from_deprecated_key')).toMatchObject({
			severity: 'info',
			field: 'genericSmsContentType',
			message: expect.stringContaining(`Content-Type: ${JSON_TYPE}`)
		});
		const deprecated = result.issues.filter((i) => i.code === 'deprecated_key');
		expect(deprecated.map((i) => i.field)).toEqual(['genericSmsPostData', 'genericSmsContentType']);
		expect(deprecated[1].message).toMatch(/Move its value to genericSmsSendContentType/);
	});

	it('ignores genericSmsContentType when genericSmsSendContentType is set, and says so', () => {
		const result = build('sendMessage', {
			genericSmsSendUrl: 'https://p.example/s',
			genericSmsSendPostData: 'a=1',
			genericSmsSendContentType: FORM,
			genericSmsContentType: JSON_TYPE
		});
		expect(brief(result)).toBe(`POST a=1 ${FORM}`);
		expect(issue(result, 'deprecated_key')).toMatchObject({
			field: 'genericSmsContentType',
			message: expect.stringMatching(/ignored because genericSmsSendContentType is set/)
		});
		expect(codes(result)).not.toContain('content_type_from_deprecated_key');
	});

	it('reports unknown_service for the push gateway and for an unknown id', () => {
		expect(codes(build('pushSend', {}))).toEqual(['unknown_service']);
		expect(codes(build('nope', {}))).toEqual(['unknown_service']);
	});
});

describe('buildRequests: custom headers', () => {
	const url = 'https://p.example/m';

	it('sends each custom header line with its value expanded raw', () => {
		const result = build(
			'mediaRefSend',
			{
				genericMediaRefSendUrl: url,
				genericMediaRefSendCustomHeaders: 'X-Token: abc\r\n\nX-Desc:%description%  \nX-Empty:'
			},
			{ description: 'a & b "c"' }
		);
		expect(result.requests[0].headers).toEqual([
			{ name: 'X-Token', value: 'abc' },
			{ name: 'X-Desc', value: 'a & b "c"' },
			{ name: 'X-Empty', value: '' }
		]);
	});

	it.each(['no colon here', 'Bad Name: x', ': empty'])('reports invalid_header for %j', (line) => {
		const headers = `X-Ok: 1\n${line}`;
		const result = build('mediaRefSend', {
			genericMediaRefSendUrl: url,
			genericMediaRefSendCustomHeaders: headers
		});
		const found = issue(result, 'invalid_header');
		expect(found.severity).toBe('error');
		expect(headers.slice(found.from, found.to)).toBe(line);
		expect(result.requests[0].headers).toEqual([{ name: 'X-Ok', value: '1' }]);
	});

	it.each(['Host: evil.test', 'content-length: 5', 'Transfer-Encoding: chunked'])(
		'reports header_not_allowed for %j and does not send it',
		(line) => {
			const result = build('mediaRefSend', {
				genericMediaRefSendUrl: url,
				genericMediaRefSendCustomHeaders: line
			});
			expect(issue(result, 'header_not_allowed').severity).toBe('warning');
			expect(result.requests[0].headers).toEqual([]);
		}
	);

	it.each(['a\r\nX-Evil: 1', 'a\nb', 'a\rb', 'a\0b'])(
		'reports header_crlf when a value expands to %j, and does not send the header',
		(description) => {
			const headers = 'X-Ok: 1\nX-Desc: %description%';
			const result = build(
				'mediaRefSend',
				{ genericMediaRefSendUrl: url, genericMediaRefSendCustomHeaders: headers },
				{ description }
			);
			const found = issue(result, 'header_crlf');
			expect(found.severity).toBe('error');
			expect(headers.slice(found.from, found.to)).toBe('X-Desc: %description%');
			expect(result.requests[0].headers).toEqual([{ name: 'X-Ok', value: '1' }]);
		}
	);

	it('reports duplicate_content_type when a custom Content-Type is sent with a body', () => {
		const result = build('mediaRefSend', {
			genericMediaRefSendUrl: url,
			genericMediaRefSendPostData: 'a=1',
			genericMediaRefSendCustomHeaders: 'content-type: text/plain'
		});
		expect(issue(result, 'duplicate_content_type').severity).toBe('warning');
	});

	it('does not report duplicate_content_type without a body', () => {
		const result = build('mediaRefSend', {
			genericMediaRefSendUrl: url,
			genericMediaRefSendCustomHeaders: 'Content-Type: text/plain'
		});
		expect(codes(result)).not.toContain('duplicate_content_type');
	});

	it('places a placeholder issue of a header at its offset in the setting', () => {
		const headers = 'X-A: 1\nX-B: %nosuch%';
		const result = build('mediaRefSend', {
			genericMediaRefSendUrl: url,
			genericMediaRefSendCustomHeaders: headers
		});
		const found = issue(result, 'unknown_variable');
		expect(headers.slice(found.from, found.to)).toBe('%nosuch%');
	});
});

describe('buildRequests: external provisioning on SSO', () => {
	const urls = {
		extSSOProvUrl: 'https://p.example/ext',
		reprovisioningUrl: 'https://p.example/re',
		initialProvisioningUrl: 'https://p.example/init'
	};

	it('calls extSSOProvUrl first', () => {
		const result = build('extSSOProv', urls);
		expect(result.requests.map((r) => r.url)).toEqual(['https://p.example/ext']);
		expect(codes(result)).not.toContain('url_fallback');
	});

	it('falls back to the reprovisioning URL, with url_fallback', () => {
		const result = build('extSSOProv', { ...urls, extSSOProvUrl: '' });
		expect(result.requests.map((r) => r.url)).toEqual(['https://p.example/re']);
		expect(issue(result, 'url_fallback')).toMatchObject({
			severity: 'info',
			field: 'reprovisioningUrl'
		});
	});

	it('falls back to the initial provisioning URL last', () => {
		const result = build('extSSOProv', { initialProvisioningUrl: urls.initialProvisioningUrl });
		expect(result.requests.map((r) => r.url)).toEqual(['https://p.example/init']);
		expect(issue(result, 'url_fallback').field).toBe('initialProvisioningUrl');
	});

	it('reports https_required on the fallback URL that is called', () => {
		const result = build('extSSOProv', { reprovisioningUrl: 'http://p.example/re' });
		expect(issue(result, 'https_required').field).toBe('reprovisioningUrl');
	});

	it('sends nothing when externalProvisioningOnSSODisabled is 1, with call_skipped', () => {
		const result = build('extSSOProv', { ...urls, externalProvisioningOnSSODisabled: '1' });
		expect(result.requests).toEqual([]);
		expect(issue(result, 'call_skipped')).toMatchObject({
			severity: 'info',
			field: 'externalProvisioningOnSSODisabled'
		});
	});

	it('calls the service when externalProvisioningOnSSODisabled is 0', () => {
		const result = build('extSSOProv', { ...urls, externalProvisioningOnSSODisabled: '0' });
		expect(result.requests).toHaveLength(1);
	});
});

describe('buildRequests: substitution spans', () => {
	const values = {
		sms_to: '+1 415/555',
		sms_body: 'Tom said "meet at 7 & bring snacks" \u{1F389}\nOK? <b>',
		'account[username]': 'al ice'
	};
	const cases = [
		{ type: JSON_TYPE, body: '{"to":"%sms_to%","text":"%sms_body%","u":"%account[username]%"}' },
		{ type: XML_TYPE, body: '<m><to>%sms_to%</to><t>%sms_body%</t></m>' },
		{ type: FORM, body: 'to=%sms_to%&text=%sms_body%&u=%account[username]%' },
		{ type: 'text/plain', body: '%sms_body%|%sms_to%' }
	];

	it.each(cases)(
		'slicing URL and $type body at each substitution gives the encoded value',
		({ type, body }) => {
			const result = build(
				'sendMessage',
				{
					genericSmsSendUrl: 'https://p.example/%sms_to%?u=%account[username]%&b=%sms_body%',
					genericSmsSendPostData: body,
					genericSmsSendContentType: type
				},
				values
			);
			const request = result.requests[0];
			const text = request.body ?? '';
			expect(request.substitutions.body.length).toBeGreaterThan(0);
			for (const sub of request.substitutions.url) {
				const value = values[sub.key as keyof typeof values];
				expect(request.url.slice(sub.from, sub.to)).toBe(encodeValue(value, 'url'));
			}
			for (const sub of request.substitutions.body) {
				const value = values[sub.key as keyof typeof values];
				expect(text.slice(sub.from, sub.to)).toBe(encodeValue(value, sub.encoding));
				expect(body.slice(sub.sourceFrom, sub.sourceTo)).toBe(`%${sub.key}%`);
			}
		}
	);

	it("slicing each header's value at its substitutions gives the value", () => {
		const result = build(
			'mediaRefSend',
			{
				genericMediaRefSendUrl: 'https://p.example/m',
				genericMediaRefSendPostData: 'a=1',
				genericMediaRefSendCustomHeaders: 'X-A: [%description%]\nX-B: %media_url%!'
			},
			{ description: 'd & e', media_url: 'https://m.example/x?a=b' }
		);
		const request = result.requests[0];
		expect(request.substitutions.headers).toHaveLength(request.headers.length);
		const seen: string[] = [];
		request.headers.forEach((header, i) => {
			for (const sub of request.substitutions.headers[i]) {
				seen.push(`${header.name}=${header.value.slice(sub.from, sub.to)}`);
			}
		});
		expect(seen).toEqual(['X-A=d & e', 'X-B=https://m.example/x?a=b']);
	});
});

/** Strings that stress the encoders: quotes, markup, %, separators, controls, astral and lone surrogates. */
const nasty = fc.oneof(
	fc.string({ unit: 'binary' }),
	fc.string({
		unit: fc.constantFrom(
			'"',
			"'",
			'\\',
			'<',
			'>',
			'&',
			'%',
			'\n',
			'\r',
			'\0',
			'/',
			'@',
			'#',
			'?',
			'=',
			'+',
			' ',
			'\u{1F389}',
			'\uD800',
			'\uDC00',
			']]>',
			'a',
			'%sms_to%'
		)
	}),
	fc.string()
);

describe('buildRequests: properties', () => {
	const templateServices = SERVICES.filter((s) => s.kind === 'template');

	it('never throws for arbitrary strings as settings values and values', () => {
		const arbitrary = fc.record({
			service: fc.constantFrom(...templateServices),
			settings: fc.array(fc.tuple(fc.nat(), nasty), { maxLength: 8 }),
			values: fc.array(fc.tuple(fc.nat(), fc.oneof(nasty, fc.array(nasty, { maxLength: 3 }))), {
				maxLength: 8
			}),
			raw: fc.boolean()
		});
		fc.assert(
			fc.property(arbitrary, ({ service, settings, values, raw }) => {
				const keys = [...service.keys.map((k) => k.key), 'genericSmsPostData', 'other'];
				const names = [...vocabularyOf(service).entries.map((e) => e.key), 'other'];
				const input: BuildInput = {
					service,
					settings: Object.fromEntries(settings.map(([i, v]) => [keys[i % keys.length], v])),
					values: Object.fromEntries(values.map(([i, v]) => [names[i % names.length], v])),
					rawSubstitution: raw
				};
				const result = buildRequests(input);
				expect(Array.isArray(result.requests)).toBe(true);
			}),
			{ numRuns: 400 }
		);
	});

	it('a JSON body of Send Message is valid JSON whose fields equal the values, for any values', () => {
		fc.assert(
			fc.property(nasty, nasty, nasty, (to, text, user) => {
				const result = build(
					'sendMessage',
					{
						genericSmsSendUrl: 'https://p.example/s',
						genericSmsSendPostData:
							'{"to":"%sms_to%","text":"%sms_body%","user":"%account[username]%","n":1}',
						genericSmsSendContentType: JSON_TYPE
					},
					{ sms_to: to, sms_body: text, 'account[username]': user }
				);
				expect(codes(result)).not.toContain('body_invalid_json');
				expect(JSON.parse(result.requests[0].body ?? '')).toEqual({ to, text, user, n: 1 });
			}),
			{ numRuns: 300 }
		);
	});

	it('an XML body is well-formed for any values and reads back as the values', () => {
		// XML 1.0 cannot carry these at all; the encoder sends U+FFFD instead.
		// eslint-disable-next-line no-control-regex
		const notXmlChar = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
		const sent = (value: string) => value.toWellFormed().replace(notXmlChar, '\uFFFD');
		fc.assert(
			fc.property(nasty, nasty, (to, text) => {
				const result = build(
					'sendMessage',
					{
						genericSmsSendUrl: 'https://p.example/s',
						genericSmsSendPostData: '<m a="%sms_to%"><to>%sms_to%</to><text>%sms_body%</text></m>',
						genericSmsSendContentType: XML_TYPE
					},
					{ sms_to: to, sms_body: text }
				);
				const body = result.requests[0].body ?? '';
				expect(codes(result)).not.toContain('body_invalid_xml');
				expect(XMLValidator.validate(body)).toBe(true);
				expect(body.toWellFormed()).toBe(body);
				expect(notXmlChar.test(body)).toBe(false);
				const read = parseXml(body);
				expect(read.ok).toBe(true);
				if (!read.ok) return;
				expect(read.root.attributes.a).toBe(sent(to));
				expect(read.root.children.map((c) => c.text)).toEqual([sent(to), sent(text)]);
			}),
			{ numRuns: 300 }
		);
	});
});
