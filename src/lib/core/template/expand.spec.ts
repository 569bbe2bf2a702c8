import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Party } from '../catalogue/schema';
import { encodeValue, type Encoding } from './encode';
import { expand, MASKED_PASSWORD, type ExpandOptions, type Expansion, type Value } from './expand';
import { sha1Hex } from './sha1';
import { tokenize } from './tokenize';

type Values = Record<string, Value>;

function resolver(values: Values): (key: string) => Value | undefined {
	return (key) => (Object.hasOwn(values, key) ? values[key] : undefined);
}

function run(
	template: string,
	values: Values,
	options: Omit<ExpandOptions, 'resolve'> = { context: 'raw' }
): Expansion {
	return expand(tokenize(template), { ...options, resolve: resolver(values) });
}

const PARTIES: Party[] = [
	{ username: 'alice', device: 'iPhone "work" & home' },
	{ username: 'bob', device: 'Pixel <8>' }
];

const ENCODINGS: Encoding[] = ['url', 'form', 'json', 'xml', 'raw'];

/** The text XML 1.0 can carry: lone surrogates and other non-Chars become U+FFFD. */
function xmlCarried(value: string): string {
	let out = '';
	for (const c of value) {
		const cp = c.codePointAt(0)!;
		const ok =
			cp === 0x9 ||
			cp === 0xa ||
			cp === 0xd ||
			(cp >= 0x20 && cp <= 0xd7ff) ||
			(cp >= 0xe000 && cp <= 0xfffd) ||
			cp >= 0x10000;
		out += ok ? c : '\uFFFD';
	}
	return out;
}

