import { describe, expect, it } from 'vitest';
import { interpretResponse, type Interpretation, type ResponseInput } from './interpret';

const JSON_H = { 'Content-Type': 'application/json' };
const XML_H = { 'Content-Type': 'application/xml' };

function respond(status: number, body = '', headers: ResponseInput['headers'] = {}): ResponseInput {
	return { status, headers, body };
}

/** An interpretation in one line: outcome, action kind, what the user is shown. */
function brief(i: Interpretation): string {
	const shown = i.shownToUser === null ? '-' : JSON.stringify(i.shownToUser);
	return `${i.success ? 'success' : 'failure'} ${i.action.kind} ${shown}`;
}

function codes(i: Interpretation): string[] {
	return i.issues.map((issue) => issue.code);
}

const LONG = 'Internal error: '.padEnd(150, 'x');

describe('interpretResponse: the contract Errors table (provider web services)', () => {
	const cases: { row: string; service: string; response: ResponseInput; expected: string }[] = [
		// Send Message | 2xx | non-2xx: message, else the first 100 characters of the raw body.
		{
			row: 'Send Message: 200 is success',
			service: 'sendMessage',
			response: respond(200),
			expected: 'success success -'
		},
		{
			row: 'Send Message: 202 is success',
			service: 'sendMessage',
			response: respond(202, 'queued'),
			expected: 'success success -'
		},
		{
			row: 'Send Message: 402 with message (not enough credit) shows the message',
			service: 'sendMessage',
			response: respond(402, '{"message":"Not enough credit"}', JSON_H),
			expected: 'failure showUser "Not enough credit"'
		},
		{
			row: 'Send Message: 406 with message (invalid recipient) in XML shows the message',
			service: 'sendMessage',
			response: respond(406, '<error><message>Invalid recipient</message></error>', XML_H),
			expected: 'failure showUser "Invalid recipient"'
		},
		{
			row: 'Send Message: non-2xx without message shows the first 100 characters of the body',
			service: 'sendMessage',
			response: respond(500, LONG, { 'Content-Type': 'text/plain' }),
			expected: `failure showUser ${JSON.stringify(LONG.slice(0, 100))}`
		},
		{
			row: 'Send Message: a 3xx is not success',
			service: 'sendMessage',
			response: respond(302, 'moved'),
			expected: 'failure showUser "moved"'
		},
		// Media Reference Send | 2xx | non-2xx: message, else a generic error message.
		{
			row: 'Media Reference Send: 2xx is success',
			service: 'mediaRefSend',
			response: respond(201),
			expected: 'success success -'
		},
		{
			row: 'Media Reference Send: non-2xx with message shows it',
			service: 'mediaRefSend',
			response: respond(413, '{"message":"Too large"}', JSON_H),
			expected: 'failure showUser "Too large"'
		},
		{
			row: 'Media Reference Send: non-2xx without message shows the generic error',
			service: 'mediaRefSend',
			response: respond(500, LONG),
			expected: 'failure showGenericError "(the app’s generic error message)"'
		},
		// External Authentication | 2xx | other statuses and unparseable bodies silently ignored.
		{
			row: 'External Authentication: 2xx is success',
			service: 'externalAuth',
			response: respond(200, '<response/>'),
			expected: 'success phoneNumbers -'
		},
		{
			row: 'External Authentication: 400 with message is silently ignored',
			service: 'externalAuth',
			response: respond(400, '{"message":"Invalid credentials"}', JSON_H),
			expected: 'failure silentlyIgnore -'
		},
		{
			row: 'External Authentication: an unparseable 2xx body is silently ignored',
			service: 'externalAuth',
			response: respond(200, '<response>', XML_H),
			expected: 'failure silentlyIgnore -'
		},
		// Phone Number Verifier | 2xx with valid or absent body | message box: message, else 100 characters.
		{
			row: 'Phone Number Verifier: 2xx with absent body moves to page 2',
			service: 'phoneNumberVerifier',
			response: respond(200),
			expected: 'success wizardNext -'
		},
		{
			row: 'Phone Number Verifier: 2xx with a valid body moves to page 2',
			service: 'phoneNumberVerifier',
			response: respond(200, '{"token":"t1"}', JSON_H),
			expected: 'success wizardNext -'
		},
		{
			row: 'Phone Number Verifier: 2xx with an invalid body keeps page 1',
			service: 'phoneNumberVerifier',
			response: respond(200, '{"token":', JSON_H),
			expected: 'failure wizardStays -'
		},
		{
			row: 'Phone Number Verifier: non-2xx shows the message in a message box',
			service: 'phoneNumberVerifier',
			response: respond(400, '{"message":"Unsupported country"}', JSON_H),
			expected: 'failure wizardMessageBox "Unsupported country"'
		},
		{
			row: 'Phone Number Verifier: non-2xx without message shows the first 100 characters',
			service: 'phoneNumberVerifier',
			response: respond(503, LONG),
			expected: `failure wizardMessageBox ${JSON.stringify(LONG.slice(0, 100))}`
		},
		// Invitation Accepted | 204 | any other status silently ignored.
		{
			row: 'Invitation Accepted: 204 is success',
			service: 'invitationAccepted',
			response: respond(204),
			expected: 'success success -'
		},
		{
			row: 'Invitation Accepted: 200 is silently ignored',
			service: 'invitationAccepted',
			response: respond(200, '{"message":"ok"}', JSON_H),
			expected: 'failure silentlyIgnore -'
		},
		{
			row: 'Invitation Accepted: 500 is silently ignored',
			service: 'invitationAccepted',
			response: respond(500, LONG),
			expected: 'failure silentlyIgnore -'
		},
		// New Smart Contact Notification | 204 | any other status silently ignored.
		{
			row: 'New Smart Contact Notification: 204 is success',
			service: 'smartContactNotification',
			response: respond(204),
			expected: 'success success -'
		},
		{
			row: 'New Smart Contact Notification: 201 is silently ignored',
			service: 'smartContactNotification',
			response: respond(201),
			expected: 'failure silentlyIgnore -'
		},
		{
			row: 'New Smart Contact Notification: 404 is silently ignored',
			service: 'smartContactNotification',
			response: respond(404, 'not found'),
			expected: 'failure silentlyIgnore -'
		},
		// Push Token Reporter | 2xx | other statuses ignored, counted as failed and retried later.
		{
			row: 'Push Token Reporter: 2xx is success',
			service: 'pushTokenReporter',
			response: respond(200),
			expected: 'success success -'
		},
		{
			row: 'Push Token Reporter: non-2xx is retried later, nothing shown',
			service: 'pushTokenReporter',
			response: respond(500, '{"message":"down"}', JSON_H),
			expected: 'failure retryLater -'
		}
	];

	it.each(cases)('$row', ({ service, response, expected }) => {
		expect(
			brief(interpretResponse(service, response, { username: 'alice', cloudId: 'Acme' }))
		).toBe(expected);
	});

	it('keeps the debugging message of a failed External Authentication out of what is shown', () => {
		const result = interpretResponse(
			'externalAuth',
			respond(400, '{"message":"Invalid credentials"}', JSON_H)
		);
		expect(result.shownToUser).toBeNull();
		expect(result.summary).toContain('Invalid credentials');
		expect(result.summary).toMatch(/debugging only/);
	});

	it('throws for a service that is not in the catalogue (a programmer bug)', () => {
		expect(() => interpretResponse('nope', respond(200))).toThrow(/nope/);
	});
});

