import { describe, expect, it } from 'vitest';
import { diffDocuments, documentPathLabel, flattenDocument, type FieldChange } from './diff';
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
			'scenarios["Text \\"1\\""]': '',
			'scenarios["Text \\"1\\""].values.sms_to': '["+1","+2"]',
			'scenarios["Text \\"1\\""].values.interestedParties': '[{"username":"u","device":"d"}]',
			rawSubstitution: 'off',
			'preservedXml[0]': '<x/>'
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
			'changed rawSubstitution: off → on',
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
				label: 'Scenario “S” · %account[password]%',
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
			label: 'Scenario “S” · %password%',
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
			{
				path: 'scenarios["S"].values.sms_body',
				label: 'Scenario “S” · %sms_body%',
				kind: 'changed',
				before: '\u0000hi',
				after: 'hi'
			}
		]);
	});
});

describe('diffDocuments labels', () => {
	it("names every field in the catalogue's words, never by its path", () => {
		const before = doc({
			services: {
				mediaRefSend: { genericMediaRefSendMethod: 'PUT' },
				sendMessage: { genericSmsPostData: 'a=1', myOwnKey: 'x' }
			},
			preservedXml: [
				{ path: 'provisioning/account/core', index: 1, xml: '<codec a="1">opus</codec>' },
				{ path: 'provisioning', index: 0, xml: '<!-- note -->' }
			]
		});
		const after = doc({
			services: { sendMessage: { genericSmsSendUrl: 'https://a.test/' } },
			push: { gatewayUrl: 'https://push.test', appId: '', target: 'unknown' },
			scenarios: [{ name: 'Two recipients', values: { sms_to: ['+1', '+2'] } }],
			rawSubstitution: true
		});
		const labels = Object.fromEntries(diffDocuments(before, after).map((c) => [c.path, c.label]));
		expect(labels).toEqual({
			'preservedXml[0]': 'Kept XML element <codec> in provisioning/account/core',
			'preservedXml[1]': 'Kept XML in provisioning',
			'push.gatewayUrl': 'Push gateway URL',
			rawSubstitution: 'Raw substitution',
			'scenarios["Two recipients"]': 'Scenario “Two recipients”',
			'scenarios["Two recipients"].values.sms_to': 'Scenario “Two recipients” · %sms_to%',
			'services.mediaRefSend.genericMediaRefSendMethod': 'Media Reference Send · Method',
			'services.sendMessage.genericSmsPostData':
				'Send Message · genericSmsPostData (deprecated, replaced by Post data)',
			'services.sendMessage.genericSmsSendUrl': 'Send Message · URL',
			'services.sendMessage.myOwnKey': 'Send Message · myOwnKey'
		});
		for (const label of Object.values(labels)) {
			expect(label).not.toMatch(/services\.|preservedXml|\[\d+\]/);
		}
	});

	it('shows a kept element as its own XML, not its internal position', () => {
		const kept = { path: 'provisioning/account/core', index: 3, xml: '<codec>opus</codec>' };
		const [change] = diffDocuments(doc(), doc({ preservedXml: [kept] }));
		expect(change).toMatchObject({ kind: 'added', after: '<codec>opus</codec>' });
	});
});

describe('documentPathLabel', () => {
	it('names a place of a document in the same words as a change', () => {
		const document = doc({
			scenarios: [{ name: 'Text message', values: {} }],
			preservedXml: [{ path: 'provisioning', index: 0, xml: '<big>…</big>' }]
		});
		const label = (path: PropertyKey[]) => documentPathLabel(path, document);
		expect(label(['services', 'mediaRefSend', 'genericMediaRefSendMethod'])).toBe(
			'Media Reference Send · Method'
		);
		expect(label(['services', 'sendMessage'])).toBe('Send Message');
		expect(label(['push', 'appId'])).toBe('Push app ID');
		expect(label(['scenarios', 0, 'values', 'sms_to'])).toBe('Scenario “Text message” · %sms_to%');
		expect(label(['scenarios', 3, 'name'])).toBe('Scenario “number 4”');
		expect(label(['preservedXml', 0, 'xml'])).toBe('Kept XML element <big> in provisioning');
		expect(label(['preservedXml'])).toBe('Kept XML elements');
		expect(label([])).toBe('The profile');
	});
});