describe('expand', () => {
	const template = 'https://sms.example.com/send?to=%sms_to%&body=%sms_body%&p=%account[password]%';
	const values = { sms_to: '+1 415', sms_body: 'a&b=c/d #1', 'account[password]': 'p@ss word&1' };

	it('places each substitution at from/to in the output and sourceFrom/sourceTo in the source', () => {
		const out = run(template, values, { context: 'url' });
		expect(out.substitutions.map((s) => s.key)).toEqual([
			'sms_to',
			'sms_body',
			'account[password]'
		]);
		for (const s of out.substitutions) {
			expect(template.slice(s.sourceFrom, s.sourceTo)).toBe(`%${s.key}%`);
			expect(out.text.slice(s.from, s.to)).toBe(
				encodeValue(values[s.key as keyof typeof values], 'url')
			);
			expect(s).toMatchObject({ encoding: 'url', status: 'value' });
		}
		expect(out.text).toBe(
			'https://sms.example.com/send?to=%2B1%20415&body=a%26b%3Dc%2Fd%20%231&p=p%40ss%20word%261'
		);
	});

	it('sends %account[password]% as **** when masking, and marks it masked', () => {
		const out = run(template, values, { context: 'url', maskPassword: true });
		expect(out.text.endsWith(`&p=${MASKED_PASSWORD}`)).toBe(true);
		const masked = out.substitutions[2];
		expect(masked.status).toBe('masked');
		expect(out.text.slice(masked.from, masked.to)).toBe('****');
	});

	it('masks the password even when no value is given', () => {
		expect(run('%account[password]%', {}, { context: 'form', maskPassword: true }).text).toBe(
			'****'
		);
	});

	it('hashes the unmasked password inside %sha1(...)% even when masking', () => {
		const out = run('h=%sha1(%account[password]%)%', values, {
			context: 'url',
			maskPassword: true
		});
		expect(out.text).toBe(`h=${sha1Hex('p@ss word&1')}`);
		expect(out.substitutions[0]).toMatchObject({
			key: 'sha1(%account[password]%)',
			status: 'value'
		});
	});

	it.each(ENCODINGS)('hashes the raw value, not its %s encoding', (context) => {
		const out = run('%sha1(%sms_body%)%', values, { context });
		expect(out.text).toBe(sha1Hex('a&b=c/d #1'));
	});

	it('hashes nested sha1 calls from the inside out', () => {
		const out = run('%sha1(%sha1(%x%)%)%', { x: 'abc' });
		expect(out.text).toBe(sha1Hex(sha1Hex('abc')));
		expect(out.text).toBe('9ef2bdeea2b1bae79b9ddb930427d0b2c880bdac');
	});

	it('keeps %sha1(...)% as written when its argument has no value', () => {
		const out = run('a%sha1(%nope%)%b', {}, { context: 'url' });
		expect(out.text).toBe('a%sha1(%nope%)%b');
		expect(out.substitutions[0]).toMatchObject({ from: 1, to: 15, status: 'literal' });
	});

	it('keeps a name without a value as written, unencoded, with status literal', () => {
		const out = run('?to=%sms_to%&x=%unknown%', { sms_to: '1' }, { context: 'url' });
		expect(out.text).toBe('?to=1&x=%unknown%');
		expect(out.substitutions[1]).toMatchObject({
			key: 'unknown',
			status: 'literal',
			from: 8,
			to: 17,
			sourceFrom: 15,
			sourceTo: 24
		});
	});

	it('marks a value as empty when statusOf says so', () => {
		const out = expand(tokenize('a=%sms_to%&b=%sms_body%'), {
			context: 'form',
			resolve: (key) => (key === 'sms_to' ? '' : 'x'),
			statusOf: (key) => (key === 'sms_to' ? 'empty' : 'value')
		});
		expect(out.text).toBe('a=&b=x');
		expect(out.substitutions.map((s) => [s.key, s.status, s.from, s.to])).toEqual([
			['sms_to', 'empty', 2, 2],
			['sms_body', 'value', 5, 6]
		]);
	});

	it('writes values raw in raw mode whatever the context', () => {
		const out = run(
			'{"b":"%sms_body%"}',
			{ sms_body: 'say "hi"\n' },
			{ context: 'json', raw: true }
		);
		expect(out.text).toBe('{"b":"say "hi"\n"}');
		expect(out.substitutions[0].encoding).toBe('raw');
	});

	describe('raw mode marks what would break', () => {
		it.each([
			['json', '{"b":"%v%"}', 'say "hi"\\', ['"', '\\']],
			['url', 'https://x.test/?q=%v%', 'a&b c', ['&', ' ']],
			['form', 'b=%v%', 'x=1&y', ['=', '&']],
			['xml', '<b>%v%</b>', 'a < b & c\nd', ['<', '&']]
		] as const)(
			'in a %s spot names the characters that need escaping',
			(context, template, value, chars) => {
				const out = run(template, { v: value }, { context, raw: true });
				expect(out.substitutions[0].breaks).toBe(context);
				const issue = out.issues.find((i) => i.code === 'raw_breaks');
				expect(issue?.severity).toBe('warning');
				for (const char of chars) expect(issue?.message).toContain(JSON.stringify(char));
				expect(template.slice(issue!.from, issue!.to)).toBe('%v%');
			}
		);

		it('leaves values that need no escaping unmarked', () => {
			const out = run('{"b":"%v%"}', { v: 'plain text 42' }, { context: 'json', raw: true });
			expect(out.substitutions[0].breaks).toBeUndefined();
			expect(out.issues).toEqual([]);
		});

		it('marks nothing outside raw mode', () => {
			const out = run('{"b":"%v%"}', { v: 'say "hi"' }, { context: 'json' });
			expect(out.substitutions[0].breaks).toBeUndefined();
			expect(out.issues.map((i) => i.code)).not.toContain('raw_breaks');
		});
	});

	it('never scans a value again', () => {
		const asked: string[] = [];
		const out = expand(tokenize('%a%|%b%'), {
			context: 'raw',
			maskPassword: true,
			resolve: (key) => {
				asked.push(key);
				return key === 'a' ? '%account[password]%' : '%sha1(%a%)%';
			}
		});
		expect(out.text).toBe('%account[password]%|%sha1(%a%)%');
		expect(asked).toEqual(['a', 'b']);
	});

	describe('with %interestedParties%', () => {
		it('writes a JSON array in a JSON body, values JSON-escaped', () => {
			const out = run(
				'{"p":%interestedParties%}',
				{ interestedParties: PARTIES },
				{ context: 'json' }
			);
			expect(out.text).toBe(
				'{"p":[{"username":"alice","device":"iPhone \\"work\\" & home"},{"username":"bob","device":"Pixel <8>"}]}'
			);
			expect(JSON.parse(out.text)).toEqual({ p: PARTIES });
			expect(out.issues).toEqual([]);
		});

		it('writes a list of party elements in an XML body, values XML-escaped', () => {
			const out = run(
				'<r>%interestedParties%</r>',
				{ interestedParties: PARTIES },
				{ context: 'xml' }
			);
			expect(out.text).toBe(
				'<r><list><party><username>alice</username><device>iPhone &quot;work&quot; &amp; home</device></party>' +
					'<party><username>bob</username><device>Pixel &lt;8&gt;</device></party></list></r>'
			);
			expect(out.issues).toEqual([]);
		});

		it('writes an empty list as [] in JSON and <list></list> in XML', () => {
			expect(run('%p%', { p: [] }, { context: 'json' }).text).toBe('[]');
			expect(run('%p%', { p: [] }, { context: 'xml' }).text).toBe('<list></list>');
		});

		it.each([
			[
				'json',
				'[{"username":"alice","device":"iPhone "work" & home"},{"username":"bob","device":"Pixel <8>"}]'
			],
			[
				'xml',
				'<list><party><username>alice</username><device>iPhone "work" & home</device></party>' +
					'<party><username>bob</username><device>Pixel <8></device></party></list>'
			]
		] as const)('keeps the %s shape but escapes nothing in raw mode', (context, text) => {
			const out = run(
				'%interestedParties%',
				{ interestedParties: PARTIES },
				{ context, raw: true }
			);
			expect(out.text).toBe(text);
		});

		it.each([
			['url', encodeURIComponent(JSON.stringify(PARTIES))],
			['form', new URLSearchParams([['a', JSON.stringify(PARTIES)]]).toString().slice(2)],
			['raw', JSON.stringify(PARTIES)]
		] as const)(
			'warns list_outside_body in a %s spot and sends encoded JSON text',
			(context, text) => {
				const out = run('x=%interestedParties%', { interestedParties: PARTIES }, { context });
				expect(out.text).toBe(`x=${text}`);
				expect(out.issues).toEqual([
					expect.objectContaining({
						code: 'list_outside_body',
						severity: 'warning',
						from: 2,
						to: 21
					})
				]);
			}
		);
	});

	describe('in an XML body', () => {
		it('warns value_not_xml_safe and sends U+FFFD for characters XML cannot carry', () => {
			const out = run('<a>%x%</a>', { x: 'a\u0001b\uD800' }, { context: 'xml' });
			expect(out.text).toBe('<a>a\uFFFDb\uFFFD</a>');
			expect(out.issues).toEqual([
				expect.objectContaining({ code: 'value_not_xml_safe', severity: 'warning', from: 3, to: 6 })
			]);
		});

		it('warns value_not_xml_safe for a party value too', () => {
			const parties = [{ username: 'a\u0000', device: 'd' }];
			const out = run('<a>%p%</a>', { p: parties }, { context: 'xml' });
			expect(out.text).toContain('<username>a\uFFFD</username>');
			expect(out.issues.map((i) => i.code)).toEqual(['value_not_xml_safe']);
		});

		it('does not warn in raw mode or in JSON, where nothing is replaced', () => {
			const raw = run('%x%', { x: '\u0001' }, { context: 'xml', raw: true }).issues;
			expect(raw.map((i) => i.code)).toEqual(['raw_breaks']);
			expect(run('%x%', { x: '\u0001' }, { context: 'json' }).issues).toEqual([]);
		});
	});
});