describe('interpretResponse: Send Message sms_id', () => {
	it.each([
		{ rule: 'from JSON', response: respond(200, '{"sms_id":"m-1"}', JSON_H), smsId: 'm-1' },
		{
			rule: 'a number from JSON, as a string',
			response: respond(200, '{"sms_id":12345}', JSON_H),
			smsId: '12345'
		},
		{
			rule: 'from an XML child element',
			response: respond(200, '<response><sms_id> 007 </sms_id></response>', XML_H),
			smsId: '007'
		},
		{
			rule: 'from an XML root element',
			response: respond(200, '<sms_id>m-2</sms_id>', XML_H),
			smsId: 'm-2'
		},
		{
			rule: 'from text/xml with a charset',
			response: respond(200, '<r><sms_id>m-3</sms_id></r>', {
				'content-type': 'text/xml; charset=utf-8'
			}),
			smsId: 'm-3'
		},
		{
			rule: 'from a JSON body sent without a Content-Type',
			response: respond(200, ' {"sms_id":"m-4"}'),
			smsId: 'm-4'
		}
	])('stores sms_id $rule', ({ response, smsId }) => {
		const result = interpretResponse('sendMessage', response);
		expect(result.action).toEqual({ kind: 'storeSmsId', smsId });
		expect(result.success).toBe(true);
	});

	it.each([
		{ rule: 'an empty body', response: respond(200) },
		{ rule: 'a JSON body without sms_id', response: respond(200, '{"id":"x"}', JSON_H) },
		{ rule: 'an unparseable body', response: respond(200, '{"sms_id":', JSON_H) },
		{ rule: 'an empty sms_id', response: respond(200, '{"sms_id":""}', JSON_H) },
		{ rule: 'an sms_id that is an object', response: respond(200, '{"sms_id":{"a":1}}', JSON_H) }
	])('counts $rule as sent, with no sms_id to store', ({ response }) => {
		const result = interpretResponse('sendMessage', response);
		expect(brief(result)).toBe('success success -');
		expect(codes(result)).toEqual(['no_sms_id']);
	});
});

