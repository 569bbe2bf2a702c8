import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameJson } from './same';
import { mergeDocuments } from './merge';
import { emptyDocument, type ProfileDocument } from './schema';
import { SECRET_MASK } from './secrets';

const URL_KEY = 'genericSmsSendUrl';
const BODY_KEY = 'genericSmsSendPostData';

function doc(changes: Partial<ProfileDocument> = {}): ProfileDocument {
	return { ...emptyDocument(), ...changes };
}

/** A document with the send-message service's URL and body (undefined: unset). */
function sms(url?: string, body?: string, extra: Partial<ProfileDocument> = {}): ProfileDocument {
	const settings: Record<string, string> = {};
	if (url !== undefined) settings[URL_KEY] = url;
	if (body !== undefined) settings[BODY_KEY] = body;
	return doc({ services: { sendMessage: settings }, ...extra });
}

const settings = (d: ProfileDocument) => d.services.sendMessage ?? {};

describe('mergeDocuments: one field, every case', () => {
	// base, mine, theirs → merged value, conflict?  (undefined: the field is not set)
	const cases: [
		string,
		string | undefined,
		string | undefined,
		string | undefined,
		string | undefined,
		boolean
	][] = [
		['neither changed', 'a', 'a', 'a', 'a', false],
		['only mine changed', 'a', 'b', 'a', 'b', false],
		['only theirs changed', 'a', 'a', 'c', 'c', false],
		['both changed to the same value', 'a', 'd', 'd', 'd', false],
		['both changed differently', 'a', 'b', 'c', 'b', true],
		['only mine added', undefined, 'b', undefined, 'b', false],
		['only theirs added', undefined, undefined, 'c', 'c', false],
		['both added the same', undefined, 'd', 'd', 'd', false],
		['both added differently', undefined, 'b', 'c', 'b', true],
		['only mine removed', 'a', undefined, 'a', undefined, false],
		['only theirs removed', 'a', 'a', undefined, undefined, false],
		['both removed', 'a', undefined, undefined, undefined, false],
		['mine removed, theirs changed', 'a', undefined, 'c', undefined, true],
		['mine changed, theirs removed', 'a', 'b', undefined, 'b', true]
	];
	for (const [name, base, mine, theirs, merged, conflict] of cases) {
		it(name, () => {
			const result = mergeDocuments(sms(base), sms(mine), sms(theirs));
			expect(settings(result.document)[URL_KEY]).toBe(merged);
			expect(result.conflicts.map((c) => c.path)).toEqual(
				conflict ? [`services.sendMessage.${URL_KEY}`] : []
			);
			expect(result.unresolved).toHaveLength(conflict ? 1 : 0);
		});
	}

	it('takes the chosen side of a conflict, also a removal', () => {
		const path = `services.sendMessage.${URL_KEY}`;
		const theirs = mergeDocuments(sms('a'), sms('b'), sms('c'), { [path]: 'theirs' });
		expect(settings(theirs.document)[URL_KEY]).toBe('c');
		expect(theirs.unresolved).toEqual([]);
		expect(theirs.conflicts).toEqual([
			{ path, label: 'Send Message · URL', base: 'a', mine: 'b', theirs: 'c', secret: false }
		]);
		const removed = mergeDocuments(sms('a'), sms(undefined), sms('c'), { [path]: 'mine' });
		expect(URL_KEY in settings(removed.document)).toBe(false);
	});
});

