import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import {
	encodeValue,
	encodingForContentType,
	hasXmlInvalidChars,
	mediaTypeEssence,
	type Encoding
} from './encode';

/** The tricky values every table below answers for, by name. */
const VALUES = {
	quotes: `a"b'c`,
	backslash: 'a\\b',
	amp: 'x&y',
	hash: 'x#y',
	plus: '+14155550123',
	equals: 'a=b',
	slash: 'a/b',
	space: 'a b',
	newline: 'a\nb',
	cr: 'a\rb',
	tab: 'a\tb',
	emoji: '\u{1F600}',
	nul: 'a\u0000b',
	lineSeparator: 'a\u2028b',
	loneHigh: 'a\uD800b',
	loneLow: 'a\uDC00b',
	percent: '100%',
	angles: '<b>',
	marks: "!'()*~-_.",
	accent: 'é',
	nonCharacter: 'a\uFFFEb',
	verticalTab: 'a\u000Bb',
	placeholder: '%sms_to%'
} as const;

type Name = keyof typeof VALUES;

const EXPECTED: Record<Exclude<Encoding, 'raw'>, Record<Name, string>> = {
	url: {
		quotes: 'a%22b%27c',
		backslash: 'a%5Cb',
		amp: 'x%26y',
		hash: 'x%23y',
		plus: '%2B14155550123',
		equals: 'a%3Db',
		slash: 'a%2Fb',
		space: 'a%20b',
		newline: 'a%0Ab',
		cr: 'a%0Db',
		tab: 'a%09b',
		emoji: '%F0%9F%98%80',
		nul: 'a%00b',
		lineSeparator: 'a%E2%80%A8b',
		loneHigh: 'a%EF%BF%BDb',
		loneLow: 'a%EF%BF%BDb',
		percent: '100%25',
		angles: '%3Cb%3E',
		marks: '!%27()*~-_.',
		accent: '%C3%A9',
		nonCharacter: 'a%EF%BF%BEb',
		verticalTab: 'a%0Bb',
		placeholder: '%25sms_to%25'
	},
	form: {
		quotes: 'a%22b%27c',
		backslash: 'a%5Cb',
		amp: 'x%26y',
		hash: 'x%23y',
		plus: '%2B14155550123',
		equals: 'a%3Db',
		slash: 'a%2Fb',
		space: 'a+b',
		newline: 'a%0Ab',
		cr: 'a%0Db',
		tab: 'a%09b',
		emoji: '%F0%9F%98%80',
		nul: 'a%00b',
		lineSeparator: 'a%E2%80%A8b',
		loneHigh: 'a%EF%BF%BDb',
		loneLow: 'a%EF%BF%BDb',
		percent: '100%25',
		angles: '%3Cb%3E',
		marks: '%21%27%28%29*%7E-_.',
		accent: '%C3%A9',
		nonCharacter: 'a%EF%BF%BEb',
		verticalTab: 'a%0Bb',
		placeholder: '%25sms_to%25'
	},
	json: {
		quotes: `a\\"b'c`,
		backslash: 'a\\\\b',
		amp: 'x&y',
		hash: 'x#y',
		plus: '+14155550123',
		equals: 'a=b',
		slash: 'a/b',
		space: 'a b',
		newline: 'a\\nb',
		cr: 'a\\rb',
		tab: 'a\\tb',
		emoji: '\u{1F600}',
		nul: 'a\\u0000b',
		lineSeparator: 'a\u2028b',
		loneHigh: 'a\\ud800b',
		loneLow: 'a\\udc00b',
		percent: '100%',
		angles: '<b>',
		marks: "!'()*~-_.",
		accent: 'é',
		nonCharacter: 'a\uFFFEb',
		verticalTab: 'a\\u000bb',
		placeholder: '%sms_to%'
	},
	xml: {
		quotes: 'a&quot;b&apos;c',
		backslash: 'a\\b',
		amp: 'x&amp;y',
		hash: 'x#y',
		plus: '+14155550123',
		equals: 'a=b',
		slash: 'a/b',
		space: 'a b',
		newline: 'a&#10;b',
		cr: 'a&#13;b',
		tab: 'a&#9;b',
		emoji: '\u{1F600}',
		nul: 'a\uFFFDb',
		lineSeparator: 'a\u2028b',
		loneHigh: 'a\uFFFDb',
		loneLow: 'a\uFFFDb',
		percent: '100%',
		angles: '&lt;b&gt;',
		marks: '!&apos;()*~-_.',
		accent: 'é',
		nonCharacter: 'a\uFFFDb',
		verticalTab: 'a\uFFFDb',
		placeholder: '%sms_to%'
	}
};

const NAMES = Object.keys(VALUES) as Name[];

/** XML 1.0's Char production, code point by code point (a lone surrogate is not a Char). */
function isXmlText(value: string): boolean {
	for (const c of value) {
		const cp = c.codePointAt(0)!;
		const ok =
			cp === 0x9 ||
			cp === 0xa ||
			cp === 0xd ||
			(cp >= 0x20 && cp <= 0xd7ff) ||
			(cp >= 0xe000 && cp <= 0xfffd) ||
			cp >= 0x10000;
		if (!ok) return false;
	}
	return true;
}

const wellFormed = fc.string({ unit: 'grapheme' });
const anyString = fc.string({ unit: 'binary' });
const xmlSafe = fc
	.array(
		fc.oneof(
			fc.constantFrom('&', '&amp;', '<', '>', '"', "'", '\r', '\r\n', '\n', '\t', ' ', ']]>'),
			fc.string({ unit: 'grapheme', maxLength: 3 })
		)
	)
	.map((parts) => parts.join(''))
	.filter(isXmlText);