describe('interpretResponse: text shown on failure', () => {
	const emojiAt100 = 'a'.repeat(99) + '\u{1F389}' + 'tail';

	it.each(['sendMessage', 'phoneNumberVerifier'])(
		'%s shows the first 100 characters counted as code points, so an emoji is not cut',
		(service) => {
			const result = interpretResponse(service, respond(500, emojiAt100));
			expect(result.shownToUser).toBe('a'.repeat(99) + '\u{1F389}');
			expect([...(result.shownToUser ?? '')]).toHaveLength(100);
		}
	);

	it('shows a body of 100 characters or fewer whole', () => {
		const result = interpretResponse('sendMessage', respond(500, 'Server says no'));
		expect(result.action).toEqual({
			kind: 'showUser',
			text: 'Server says no',
			source: 'bodyPrefix'
		});
	});

	it('reads message from a form-encoded body', () => {
		const result = interpretResponse(
			'sendMessage',
			respond(402, 'code=7&message=No+credit+left', {
				'Content-Type': 'application/x-www-form-urlencoded'
			})
		);
		expect(result.action).toEqual({ kind: 'showUser', text: 'No credit left', source: 'message' });
	});

	it('falls back to the body prefix when message is not text', () => {
		const body = '{"message":{"text":"nested"}}';
		const result = interpretResponse('sendMessage', respond(400, body, JSON_H));
		expect(result.action).toEqual({ kind: 'showUser', text: body, source: 'bodyPrefix' });
	});

	it('shows the raw body of an HTML error page as text', () => {
		const body = '<html><body><h1>502 Bad Gateway</h1></body></html>';
		const result = interpretResponse(
			'sendMessage',
			respond(502, body, { 'Content-Type': 'text/html' })
		);
		expect(result.shownToUser).toBe(body.slice(0, 100));
	});

	it('shows the verifier message box text from an XML message', () => {
		const result = interpretResponse(
			'phoneNumberVerifier',
			respond(429, '<response><message>Too many attempts</message></response>', XML_H)
		);
		expect(result.action).toEqual({
			kind: 'wizardMessageBox',
			text: 'Too many attempts',
			source: 'message'
		});
	});
});

