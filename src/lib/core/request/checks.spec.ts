import { describe, expect, it } from 'vitest';
import { getService } from '../catalogue/services';
import type { Encoding, Substitution } from '../template';
import { checkBody, checkUrl, literalOrigin, sourceSpan, strayPercents } from './checks';
import { readXmlBody } from './strict-build';

const sendMessage = getService('sendMessage');
const externalAuth = getService('externalAuth');

function sub(
	from: number,
	to: number,
	sourceFrom: number,
	sourceTo: number,
	key = 'x'
): Substitution {
	return { from, to, sourceFrom, sourceTo, key, encoding: 'raw', status: 'value' };
}

describe('sourceSpan', () => {
	// Template `ab%x%cd%y%e` (x at 2..5, y at 7..10) expanded to `abVALUEcdWe`.
	const subs = [sub(2, 7, 2, 5, 'x'), sub(9, 10, 7, 10, 'y')];

	it.each([
		{ rule: 'text before any value maps to itself', offset: 1, expected: { from: 1, to: 2 } },
		{
			rule: 'an offset inside a value maps to its placeholder',
			offset: 4,
			expected: { from: 2, to: 5, key: 'x' }
		},
		{
			rule: 'text between values is shifted by the first value',
			offset: 7,
			expected: { from: 5, to: 6 }
		},
		{
			rule: 'the second value maps to its placeholder',
			offset: 9,
			expected: { from: 7, to: 10, key: 'y' }
		},
		{ rule: 'text after all values is shifted by both', offset: 10, expected: { from: 10, to: 11 } }
	])('$rule', ({ offset, expected }) => {
		expect(sourceSpan(offset, subs)).toEqual(expected);
	});
});

/** The body check as every build but an editor page's makes it: with the one strict XML reader. */
function check(
	body: string,
	encoding: Encoding,
	contentType: string,
	substitutions: Substitution[],
	field: string
) {
	return checkBody(body, encoding, contentType, substitutions, field, readXmlBody);
}

describe('checkBody', () => {
	it('accepts valid JSON and XML and does not check other bodies', () => {
		expect(check('{"a":1}', 'json', 'application/json', [], 'f')).toEqual([]);
		expect(check('<a>1</a>', 'xml', 'application/xml', [], 'f')).toEqual([]);
		expect(check('{', 'form', 'application/x-www-form-urlencoded', [], 'f')).toEqual([]);
		expect(check('<', 'raw', 'text/plain', [], 'f')).toEqual([]);
	});

	it('checks a *+json body even in raw substitution mode', () => {
		const [issue] = check('{"a":}', 'raw', 'application/vnd.acro+json', [], 'f');
		expect(issue).toMatchObject({ code: 'body_invalid_json', severity: 'error', field: 'f' });
	});

	it('checks a text/xml body even in raw substitution mode', () => {
		const [issue] = check('<a><b></a>', 'raw', 'text/xml; charset=utf-8', [], 'f');
		expect(issue).toMatchObject({ code: 'body_invalid_xml', severity: 'error' });
		expect(issue.message).toMatch(/line 1/);
	});

	it('reads an XML body as the product reads XML: an undefined entity or a DOCTYPE breaks it', () => {
		// Template <a>%x%</a> with x = a&nbsp;b (raw substitution).
		const body = '<a>a&nbsp;b</a>';
		const [issue] = check(body, 'raw', 'application/xml', [sub(3, 11, 3, 6, 'x')], 'f');
		expect(issue).toMatchObject({ code: 'body_invalid_xml', from: 3, to: 6 });
		expect(issue.message).toContain('the entity &nbsp; is not defined in XML at line 1, column 5');
		expect(issue.message).toContain('%x%');
		const [doctype] = check('<!DOCTYPE a>\r\n<a/>', 'xml', 'application/xml', [], 'f');
		expect(doctype.message).toContain('DOCTYPE');
		expect(check('<a>\r\n<b x="1"/>\r\n</a>', 'xml', 'text/xml', [], 'f')).toEqual([]);
	});

	it('names the value that breaks a JSON body and points at its placeholder', () => {
		// Template {"t":"%x%"} with x = a"b.
		const body = '{"t":"a"b"}';
		const [issue] = check(body, 'raw', 'application/json', [sub(6, 9, 6, 9, 'x')], 'f');
		expect(issue).toMatchObject({ from: 6, to: 9 });
		expect(issue.message).toContain('%x%');
	});

	it('points at the end of a truncated JSON body', () => {
		const [issue] = check('{"a":', 'json', 'application/json', [], 'f');
		expect(issue).toMatchObject({ code: 'body_invalid_json', from: 5, to: 6 });
	});
});

