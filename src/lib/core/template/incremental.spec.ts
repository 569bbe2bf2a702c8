import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PIECES, same, templateText } from '../../../../tests/helpers/template-pieces';
import { findKnownService } from '../catalogue/known';
import { noteEdit } from '../format/edits';
import { buildRequestsWith } from '../request/build';
import { readXmlBody } from '../request/strict-build';
import type { Values } from '../request/values';
import { analyzeTemplate } from './analyze';
import { expand, type ExpandOptions, type Value } from './expand';
import { TemplateMemo } from './incremental';
import { tokenize } from './tokenize';

/**
 * Analyses, expansions and builds derived from the previous ones after an edit are those the
 * whole computation gives, whatever the template and the edit.
 */

const service = findKnownService('sendMessage')!;
const URL_FIELD = 'genericSmsSendUrl';
const BODY_FIELD = 'genericSmsSendPostData';

/** What is typed, pasted or deleted: letters, placeholders' pieces, surrogates, controls. */
const inserted = fc.oneof(
	{ weight: 4, arbitrary: fc.constantFrom('a', 'Z', '7', ' ', '"', '_', '.', '-', '(', ')', ']') },
	{ weight: 2, arbitrary: fc.constantFrom(...PIECES) },
	{
		weight: 1,
		arbitrary: fc.constantFrom('', '%', '\u{1F389}', '\ud83c', '\udf89', '\u0001', '\n')
	},
	{ weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
	{ weight: 1, arbitrary: templateText }
);

/** Where an edit goes (a share of the text, or the token boundary nearest to it) and what. */
const edit = fc.record({
	at: fc.double({ min: 0, max: 1, noNaN: true }),
	atBoundary: fc.boolean(),
	removed: fc.oneof(fc.constant(0), fc.nat({ max: 3 }), fc.nat({ max: 40 })),
	inserted,
	/** Say the edit as an editor would (it may be wider than the change), else let it be found. */
	said: fc.boolean(),
	/** How much of the text before it the editor says. */
	lead: fc.nat({ max: 4 })
});

type EditSpec = typeof edit extends fc.Arbitrary<infer T> ? T : never;

function applyEdit(before: string, spec: EditSpec): string {
	let at = Math.round(spec.at * before.length);
	if (spec.atBoundary) {
		const ends = tokenize(before).tokens.flatMap((t) => [t.from, t.to]);
		at = ends.reduce((best, end) => (Math.abs(end - at) < Math.abs(best - at) ? end : best), 0);
	}
	const to = Math.min(before.length, at + spec.removed);
	const after = before.slice(0, at) + spec.inserted + before.slice(to);
	const said = {
		text: spec.inserted,
		removed: before.slice(at, to),
		lead: before.slice(Math.max(0, at - spec.lead), at),
		next: before.slice(to, to + 1)
	};
	if (spec.said) noteEdit(before, after, { from: at, to, inserted: spec.inserted.length, said });
	return after;
}

const KEYS = ['sms_to', 'sms_body', 'account[password]', 'account[username]', 'interestedParties'];
const text = fc.oneof(
	fc.constantFrom('', 'alice', 'p@ss word&1', 'Tom said "hi" & <b>\n', '\u0001', '%sms_to%'),
	fc.string({ unit: 'binary', maxLength: 6 })
);
const value: fc.Arbitrary<Value> = fc.oneof(
	{ weight: 4, arbitrary: text },
	{ weight: 1, arbitrary: fc.array(fc.record({ username: text, device: text }), { maxLength: 2 }) }
);
const values = fc.dictionary(fc.constantFrom(...KEYS), value);

describe('TemplateMemo', () => {
	it('analyses and expands each edited text as the whole computation does', () => {
		fc.assert(
			fc.property(
				templateText,
				fc.array(fc.tuple(edit, fc.option(values, { freq: 4 })), { minLength: 1, maxLength: 4 }),
				values,
				fc.record({
					context: fc.constantFrom('url', 'form', 'json', 'xml', 'raw' as const),
					raw: fc.boolean(),
					maskPassword: fc.boolean()
				}),
				fc.constantFrom(URL_FIELD, BODY_FIELD, undefined),
				(start, edits, firstValues, opts, field) => {
					const memo = new TemplateMemo();
					let source = start;
					let given = firstValues;
					const run = () => {
						const options: ExpandOptions = {
							...opts,
							resolve: (key) => (Object.hasOwn(given, key) ? given[key] : undefined),
							statusOf: (key) => (key === 'sms_body' ? 'empty' : 'value')
						};
						const analysis = memo.analyze('f', source, service, field, []);
						const whole = analyzeTemplate(source, service, field, []);
						same(analysis, whole);
						same(memo.expand('f', analysis.tokenized, options), expand(whole.tokenized, options));
					};
					run();
					for (const [spec, next] of edits) {
						source = applyEdit(source, spec);
						if (next) given = next;
						run();
					}
				}
			),
			{ numRuns: 1500 }
		);
	});

	it('builds each edited body and URL as the whole build does', () => {
		fc.assert(
			fc.property(
				templateText,
				fc.array(fc.tuple(edit, fc.boolean()), { minLength: 1, maxLength: 4 }),
				fc.constantFrom('application/json', 'application/xml', 'text/plain', ''),
				fc.boolean(),
				fc.constantFrom<Values>(
					{},
					{ sms_to: ['+1555', '+1666'], sms_body: 'a "b" <c>' },
					{ sms_body: '\u0001', 'account[password]': 'pw' }
				),
				(body, edits, contentType, rawSubstitution, given) => {
					const memo = new TemplateMemo();
					const settings = {
						[URL_FIELD]: 'http://p.example/s?to=%sms_to%&p=%account[password]%',
						[BODY_FIELD]: body,
						genericSmsSendContentType: contentType
					};
					const input = () => ({ service, settings, values: given, rawSubstitution });
					same(
						buildRequestsWith(input(), readXmlBody, undefined, memo),
						buildRequestsWith(input(), readXmlBody)
					);
					for (const [spec, inUrl] of edits) {
						const key = inUrl ? URL_FIELD : BODY_FIELD;
						settings[key] = applyEdit(settings[key], spec);
						same(
							buildRequestsWith(input(), readXmlBody, undefined, memo),
							buildRequestsWith(input(), readXmlBody)
						);
					}
				}
			),
			{ numRuns: 500 }
		);
	});

	it('derives a key typed in literal text: what lies before it is kept, what follows shifted', () => {
		const unit = '{"to":"%sms_to%","h":"%sha1(%account[password]%)%","n":"%nope"}';
		const before = `[{"to":"%sms_to%","note":"x"},${unit.repeat(50)}]`;
		const at = before.indexOf('x') + 1;
		const after = before.slice(0, at) + 'y' + before.slice(at);
		const memo = new TemplateMemo();
		const options: ExpandOptions = { context: 'json', resolve: (key) => `<${key}>` };
		const first = memo.analyze('body', before, service, BODY_FIELD, []);
		const firstExpansion = memo.expand('body', first.tokenized, options);
		const next = memo.analyze('body', after, service, BODY_FIELD, []);
		const nextExpansion = memo.expand('body', next.tokenized, options);
		same(next, analyzeTemplate(after, service, BODY_FIELD, []));
		same(nextExpansion, expand(next.tokenized, options));
		// Kept, not made again: the fast path was taken.
		expect(next.tokenized.tokens[1]).toBe(first.tokenized.tokens[1]);
		expect(next.tokenized.tokens[3]).not.toBe(first.tokenized.tokens[3]);
		expect(nextExpansion.substitutions[0]).toBe(firstExpansion.substitutions[0]);
		expect(nextExpansion.substitutions[1].from).toBe(firstExpansion.substitutions[1].from + 1);
	});

	it('computes a `%` typed, or a key typed in a placeholder, whole', () => {
		const before = 'ab %sms_to% cd';
		for (const after of ['ab %sms_to%% cd', 'ab %sms_tox% cd', 'ab %sms_to%x cd']) {
			const memo = new TemplateMemo();
			const first = memo.analyze('body', before, service, BODY_FIELD, []);
			const next = memo.analyze('body', after, service, BODY_FIELD, []);
			same(next, analyzeTemplate(after, service, BODY_FIELD, []));
			expect(next.tokenized.tokens[0]).not.toBe(first.tokenized.tokens[0]);
		}
	});
});

/** Each value resolved once per key and expansion, as a resolver that counts them needs. */
describe('TemplateMemo asks values as an expansion does', () => {
	it('asks each key once when it derives an expansion', () => {
		const memo = new TemplateMemo();
		const asked: string[] = [];
		const options: ExpandOptions = {
			context: 'json',
			resolve: (key) => (asked.push(key), key)
		};
		const first = memo.analyze('b', '"%sms_to%" x %sms_to% %sms_body%', service, BODY_FIELD, []);
		memo.expand('b', first.tokenized, options);
		asked.length = 0;
		const next = memo.analyze('b', '"%sms_to%" xy %sms_to% %sms_body%', service, BODY_FIELD, []);
		memo.expand('b', next.tokenized, options);
		expect(asked.sort()).toEqual(['sms_body', 'sms_to']);
	});
});