describe('interpretResponse: Phone Number Verifier placeholders', () => {
	it.each([
		{
			format: 'JSON',
			response: respond(200, '{"token":"abc123","session":"s-1"}', JSON_H)
		},
		{
			format: 'XML',
			response: respond(
				200,
				'<response><token>abc123</token><session>s-1</session></response>',
				XML_H
			)
		},
		{
			format: 'form',
			response: respond(200, 'token=abc123&session=s-1', {
				'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8'
			})
		}
	])('turns a $format key/value body into %key% placeholders for page 2', ({ response }) => {
		const result = interpretResponse('phoneNumberVerifier', response);
		expect(result.action).toEqual({
			kind: 'wizardNext',
			placeholders: { token: 'abc123', session: 's-1' }
		});
		expect(result.summary).toContain('%token%, %session%');
	});

	it.each([
		{ rule: 'invalid JSON', response: respond(200, '{"token"', JSON_H) },
		{ rule: 'a JSON list', response: respond(200, '["abc"]', JSON_H) },
		{ rule: 'a JSON value that is not a string', response: respond(200, '{"pin":1234}', JSON_H) },
		{ rule: 'invalid XML', response: respond(200, '<response><token>', XML_H) },
		{
			rule: 'a body with a Content-Type that is not a map',
			response: respond(200, 'OK', { 'Content-Type': 'text/plain' })
		}
	])('keeps the wizard on page 1 for $rule', ({ response }) => {
		const result = interpretResponse('phoneNumberVerifier', response);
		expect(brief(result)).toBe('failure wizardStays -');
		expect(codes(result)).toEqual(['verifier_body_invalid']);
	});

	it('warns about keys that cannot be written as a placeholder', () => {
		const result = interpretResponse(
			'phoneNumberVerifier',
			respond(200, '{"auth-token":"x","ok":"y"}', JSON_H)
		);
		expect(result.success).toBe(true);
		expect(codes(result)).toEqual(['verifier_key_unusable']);
		expect(result.issues[0].message).toContain('auth-token');
	});

	it('keeps a __proto__ key as data, never as a prototype', () => {
		const result = interpretResponse(
			'phoneNumberVerifier',
			respond(200, '{"__proto__":"x","polluted":"1"}', JSON_H)
		);
		expect(result.action.kind).toBe('wizardNext');
		if (result.action.kind !== 'wizardNext') return;
		const { placeholders } = result.action;
		expect(Object.getOwnPropertyDescriptor(placeholders, '__proto__')?.value).toBe('x');
		expect(Object.getPrototypeOf(placeholders)).toBe(Object.prototype);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});
});

describe('interpretResponse: status rules', () => {
	it.each([200, 201, 202, 299])(
		'a 204-only service answered %i is ignored, with status_not_exact',
		(status) => {
			for (const service of ['invitationAccepted', 'smartContactNotification']) {
				const result = interpretResponse(service, respond(status));
				expect(brief(result)).toBe('failure silentlyIgnore -');
				expect(codes(result)).toEqual(['status_not_exact']);
			}
		}
	);

	it('a 204-only service answered 500 is ignored without status_not_exact', () => {
		expect(codes(interpretResponse('invitationAccepted', respond(500)))).toEqual([]);
	});
});

describe('interpretResponse: Push Token Reporter body rule', () => {
	it.each([
		{ rule: '200 with no content type and no body', response: respond(200), ok: true },
		{ rule: 'JSON with {}', response: respond(200, '{}', JSON_H), ok: true },
		{
			rule: 'JSON with a charset and an object',
			response: respond(200, '{"ok":true}', { 'Content-Type': 'application/json; charset=utf-8' }),
			ok: true
		},
		{ rule: 'XML with a root element', response: respond(200, '<ok/>', XML_H), ok: true },
		{
			rule: 'text with any body',
			response: respond(200, 'OK', { 'Content-Type': 'text/plain' }),
			ok: true
		},
		{ rule: 'JSON with an empty body', response: respond(200, '', JSON_H), ok: false },
		{ rule: 'JSON with a body that is not JSON', response: respond(200, 'OK', JSON_H), ok: false },
		{ rule: 'XML with an empty body', response: respond(204, '  ', XML_H), ok: false },
		{ rule: 'XML with a body that is not XML', response: respond(200, 'OK', XML_H), ok: false }
	])('$rule: ok=$ok', ({ response, ok }) => {
		const result = interpretResponse('pushTokenReporter', response);
		expect(brief(result)).toBe(ok ? 'success success -' : 'failure retryLater -');
		expect(codes(result)).toEqual(ok ? [] : ['body_type_mismatch']);
	});
});

describe('interpretResponse: headers', () => {
	it.each<{ shape: string; headers: ResponseInput['headers'] }>([
		{ shape: 'an object with upper-case names', headers: { 'CONTENT-TYPE': 'application/json' } },
		{ shape: 'an object with lower-case names', headers: { 'content-type': 'application/json' } },
		{
			shape: 'a list of name/value pairs',
			headers: [{ name: 'Content-type', value: 'application/json' }]
		}
	])('reads the Content-Type from $shape', ({ headers }) => {
		const result = interpretResponse('pushTokenReporter', respond(200, '', headers));
		expect(codes(result)).toEqual(['body_type_mismatch']);
	});
});