describe('literalOrigin', () => {
	it.each([
		{
			rule: 'a literal URL',
			template: 'https://api.example.com/x?a=1',
			expected: 'https://api.example.com'
		},
		{
			rule: 'a value right after the host',
			template: 'https://api.example.com%sms_to%/x',
			expected: 'https://api.example.com'
		},
		{
			rule: 'values in the path',
			template: 'https://api.example.com:8443/%a%/%b%',
			expected: 'https://api.example.com:8443'
		},
		{
			rule: 'the default port is dropped',
			template: 'https://API.example.com:443/%a%',
			expected: 'https://api.example.com'
		},
		{
			rule: 'values in the user info before a literal host',
			template: 'https://%account[username]%:%account[password]%@api.example.com/x',
			expected: 'https://api.example.com'
		},
		{ rule: 'the host is a value', template: 'https://%host%/x', expected: null },
		{ rule: 'the host is a value after user info', template: 'https://u@%host%/x', expected: null },
		{
			rule: 'a value completes the host name',
			template: 'https://sms.%account[host]%/send',
			expected: null
		},
		{
			rule: 'a value completes a label',
			template: 'https://api-%env%.example.com/x',
			expected: null
		},
		{ rule: 'the whole URL is a value', template: '%url%', expected: null },
		{ rule: 'the scheme is a value', template: '%scheme%://api.example.com/', expected: null },
		{ rule: 'not a URL', template: 'api.example.com/%a%', expected: null }
	])('$rule: $template', ({ template, expected }) => {
		expect(literalOrigin(template)).toBe(expected);
	});
});

describe('checkUrl', () => {
	it('returns the parsed URL and no issue for https', () => {
		const { issues, parsed } = checkUrl(
			'https://a.example/x',
			'https://a.example/x',
			sendMessage,
			'u'
		);
		expect(issues).toEqual([]);
		expect(parsed?.host).toBe('a.example');
	});

	it('reports url_userinfo for credentials before the host', () => {
		const url = 'https://user:pass@a.example/x';
		const { issues } = checkUrl(url, url, sendMessage, 'u');
		expect(issues.map((i) => i.code)).toEqual(['url_userinfo']);
	});

	it('reports https_required with a fix only when the template itself starts with http:', () => {
		const literal = checkUrl('http://a.example/', 'http://a.example/', externalAuth, 'u');
		expect(literal.issues[0]).toMatchObject({ code: 'https_required', fix: { insert: 'https:' } });
		const fromValue = checkUrl('http://a.example/', '%url%', externalAuth, 'u');
		expect(fromValue.issues[0].code).toBe('https_required');
		expect(fromValue.issues[0].fix).toBeUndefined();
	});

	it('reports origin_changed when the expanded URL leaves the literal origin', () => {
		const { issues } = checkUrl(
			'https://api.example.com.evil.test/x',
			'https://api.example.com%sms_to%/x',
			sendMessage,
			'u'
		);
		expect(issues.map((i) => i.code)).toEqual(['origin_changed']);
	});
});

describe('sourceSpan of a value that ends in a quote', () => {
	it('blames the value when the parser stops right after it', () => {
		const body = '{"a":"x""}';
		const subs = [
			{
				from: 6,
				to: 8,
				sourceFrom: 6,
				sourceTo: 11,
				key: 'v',
				encoding: 'raw' as const,
				status: 'value' as const
			}
		];
		expect(sourceSpan(8, subs, body)).toEqual({ from: 6, to: 11, key: 'v' });
		expect(sourceSpan(8, subs, '{"a":"xy"}')).toEqual({ from: 11, to: 12 });
	});
});

describe('strayPercents', () => {
	it.each([
		['https://x.example/?u=johndoe%&p=1', [28]],
		['https://x.example/?q=100%', [24]],
		['https://x.example/?q=%20%C3%A9', []],
		['https://x.example/?to=%sms_to%', []],
		['https://x.example/?u=%username&p=1', []]
	])('flags the lone percent signs of %s', (template, offsets) => {
		const found = strayPercents(template, 'genericSmsSendUrl');
		expect(found.map((i) => i.from)).toEqual(offsets);
		for (const issue of found) expect(issue.fix?.insert).toBe('%25');
	});
});

describe('checkUrl: what an HTTP client rewrites', () => {
	const service = getService('pushTokenReporter');
	const rewritten = (url: string) =>
		checkUrl(url, url, service, 'pushTokenReporterUrl').issues.find(
			(i) => i.code === 'url_rewritten'
		);

	it.each([
		['https://h.test/a b/{x}?r=<x>', '/a%20b/%7Bx%7D?r=%3Cx%3E'],
		['https://h.test/a/../b/./c', '/b/c'],
		['https://h.test/p?q=1#part', '/p?q=1'],
		["https://h.test/p?name=O'Neil", '/p?name=O%27Neil']
	])('warns that %s is sent as %s', (url, sent) => {
		expect(rewritten(url)?.message).toContain(`sends this path and query as ${sent},`);
	});

	it.each(['https://h.test', 'https://h.test?x=1', 'https://h.test/send?to=%2B1&b=a%20b'])(
		'says nothing when %s is sent as written',
		(url) => {
			expect(rewritten(url)).toBeUndefined();
		}
	);
});