describe('mergeDocuments: several fields', () => {
	it('keeps their URL change and my body change (the lost-update case)', () => {
		const base = sms('https://old.test/', '{"a":1}');
		const result = mergeDocuments(
			base,
			sms('https://old.test/', '{"a":2}'),
			sms('https://new.test/', '{"a":1}')
		);
		expect(settings(result.document)).toEqual({
			[URL_KEY]: 'https://new.test/',
			[BODY_KEY]: '{"a":2}'
		});
		expect(result.conflicts).toEqual([]);
		expect(result.fromTheirs).toEqual([`services.sendMessage.${URL_KEY}`]);
		expect(result.fromMine).toEqual([`services.sendMessage.${BODY_KEY}`]);
	});

	it('reports only the field both changed, and merges the others', () => {
		const result = mergeDocuments(
			sms('u0', 'b0'),
			sms('u1', 'b1'),
			sms('u0', 'b2', { rawSubstitution: true })
		);
		expect(result.conflicts.map((c) => c.path)).toEqual([`services.sendMessage.${BODY_KEY}`]);
		expect(settings(result.document)).toEqual({ [URL_KEY]: 'u1', [BODY_KEY]: 'b1' });
		expect(result.document.rawSubstitution).toBe(true);
	});

	it('merges services, push settings and kept XML elements independently', () => {
		const base = doc({ services: { sendMessage: { [URL_KEY]: 'x' } } });
		const mine = doc({
			services: { sendMessage: { [URL_KEY]: 'x' }, invitationAccepted: { a: '1' } },
			push: { gatewayUrl: 'https://push.test/', appId: '', target: 'unknown' }
		});
		const theirs = doc({
			services: { sendMessage: { [URL_KEY]: 'y' } },
			push: { gatewayUrl: '', appId: 'app', target: 'platformB' },
			preservedXml: [{ path: 'provisioning', index: 0, xml: '<x/>' }]
		});
		const result = mergeDocuments(base, mine, theirs);
		expect(result.conflicts).toEqual([]);
		expect(result.document.services).toEqual({
			sendMessage: { [URL_KEY]: 'y' },
			invitationAccepted: { a: '1' }
		});
		expect(result.document.push).toEqual({
			gatewayUrl: 'https://push.test/',
			appId: 'app',
			target: 'platformB'
		});
		expect(result.document.preservedXml).toEqual(theirs.preservedXml);
	});
});

describe('mergeDocuments: scenarios', () => {
	const scenario = (name: string, values: Record<string, string | string[]>) => ({ name, values });

	it('keeps scenarios added on either side, in my order then theirs', () => {
		const base = doc({ scenarios: [scenario('A', { sms_to: '+1' })] });
		const mine = doc({ scenarios: [scenario('A', { sms_to: '+1' }), scenario('Mine', {})] });
		const theirs = doc({
			scenarios: [scenario('A', { sms_to: '+2' }), scenario('Theirs', { sms_to: '+3' })]
		});
		const result = mergeDocuments(base, mine, theirs);
		expect(result.conflicts).toEqual([]);
		expect(result.document.scenarios).toEqual([
			scenario('A', { sms_to: '+2' }),
			scenario('Mine', {}),
			scenario('Theirs', { sms_to: '+3' })
		]);
	});

	it('removes a scenario one side removed and the other left alone', () => {
		const base = doc({ scenarios: [scenario('A', { sms_to: '+1' }), scenario('B', {})] });
		const mine = doc({ scenarios: [scenario('B', {})] });
		const result = mergeDocuments(base, mine, base);
		expect(result.document.scenarios.map((s) => s.name)).toEqual(['B']);
		expect(result.conflicts).toEqual([]);
	});

	it('makes a conflict of a value changed in a scenario the other side removed', () => {
		const base = doc({ scenarios: [scenario('A', { sms_to: '+1' })] });
		const mine = doc({ scenarios: [] });
		const theirs = doc({ scenarios: [scenario('A', { sms_to: '+9' })] });
		const result = mergeDocuments(base, mine, theirs);
		expect(result.conflicts.map((c) => c.path)).toEqual(['scenarios["A"].values.sms_to']);
		expect(result.document.scenarios).toEqual([]);
		const kept = mergeDocuments(base, mine, theirs, {
			'scenarios["A"].values.sms_to': 'theirs'
		});
		expect(kept.document.scenarios).toEqual([scenario('A', { sms_to: '+9' })]);
	});

	it('compares lists of recipients as values', () => {
		const base = doc({ scenarios: [scenario('A', { sms_to: ['+1', '+2'] })] });
		const same = doc({ scenarios: [scenario('A', { sms_to: ['+1', '+2'] })] });
		const changed = doc({ scenarios: [scenario('A', { sms_to: ['+1', '+3'] })] });
		expect(mergeDocuments(base, same, changed).document.scenarios[0].values.sms_to).toEqual([
			'+1',
			'+3'
		]);
		expect(mergeDocuments(base, changed, structuredClone(changed)).conflicts).toEqual([]);
	});
});

