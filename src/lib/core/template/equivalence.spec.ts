import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeValue, hasXmlInvalidChars, type Encoding } from './encode';
import { expand, type SubstitutionStatus, type Value } from './expand';
import { tokenize } from './tokenize';
import * as reference from '../../../../tests/reference/template/expand';
import * as referenceEncode from '../../../../tests/reference/template/encode';
import * as referenceTokenize from '../../../../tests/reference/template/tokenize';
import { same, templateText } from '../../../../tests/helpers/template-pieces';

/**
 * The fast tokenizer, encoder and expander against the first, straightforward ones (kept in
 * `tests/reference/template/`): the same tokens, issues, text and substitutions, byte for byte,
 * in the same order.
 */

const ENCODINGS: Encoding[] = ['url', 'form', 'json', 'xml', 'raw'];
const KEYS = [
	'sms_to',
	'sms_body',
	'account[password]',
	'account[user.name-1]',
	'interestedParties'
];

const template = fc.oneof(templateText, fc.string({ unit: 'binary' }));

const text = fc.oneof(
	fc.string({ unit: 'binary' }),
	fc.constantFrom('', 'alice', 'p@ss word&1', 'Tom said "hi" & <b>\n', "it's ~(x)!*", '%sms_to%')
);
const party = fc.record({ username: text, device: text });
const value: fc.Arbitrary<Value> = fc.oneof(
	{ weight: 4, arbitrary: text },
	{ weight: 1, arbitrary: fc.array(party, { maxLength: 3 }) }
);
const values = fc.dictionary(fc.constantFrom(...KEYS), value);
const empties = fc.subarray(KEYS);
const options = fc.record({
	context: fc.constantFrom(...ENCODINGS),
	raw: fc.boolean(),
	maskPassword: fc.boolean()
});

describe('the fast template engine gives what the reference gives', () => {
	it('tokenizes any text into the same tokens and issues', () => {
		fc.assert(
			fc.property(template, (source) => {
				same(tokenize(source), referenceTokenize.tokenize(source));
			}),
			{ numRuns: 2000 }
		);
	});

	it('expands any template with any values into the same text, substitutions and issues', () => {
		fc.assert(
			fc.property(template, values, empties, options, (source, given, empty, opts) => {
				const resolve = (key: string) => (Object.hasOwn(given, key) ? given[key] : undefined);
				const statusOf = (key: string): SubstitutionStatus =>
					empty.includes(key) ? 'empty' : 'value';
				const withStatus = fc.sample(fc.boolean(), { numRuns: 1, seed: source.length })[0];
				const full = { ...opts, resolve, ...(withStatus ? { statusOf } : {}) };
				same(
					expand(tokenize(source), full),
					reference.expand(referenceTokenize.tokenize(source), full)
				);
			}),
			{ numRuns: 2000 }
		);
	});

	it('expands a large body that repeats its names the same way', () => {
		const unit =
			'{"to":"%sms_to%","u":"%account[user.name-1]%","b":"%sms_body%","p":"%interestedParties%",' +
			'"h":"%sha1(%account[password]%)%","n":"%nope%","pct":"100%"}';
		const source = `[${Array.from({ length: 500 }, () => unit).join(',')}]`;
		const given: Record<string, Value> = {
			sms_to: '+14155550123',
			sms_body: 'Tom said "meet at 7 & bring snacks" \u{1F389}\nOK?',
			'account[user.name-1]': 'alice\u0001',
			'account[password]': 'p@ss word&1',
			interestedParties: [{ username: 'bob', device: 'Pixel <8>' }]
		};
		const resolve = (key: string) => (Object.hasOwn(given, key) ? given[key] : undefined);
		for (const context of ENCODINGS) {
			for (const raw of [false, true]) {
				const opts = { context, raw, maskPassword: context === 'url', resolve };
				same(
					expand(tokenize(source), opts),
					reference.expand(referenceTokenize.tokenize(source), opts)
				);
			}
		}
	});

	it('encodes any text for every spot the same way', () => {
		fc.assert(
			fc.property(fc.oneof(text, fc.string()), fc.constantFrom(...ENCODINGS), (input, encoding) => {
				expect(encodeValue(input, encoding)).toBe(referenceEncode.encodeValue(input, encoding));
				expect(hasXmlInvalidChars(input)).toBe(referenceEncode.hasXmlInvalidChars(input));
			}),
			{ numRuns: 5000 }
		);
	});
});
