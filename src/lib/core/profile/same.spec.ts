import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffDocuments } from './diff';
import { sameDocument, sameJson } from './same';
import { emptyDocument, type ProfileDocument } from './schema';

function doc(changes: Partial<ProfileDocument> = {}): ProfileDocument {
	return { ...emptyDocument(), ...changes };
}

describe('sameJson', () => {
	it('compares values, not key order', () => {
		expect(sameJson({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
		expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
		expect(sameJson({ a: [1] }, { a: { 0: 1 } })).toBe(false);
		expect(sameJson({ a: 'x'.repeat(10) }, { a: 'x'.repeat(9) + 'y' })).toBe(false);
		expect(sameJson(null, {})).toBe(false);
	});

	it('agrees with comparing canonical JSON', () => {
		fc.assert(
			fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
				expect(sameJson(a, structuredClone(a))).toBe(true);
				if (sameJson(a, b)) expect(canonical(a)).toBe(canonical(b));
			})
		);
	});
});

function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.entries(value).sort(([x], [y]) => (x < y ? -1 : 1));
		return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
	}
	return JSON.stringify(value);
}

describe('sameDocument', () => {
	it('sees no difference in a service left with no settings, nor in key order', () => {
		const a = doc({ services: { sendMessage: { a: '1', b: '2' } } });
		expect(sameDocument(a, doc({ services: { sendMessage: { b: '2', a: '1' } } }))).toBe(true);
		expect(sameDocument(doc(), doc({ services: { sendMessage: {} } }))).toBe(true);
		expect(sameDocument(a, doc({ services: { sendMessage: { a: '1' } } }))).toBe(false);
		expect(sameDocument(a, doc({ services: { sendMessage: { a: '1', b: '3' } } }))).toBe(false);
	});

	it('sees a scenario with no values, and the scenarios’ order', () => {
		const one = { name: 'One', values: {} };
		const two = { name: 'Two', values: { sms_to: '+1' } };
		expect(sameDocument(doc(), doc({ scenarios: [one] }))).toBe(false);
		expect(sameDocument(doc({ scenarios: [one, two] }), doc({ scenarios: [two, one] }))).toBe(
			false
		);
		expect(sameDocument(doc({ scenarios: [one, two] }), doc({ scenarios: [one, two] }))).toBe(true);
	});
});

describe('sameDocument beside the diff', () => {
	// Small alphabets, so that two documents drawn apart often hold the same fields.
	const text = fc.constantFrom('', 'a', 'b', '%x%');
	const document = fc.record({
		services: fc.dictionary(
			fc.constantFrom('sendMessage', 'mediaRefSend'),
			fc.dictionary(fc.constantFrom('genericSmsSendUrl', 'myOwnKey'), text)
		),
		scenarios: fc.array(
			fc.record({
				name: fc.constantFrom('One', 'Two'),
				values: fc.dictionary(fc.constantFrom('sms_to', 'password'), text)
			}),
			{ maxLength: 2 }
		),
		rawSubstitution: fc.boolean(),
		preservedXml: fc.array(
			fc.record({
				path: fc.constantFrom('provisioning', 'provisioning/account'),
				index: fc.nat(2),
				xml: fc.constantFrom('<codec>opus</codec>', '<password>s</password>')
			}),
			{ maxLength: 2 }
		)
	});

	it('finds two documents the same exactly when the diff lists no change and the order is the same', () => {
		fc.assert(
			fc.property(document, document, (x, y) => {
				const a = doc(x as Partial<ProfileDocument>);
				const b = doc(y as Partial<ProfileDocument>);
				const order = (d: ProfileDocument) => JSON.stringify(d.scenarios.map((s) => s.name));
				expect(sameDocument(a, b)).toBe(diffDocuments(a, b).length === 0 && order(a) === order(b));
				expect(sameDocument(a, structuredClone(a))).toBe(true);
			}),
			{ numRuns: 500 }
		);
	});
});
