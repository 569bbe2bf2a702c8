import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffDocuments, flattenDocument, sameDocument, sameJson, type FieldChange } from './diff';
import { emptyDocument, type ProfileDocument } from './schema';
import { SECRET_MASK } from './secrets';

function doc(changes: Partial<ProfileDocument> = {}): ProfileDocument {
	return { ...emptyDocument(), ...changes };
}

/** A compact rendering of changes: `kind path: before → after`. */
function render(changes: FieldChange[]): string[] {
	return changes.map((c) => `${c.kind} ${c.path}: ${c.before ?? '∅'} → ${c.after ?? '∅'}`);
}

const SMS = { genericSmsSendUrl: 'https://a.test/?to=%sms_to%' };

describe('flattenDocument', () => {
	it('names every field with a readable path', () => {
		const fields = flattenDocument(
			doc({
				services: { sendMessage: SMS },
				scenarios: [
					{
						name: 'Text "1"',
						values: { sms_to: ['+1', '+2'], interestedParties: [{ username: 'u', device: 'd' }] }
					}
				],
				preservedXml: [{ path: 'provisioning/x', index: 2, xml: '<x/>' }]
			})
		);
		expect(Object.fromEntries(fields)).toEqual({
			'services.sendMessage.genericSmsSendUrl': 'https://a.test/?to=%sms_to%',
			'push.gatewayUrl': '',
			'push.appId': '',
			'push.target': 'unknown',
			'scenarios["Text \\"1\\""].values.sms_to': '["+1","+2"]',
			'scenarios["Text \\"1\\""].values.interestedParties': '[{"username":"u","device":"d"}]',
			rawSubstitution: 'false',
			'preservedXml[0]': 'provisioning/x #2: <x/>'
		});
	});
});

describe('flattenDocument and secrets', () => {
	it('shows a secret value as the mask, and an empty one as empty', () => {
		const fields = flattenDocument(
			doc({ scenarios: [{ name: 'S', values: { 'account[password]': 'pw', password: '' } }] })
		);
		expect(fields.get('scenarios["S"].values.account[password]')).toBe(SECRET_MASK);
		expect(fields.get('scenarios["S"].values.password')).toBe('');
		expect(JSON.stringify([...fields])).not.toContain('pw');
	});
});

describe('diffDocuments', () => {
	it('finds nothing between equal documents', () => {
		const a = doc({ services: { sendMessage: SMS } });
		expect(diffDocuments(a, structuredClone(a))).toEqual([]);
	});

	it('lists added, removed and changed fields in path order', () => {
		const before = doc({
			services: { sendMessage: { ...SMS, genericSmsSendContentType: 'application/json' } },
			push: { gatewayUrl: 'https://push.test', appId: 'a', target: 'unknown' },
			scenarios: [{ name: 'S', values: { sms_to: '+1' } }]
		});
		const after = doc({
			services: { sendMessage: { genericSmsSendUrl: 'https://b.test/' } },
			push: { gatewayUrl: 'https://push.test', appId: 'b', target: 'platformB' },
			scenarios: [{ name: 'S', values: { sms_to: '+1', sms_body: 'hi' } }],
			rawSubstitution: true
		});
		expect(render(diffDocuments(before, after))).toEqual([
			'changed push.appId: a → b',
			'changed push.target: unknown → platformB',
			'changed rawSubstitution: false → true',
			'added scenarios["S"].values.sms_body: ∅ → hi',
			'removed services.sendMessage.genericSmsSendContentType: application/json → ∅',
			'changed services.sendMessage.genericSmsSendUrl: https://a.test/?to=%sms_to% → https://b.test/'
		]);
	});

	it('shows a changed secret only as the mask, and an unchanged one not at all', () => {
		const secret = (value: string, body = 'x') =>
			doc({ scenarios: [{ name: 'S', values: { 'account[password]': value, sms_body: body } }] });
		expect(diffDocuments(secret('old'), secret('old', 'y')).map((c) => c.path)).toEqual([
			'scenarios["S"].values.sms_body'
		]);
		const changed = diffDocuments(secret('old'), secret('new'));
		expect(changed).toEqual([
			{
				path: 'scenarios["S"].values.account[password]',
				kind: 'changed',
				before: SECRET_MASK,
				after: SECRET_MASK
			}
		]);
		expect(JSON.stringify(changed)).not.toMatch(/old|new/);
	});

	it('shows a secret set or removed as the mask against an empty string', () => {
		const secret = (value: string) =>
			doc({ scenarios: [{ name: 'S', values: { password: value } }] });
		expect(render(diffDocuments(secret(''), secret('set')))).toEqual([
			`changed scenarios["S"].values.password:  → ${SECRET_MASK}`
		]);
		expect(render(diffDocuments(secret('gone'), secret('')))).toEqual([
			`changed scenarios["S"].values.password: ${SECRET_MASK} → `
		]);
		const added = diffDocuments(doc(), secret('fresh'));
		expect(added.find((c) => c.path.endsWith('password'))).toEqual({
			path: 'scenarios["S"].values.password',
			kind: 'added',
			before: undefined,
			after: SECRET_MASK
		});
	});

	it('never shows a secret, even one that starts like the internal marker', () => {
		const a = doc({ scenarios: [{ name: 'S', values: { 'account[password]': '\u0000abc' } }] });
		const b = doc({ scenarios: [{ name: 'S', values: { 'account[password]': 'abc' } }] });
		const changes = diffDocuments(a, b);
		expect(JSON.stringify(changes)).not.toContain('abc');
		expect(changes).toHaveLength(1);
	});

	it('does not mistake a plain value starting with NUL for a secret', () => {
		const a = doc({ scenarios: [{ name: 'S', values: { sms_body: '\u0000hi' } }] });
		const b = doc({ scenarios: [{ name: 'S', values: { sms_body: 'hi' } }] });
		expect(diffDocuments(a, b)).toEqual([
			{ path: 'scenarios["S"].values.sms_body', kind: 'changed', before: '\u0000hi', after: 'hi' }
		]);
	});
});

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
});