const xmlReader = new XMLParser({
	parseTagValue: false,
	trimValues: false,
	htmlEntities: true,
	processEntities: true
});

function readXmlElement(content: string): unknown {
	return (xmlReader.parse(`<a>${content}</a>`) as { a: unknown }).a;
}

describe('encodeValue', () => {
	for (const encoding of ['url', 'form', 'json', 'xml'] as const) {
		it.each(NAMES)(`writes the %s value for ${encoding} as the table says`, (name) => {
			expect(encodeValue(VALUES[name], encoding)).toBe(EXPECTED[encoding][name]);
		});
	}

	it.each(NAMES)('leaves the %s value untouched in raw mode', (name) => {
		expect(encodeValue(VALUES[name], 'raw')).toBe(VALUES[name]);
	});

	it('url-decodes back to any well-formed string', () => {
		fc.assert(
			fc.property(wellFormed, (value) => {
				expect(decodeURIComponent(encodeValue(value, 'url'))).toBe(value);
			})
		);
	});

	it('url-encodes any string to unreserved characters and %XX only', () => {
		fc.assert(
			fc.property(anyString, (value) => {
				expect(encodeValue(value, 'url')).toMatch(/^(?:[A-Za-z0-9\-_.!~*'()]|%[0-9A-F]{2})*$/);
			})
		);
	});

	it('form-encodes exactly as the WHATWG urlencoded serializer, for any string', () => {
		fc.assert(
			fc.property(anyString, (value) => {
				expect(`a=${encodeValue(value, 'form')}`).toBe(
					new URLSearchParams([['a', value]]).toString()
				);
			})
		);
	});

	it('form-decodes back to any well-formed string', () => {
		fc.assert(
			fc.property(wellFormed, (value) => {
				expect(new URLSearchParams('a=' + encodeValue(value, 'form')).get('a')).toBe(value);
			})
		);
	});

	it('JSON-decodes back to any string, lone surrogates included', () => {
		fc.assert(
			fc.property(anyString, (value) => {
				expect(JSON.parse(`"${encodeValue(value, 'json')}"`)).toBe(value);
			})
		);
	});

	it('reads back as XML element content for any XML-safe well-formed string', () => {
		fc.assert(
			fc.property(xmlSafe, (value) => {
				const encoded = encodeValue(value, 'xml');
				expect(XMLValidator.validate(`<a>${encoded}</a>`)).toBe(true);
				expect(readXmlElement(encoded)).toBe(value);
			})
		);
	});

	it('writes any string as XML that holds no character XML 1.0 cannot carry', () => {
		fc.assert(
			fc.property(anyString, (value) => {
				const encoded = encodeValue(value, 'xml');
				expect(isXmlText(encoded)).toBe(true);
				expect(encoded).not.toMatch(/[<>"'\r\n\t]|&(?!(?:amp|lt|gt|quot|apos|#13|#10|#9);)/);
			})
		);
	});
});

describe('hasXmlInvalidChars', () => {
	it.each([
		['plain', 'abc', false],
		['tab, LF and CR', '\t\n\r', false],
		['an emoji (a surrogate pair)', '\u{1F600}', false],
		['U+FFFD', '\uFFFD', false],
		['NUL', '\u0000', true],
		['U+001F', '\u001F', true],
		['vertical tab', '\u000B', true],
		['U+FFFE', '\uFFFE', true],
		['U+FFFF', '\uFFFF', true],
		['a lone high surrogate', 'a\uD83D', true],
		['a lone low surrogate', '\uDE00a', true],
		['two high surrogates before a low one', '\uD83D\uD83D\uDE00', true]
	])('says %s is %s', (_, value, expected) => {
		expect(hasXmlInvalidChars(value)).toBe(expected);
	});

	it('is true exactly when some code point is outside XML 1.0 Char', () => {
		fc.assert(
			fc.property(anyString, (value) => {
				expect(hasXmlInvalidChars(value)).toBe(!isXmlText(value));
			})
		);
	});
});

describe('encodingForContentType', () => {
	it.each([
		[null, 'raw'],
		[undefined, 'raw'],
		['', 'raw'],
		['application/x-www-form-urlencoded', 'form'],
		['application/x-www-form-urlencoded; charset=UTF-8', 'form'],
		['application/json', 'json'],
		['APPLICATION/JSON; charset=utf-8', 'json'],
		[' application/json ', 'json'],
		['application/vnd.api+json', 'json'],
		['application/x-acro-filetransfer+json', 'json'],
		['application/xml', 'xml'],
		['text/xml; charset=utf-8', 'xml'],
		['application/soap+xml', 'xml'],
		['text/plain', 'raw'],
		['multipart/form-data', 'raw'],
		['application/jsonp', 'raw'],
		['application/xml-dtd', 'raw']
	] as const)('gives %j the %s encoding', (contentType, encoding) => {
		expect(encodingForContentType(contentType)).toBe(encoding);
	});
});

describe('mediaTypeEssence', () => {
	it.each([
		[' Text/XML ; charset=x', 'text/xml'],
		['application/json', 'application/json'],
		[';charset=utf-8', null],
		['', null],
		[null, null]
	] as const)('reads %j as %j', (contentType, essence) => {
		expect(mediaTypeEssence(contentType)).toBe(essence);
	});
});