const party = fc.record({
	username: fc.string({ unit: 'binary' }),
	device: fc.string({ unit: 'binary' })
});
const value: fc.Arbitrary<Value> = fc.oneof(
	fc.string({ unit: 'binary' }),
	fc.array(party, { maxLength: 3 })
);
const templateText = fc
	.array(
		fc.oneof(
			fc.constantFrom(
				'%sms_to%',
				'%sms_body%',
				'%account[password]%',
				'%interestedParties%',
				'%sha1(%account[password]%)%',
				'%sha1(%sha1(%sms_to%)%)%',
				'%nope%',
				'%',
				'%20',
				'%sha1(',
				')%'
			),
			fc.string({ unit: 'binary', maxLength: 5 })
		),
		{ maxLength: 12 }
	)
	.map((parts) => parts.join(''));
const options = fc.record({
	context: fc.constantFrom(...ENCODINGS),
	raw: fc.boolean(),
	maskPassword: fc.boolean()
});

describe('expand properties', () => {
	it('never throws, whatever the template and values', () => {
		fc.assert(
			fc.property(
				fc.oneof(fc.string({ unit: 'binary' }), templateText),
				fc.dictionary(
					fc.constantFrom('sms_to', 'sms_body', 'account[password]', 'interestedParties'),
					value
				),
				options,
				(template, values, opts) => {
					expect(typeof run(template, values, opts).text).toBe('string');
				}
			)
		);
	});

	it('gives back the template unchanged when no name has a value', () => {
		fc.assert(
			fc.property(
				fc.oneof(fc.string({ unit: 'binary' }), templateText),
				options,
				(template, opts) => {
					const out = run(template, {}, { ...opts, maskPassword: false });
					expect(out.text).toBe(template);
					expect(out.substitutions.every((s) => s.status === 'literal')).toBe(true);
				}
			)
		);
	});

	it('copies the text between substitutions and reports spans in order', () => {
		fc.assert(
			fc.property(
				templateText,
				fc.dictionary(
					fc.constantFrom('sms_to', 'sms_body', 'account[password]', 'interestedParties'),
					value
				),
				options,
				(template, values, opts) => {
					const out = run(template, values, opts);
					let at = 0;
					let sourceAt = 0;
					for (const s of out.substitutions) {
						expect(out.text.slice(at, s.from)).toBe(template.slice(sourceAt, s.sourceFrom));
						expect(template.slice(s.sourceFrom, s.sourceTo)).toBe(`%${s.key}%`);
						const v = values[s.key];
						if (s.status === 'literal') expect(out.text.slice(s.from, s.to)).toBe(`%${s.key}%`);
						if (s.status === 'masked') expect(out.text.slice(s.from, s.to)).toBe(MASKED_PASSWORD);
						if (s.status === 'value' && typeof v === 'string') {
							expect(out.text.slice(s.from, s.to)).toBe(encodeValue(v, s.encoding));
						}
						at = s.to;
						sourceAt = s.sourceTo;
					}
					expect(out.text.slice(at)).toBe(template.slice(sourceAt));
				}
			)
		);
	});

	it('writes a value that holds placeholders encoded, never expanded', () => {
		const placeholderish = fc
			.array(
				fc.oneof(
					fc.constantFrom('%sms_to%', '%account[password]%', '%sha1(%sms_to%)%'),
					fc.string({ unit: 'binary' })
				)
			)
			.map((parts) => parts.join(''));
		fc.assert(
			fc.property(
				placeholderish,
				fc.constantFrom(...ENCODINGS),
				fc.boolean(),
				(v, context, mask) => {
					const out = run(
						'%sms_body%',
						{ sms_body: v, sms_to: 'TO', 'account[password]': 'PW' },
						{ context, maskPassword: mask }
					);
					expect(out.text).toBe(encodeValue(v, context));
				}
			)
		);
	});

	it('keeps a JSON body valid, and its strings equal to the values', () => {
		const body = '{"to":"%sms_to%","body":"%sms_body%","n":%interestedParties%}';
		fc.assert(
			fc.property(
				fc.string({ unit: 'binary' }),
				fc.string({ unit: 'binary' }),
				fc.array(party, { maxLength: 4 }),
				(to, text, parties) => {
					const out = run(
						body,
						{ sms_to: to, sms_body: text, interestedParties: parties },
						{ context: 'json' }
					);
					expect(JSON.parse(out.text)).toEqual({ to, body: text, n: parties });
				}
			)
		);
	});

	const xmlReader = new XMLParser({
		parseTagValue: false,
		trimValues: false,
		htmlEntities: true,
		processEntities: true,
		isArray: (name) => name === 'party'
	});

	it('keeps an XML body well-formed, and its values equal to what XML can carry of them', () => {
		const body =
			'<?xml version="1.0" encoding="UTF-8"?><root><to>%sms_to%</to><body>%sms_body%</body>%interestedParties%</root>';
		fc.assert(
			fc.property(
				fc.string({ unit: 'binary' }),
				fc.string({ unit: 'binary' }),
				fc.array(party, { maxLength: 4 }),
				(to, text, parties) => {
					const out = run(
						body,
						{ sms_to: to, sms_body: text, interestedParties: parties },
						{ context: 'xml' }
					);
					expect(XMLValidator.validate(out.text)).toBe(true);
					const root = (xmlReader.parse(out.text) as { root: Record<string, unknown> }).root;
					expect(root.to).toBe(xmlCarried(to));
					expect(root.body).toBe(xmlCarried(text));
					const list = root.list as '' | { party: Party[] };
					expect(list === '' ? [] : list.party).toEqual(
						parties.map((p) => ({ username: xmlCarried(p.username), device: xmlCarried(p.device) }))
					);
				}
			)
		);
	});
});
