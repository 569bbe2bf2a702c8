import { describe, expect, it } from 'vitest';
import type { Issue } from '../issues';
import { interpretResponse } from './interpret';
import { E164, readPhoneNumbers, type PhoneNumbers } from './phone-numbers';

const CONTEXT = { username: 'alice', cloudId: 'AcmeCloud' };
const JSON_TYPE = 'application/json';

function read(body: string, contentType: string | null = null) {
	const issues: Issue[] = [];
	const result = readPhoneNumbers(body, contentType, CONTEXT, issues);
	return { result, codes: issues.map((i) => i.code) };
}

/** The fields the SSO server keeps, in one line. */
function brief(p: PhoneNumbers | null): string {
	if (p === null) return 'ignored';
	const uri = `${p.uri}${p.uriDefaulted ? ' (default)' : ''}`;
	const networkId = `${p.networkId}${p.networkIdDefaulted ? ' (default)' : ''}`;
	return `[${p.numbers.join(',')}] uri=${uri} networkId=${networkId}`;
}

const XML_FULL =
	'<response>\n  <phone-numbers>\n    <phone-number> +14155550123 </phone-number>\n    <phone-number>+447700900123</phone-number>\n  </phone-numbers>\n  <uri>sip:alice@sip.example.com</uri>\n  <networkId>acme-net</networkId>\n</response>';

describe('readPhoneNumbers', () => {
	const cases: { rule: string; body: string; type: string | null; expected: string }[] = [
		{
			rule: 'reads XML when there is no Content-Type (XML is the default)',
			body: XML_FULL,
			type: null,
			expected: '[+14155550123,+447700900123] uri=sip:alice@sip.example.com networkId=acme-net'
		},
		{
			rule: 'reads XML declared as application/xml',
			body: XML_FULL,
			type: 'application/xml; charset=utf-8',
			expected: '[+14155550123,+447700900123] uri=sip:alice@sip.example.com networkId=acme-net'
		},
		{
			rule: 'reads JSON declared as application/json',
			body: '{"phoneNumbers":["+14155550123"],"uri":"sip:a@b","networkId":"n"}',
			type: JSON_TYPE,
			expected: '[+14155550123] uri=sip:a@b networkId=n'
		},
		{
			rule: 'defaults uri to the username and networkId to the cloud id (XML)',
			body: '<response><phone-numbers><phone-number>+14155550123</phone-number></phone-numbers></response>',
			type: null,
			expected: '[+14155550123] uri=alice (default) networkId=AcmeCloud (default)'
		},
		{
			rule: 'defaults uri and networkId when they are empty (JSON)',
			body: '{"phoneNumbers":[],"uri":"","networkId":""}',
			type: JSON_TYPE,
			expected: '[] uri=alice (default) networkId=AcmeCloud (default)'
		},
		{
			rule: 'an empty body means no numbers',
			body: '',
			type: null,
			expected: '[] uri=alice (default) networkId=AcmeCloud (default)'
		},
		{
			rule: 'a blank JSON body means no numbers',
			body: '  \n',
			type: JSON_TYPE,
			expected: '[] uri=alice (default) networkId=AcmeCloud (default)'
		},
		{
			rule: 'an empty response element means no numbers',
			body: '<response/>',
			type: null,
			expected: '[] uri=alice (default) networkId=AcmeCloud (default)'
		},
		{
			rule: 'an empty response element with a declaration means no numbers',
			body: '<?xml version="1.0"?>\n<response></response>',
			type: 'text/xml',
			expected: '[] uri=alice (default) networkId=AcmeCloud (default)'
		},
		{
			rule: '{} means no numbers',
			body: '{}',
			type: JSON_TYPE,
			expected: '[] uri=alice (default) networkId=AcmeCloud (default)'
		}
	];

	it.each(cases)('$rule', ({ body, type, expected }) => {
		const { result, codes } = read(body, type);
		expect(brief(result)).toBe(expected);
		expect(codes).toEqual([]);
	});

	it.each([
		{
			rule: 'invalid XML',
			body: '<response><phone-numbers>',
			type: null,
			code: 'body_unparseable'
		},
		{
			rule: 'JSON sent without a Content-Type (read as XML)',
			body: '{"phoneNumbers":[]}',
			type: null,
			code: 'body_unparseable'
		},
		{ rule: 'invalid JSON', body: '{"phoneNumbers":', type: JSON_TYPE, code: 'body_unparseable' },
		{ rule: 'a JSON list', body: '["+14155550123"]', type: JSON_TYPE, code: 'body_unparseable' },
		{
			rule: 'an XML root other than response',
			body: '<numbers/>',
			type: null,
			code: 'xml_root_not_response'
		},
		{
			rule: 'a DOCTYPE',
			body: '<!DOCTYPE response><response/>',
			type: null,
			code: 'body_unparseable'
		}
	])('ignores $rule', ({ body, type, code }) => {
		const { result, codes } = read(body, type);
		expect(result).toBeNull();
		expect(codes).toEqual([code]);
	});

	it('reports numbers that are not E.164 with a leading + (phone_number_not_e164)', () => {
		const { result, codes } = read(
			'{"phoneNumbers":["+14155550123","14155550123","+1 415 555 0123","+0123456","+1234567890123456"]}',
			JSON_TYPE
		);
		expect(result?.invalid).toEqual([
			'14155550123',
			'+1 415 555 0123',
			'+0123456',
			'+1234567890123456'
		]);
		expect(codes).toEqual(Array(4).fill('phone_number_not_e164'));
	});

	it('leaves out values of phoneNumbers that are not strings, with a warning', () => {
		const { result, codes } = read('{"phoneNumbers":["+14155550123",14155550124,null]}', JSON_TYPE);
		expect(result?.numbers).toEqual(['+14155550123']);
		expect(codes).toEqual(['phone_number_not_string']);
	});

	it('leaves out a phoneNumbers that is not a list, with a warning', () => {
		const { result, codes } = read('{"phoneNumbers":"+14155550123"}', JSON_TYPE);
		expect(result?.numbers).toEqual([]);
		expect(codes).toEqual(['phone_numbers_not_list']);
	});

	it('reads only phone-number elements inside phone-numbers', () => {
		const { result } = read(
			'<response><phone-number>+10000000000</phone-number><phone-numbers><phone-number>+14155550123</phone-number><other>+19999999999</other></phone-numbers></response>'
		);
		expect(result?.numbers).toEqual(['+14155550123']);
	});

	it('says in its summary what the SSO server records', () => {
		const { result } = read(XML_FULL);
		expect(result?.summary).toContain('2 verified numbers (+14155550123, +447700900123)');
	});
});