describe('mergeDocuments: secrets', () => {
	const PASSWORD = 'account[password]';
	const withSecret = (value: string | undefined) =>
		doc({
			scenarios: [{ name: 'A', values: value === undefined ? {} : { [PASSWORD]: value } }]
		});
	const secretOf = (d: ProfileDocument) => d.scenarios[0]?.values[PASSWORD];

	it('reads the mask as the base value: my untouched secret takes their new one', () => {
		const result = mergeDocuments(withSecret('old'), withSecret(SECRET_MASK), withSecret('new'));
		expect(secretOf(result.document)).toBe('new');
		expect(result.conflicts).toEqual([]);
	});

	it('keeps my typed secret when they left theirs alone (sent as the mask)', () => {
		const result = mergeDocuments(withSecret('old'), withSecret('typed'), withSecret(SECRET_MASK));
		expect(secretOf(result.document)).toBe('typed');
		expect(result.fromMine).toEqual(['scenarios["A"].values.account[password]']);
	});

	it('keeps the mask where neither side changed the secret', () => {
		const result = mergeDocuments(
			withSecret(SECRET_MASK),
			withSecret(SECRET_MASK),
			withSecret(SECRET_MASK)
		);
		expect(secretOf(result.document)).toBe(SECRET_MASK);
		expect(result.fromMine).toEqual([]);
		expect(result.fromTheirs).toEqual([]);
	});

	it('makes a conflict of a secret both changed, and never shows its values', () => {
		const result = mergeDocuments(withSecret('old'), withSecret('mine'), withSecret('theirs'));
		expect(result.conflicts).toEqual([
			{
				path: 'scenarios["A"].values.account[password]',
				label: 'Scenario “A” · %account[password]%',
				base: SECRET_MASK,
				mine: SECRET_MASK,
				theirs: SECRET_MASK,
				secret: true
			}
		]);
	});

	it('never shows a credential of kept XML in a conflict', () => {
		const kept = (xml: string) =>
			doc({ preservedXml: [{ path: 'provisioning/account/core', index: 1, xml }] });
		const result = mergeDocuments(
			kept('<password>old-p4ss</password>'),
			kept('<password>mine-p4ss</password>'),
			kept('<password>their-p4ss</password>')
		);
		expect(result.conflicts).toHaveLength(1);
		expect(result.conflicts[0].label).toBe('Kept XML elements');
		expect(JSON.stringify(result.conflicts)).not.toMatch(/p4ss/);
		expect(result.conflicts[0].mine).toContain(SECRET_MASK);
	});

	it('treats a secret both set to the same value as no conflict', () => {
		const result = mergeDocuments(withSecret('old'), withSecret('same'), withSecret('same'));
		expect(result.conflicts).toEqual([]);
		expect(secretOf(result.document)).toBe('same');
	});

	it('keeps a removal of a secret (empty) against an untouched one', () => {
		const result = mergeDocuments(withSecret('old'), withSecret(''), withSecret(SECRET_MASK));
		expect(secretOf(result.document)).toBe('');
		const removed = mergeDocuments(
			withSecret('old'),
			withSecret(SECRET_MASK),
			withSecret(undefined)
		);
		expect(secretOf(removed.document)).toBeUndefined();
	});
});

describe('mergeDocuments: properties', () => {
	const value = fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined });
	const triple = fc.tuple(value, value, value);

	it('is mine when theirs is the base, theirs when mine is the base, and symmetric in conflicts', () => {
		fc.assert(
			fc.property(fc.array(triple, { minLength: 1, maxLength: 4 }), (fields) => {
				const build = (i: 0 | 1 | 2) =>
					doc({
						services: {
							sendMessage: Object.fromEntries(
								fields.flatMap((f, n) => (f[i] === undefined ? [] : [[`k${n}`, f[i]!]]))
							)
						}
					});
				const [base, mine, theirs] = [build(0), build(1), build(2)];
				const norm = (d: ProfileDocument) => settings(d);
				expect(norm(mergeDocuments(base, mine, base).document)).toEqual(norm(mine));
				expect(norm(mergeDocuments(base, base, theirs).document)).toEqual(norm(theirs));
				const forward = mergeDocuments(base, mine, theirs);
				const backward = mergeDocuments(base, theirs, mine);
				expect(forward.conflicts.map((c) => c.path)).toEqual(backward.conflicts.map((c) => c.path));
				if (!forward.conflicts.length) {
					expect(sameJson(norm(forward.document), norm(backward.document))).toBe(true);
				}
			})
		);
	});
});