describe('E164', () => {
	it.each([
		{ value: '+14155550123', ok: true },
		{ value: '+447700900123', ok: true },
		{ value: '+123456789012345', ok: true },
		{ value: '+1234567890123456', ok: false },
		{ value: '14155550123', ok: false },
		{ value: '+04155550123', ok: false },
		{ value: '+1 415 555 0123', ok: false },
		{ value: '+1-415-555-0123', ok: false },
		{ value: '+', ok: false }
	])('$value is E.164: $ok', ({ value, ok }) => {
		expect(E164.test(value)).toBe(ok);
	});
});

describe('interpretResponse: External Authentication', () => {
	it('reports the numbers with the defaults from the request', () => {
		const result = interpretResponse(
			'externalAuth',
			{
				status: 200,
				headers: {},
				body: '<response><phone-numbers><phone-number>+14155550123</phone-number></phone-numbers></response>'
			},
			CONTEXT
		);
		expect(result.success).toBe(true);
		expect(result.action.kind === 'phoneNumbers' && brief(result.action.result)).toBe(
			'[+14155550123] uri=alice (default) networkId=AcmeCloud (default)'
		);
		expect(result.shownToUser).toBeNull();
	});

	it('flags a number that is not E.164 but still succeeds', () => {
		const result = interpretResponse(
			'externalAuth',
			{
				status: 200,
				headers: { 'content-type': JSON_TYPE },
				body: '{"phoneNumbers":["4155550123"]}'
			},
			CONTEXT
		);
		expect(result.success).toBe(true);
		expect(result.issues.map((i) => i.code)).toEqual(['phone_number_not_e164']);
	});

	it.each([
		{ rule: 'an unparseable body', status: 200, body: '<response>' },
		{
			rule: 'a 401 with a message',
			status: 401,
			body: '<response><message>bad password</message></response>'
		},
		{ rule: 'a 500 with numbers', status: 500, body: XML_FULL }
	])('silently ignores $rule: nothing shown, no numbers', ({ status, body }) => {
		const result = interpretResponse('externalAuth', { status, headers: {}, body }, CONTEXT);
		expect(result.success).toBe(false);
		expect(result.action).toEqual({ kind: 'silentlyIgnore' });
		expect(result.shownToUser).toBeNull();
	});
});
