import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyDocument, ProfileDocumentSchema, type ProfileDocument } from './schema';
import { diffDocuments } from './diff';
import { isSecretKey } from './secret-keys';
import {
	bindSecrets,
	joinSecrets,
	keepMaskedSecrets,
	SECRET_MASK,
	splitSecrets,
	type SecretValues
} from './secrets';

function withScenarios(...scenarios: ProfileDocument['scenarios']): ProfileDocument {
	return { ...emptyDocument(), scenarios };
}

/** A round trip through storage: secrets are stored as JSON, sealed. */
function stored(secrets: SecretValues): SecretValues {
	return JSON.parse(JSON.stringify(secrets)) as SecretValues;
}

const POLLUTED = ['account[password]', 'account[cloud_password]', 'password'];

afterEach(() => {
	// A test that pollutes the prototypes must not leak into the next one.
	for (const key of POLLUTED) {
		delete (Object.prototype as Record<string, unknown>)[key];
		delete (Object as unknown as Record<string, unknown>)[key];
	}
});

describe('isSecretKey', () => {
	it('knows the catalogue secrets and nothing else', () => {
		expect(['account[password]', 'account[cloud_password]', 'password'].map(isSecretKey)).toEqual([
			true,
			true,
			true
		]);
		expect(['account[username]', 'sms_to', 'passwd', 'Password', ''].map(isSecretKey)).toEqual([
			false,
			false,
			false,
			false,
			false
		]);
	});
});

describe('splitSecrets', () => {
	it('takes secret values out of the document, leaving empty strings in their place', () => {
		const document = withScenarios(
			{ name: 'A', values: { 'account[password]': 'pw-a', sms_to: '+1', password: 'sso' } },
			{ name: 'B', values: { 'account[cloud_password]': 'cloud', 'account[password]': '' } }
		);
		const split = splitSecrets(document);
		expect(split.secrets).toEqual({
			A: { 'account[password]': 'pw-a', password: 'sso' },
			B: { 'account[cloud_password]': 'cloud' }
		});
		expect(split.document.scenarios).toEqual([
			{ name: 'A', values: { 'account[password]': '', sms_to: '+1', password: '' } },
			{ name: 'B', values: { 'account[cloud_password]': '', 'account[password]': '' } }
		]);
		expect(JSON.stringify(split.document)).not.toMatch(/pw-a|sso|cloud"/);
		expect(document.scenarios[0].values['account[password]']).toBe('pw-a');
	});

	it('keeps scenarios named like Object members apart, without touching prototypes', () => {
		const document = withScenarios(
			{ name: '__proto__', values: { 'account[password]': 'proto-secret' } },
			{ name: 'constructor', values: { 'account[password]': 'ctor-secret' } },
			{ name: 'toString', values: { password: 'tostring-secret' } }
		);
		const { document: rest, secrets } = splitSecrets(document);
		expect(({} as Record<string, unknown>)['account[password]']).toBeUndefined();
		expect((Object as unknown as Record<string, unknown>)['account[password]']).toBeUndefined();
		const back = joinSecrets(rest, stored(secrets), 'values');
		expect(back).toEqual(document);
	});
});

describe('joinSecrets', () => {
	const document = withScenarios(
		{ name: 'A', values: { 'account[password]': 'pw', sms_to: '+1' } },
		{ name: 'B', values: { sms_to: '+2' } }
	);

	it('puts the values back, or the mask', () => {
		const { document: rest, secrets } = splitSecrets(document);
		expect(joinSecrets(rest, stored(secrets), 'values')).toEqual(document);
		expect(joinSecrets(rest, stored(secrets), 'mask').scenarios).toEqual([
			{ name: 'A', values: { 'account[password]': SECRET_MASK, sms_to: '+1' } },
			{ name: 'B', values: { sms_to: '+2' } }
		]);
	});

	it('ignores secrets of scenarios the document does not have, or inherited ones', () => {
		const { document: rest } = splitSecrets(document);
		const joined = joinSecrets(rest, { Z: { 'account[password]': 'x' } }, 'values');
		expect(joined).toEqual(rest);
		(Object.prototype as Record<string, unknown>).A = { 'account[password]': 'inherited' };
		try {
			expect(joinSecrets(rest, {}, 'values')).toEqual(rest);
		} finally {
			delete (Object.prototype as Record<string, unknown>).A;
		}
	});

	it('round-trips any document with split (property)', () => {
		const name = fc.oneof(
			fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'A'),
			fc.string({ minLength: 1, maxLength: 8 }).map((s) => s.trim() || 'x')
		);
		const values = fc.dictionary(
			fc.constantFrom('account[password]', 'account[cloud_password]', 'password', 'sms_to', 'x'),
			fc.string({ maxLength: 12 })
		);
		const scenarios = fc.uniqueArray(fc.record({ name, values }), {
			selector: (s) => s.name,
			maxLength: 5
		});
		fc.assert(
			fc.property(scenarios, (list) => {
				const document = ProfileDocumentSchema.parse({ scenarios: list });
				const { document: rest, secrets } = splitSecrets(document);
				for (const scenario of rest.scenarios) {
					for (const [key, value] of Object.entries(scenario.values)) {
						if (isSecretKey(key)) expect(value).toBe('');
					}
				}
				const back = joinSecrets(rest, stored(secrets), 'values');
				// An empty secret stays an empty string; everything else comes back as it was.
				expect(back).toEqual(document);
				expect(({} as Record<string, unknown>)['account[password]']).toBeUndefined();
			})
		);
	});
});

describe('keepMaskedSecrets', () => {
	const previous = stored({ A: { 'account[password]': 'old', password: 'sso-old' } });

	it('keeps the stored value for the mask, takes a new value, drops an empty one', () => {
		expect(
			keepMaskedSecrets({ A: { 'account[password]': SECRET_MASK, password: 'sso-new' } }, previous)
		).toEqual({ A: { 'account[password]': 'old', password: 'sso-new' } });
		expect(keepMaskedSecrets({ A: { 'account[password]': '' } }, previous)).toEqual({});
	});

	it('drops the mask when nothing was stored for that scenario and key', () => {
		expect(keepMaskedSecrets({ B: { 'account[password]': SECRET_MASK } }, previous)).toEqual({});
		expect(keepMaskedSecrets({ A: { 'account[cloud_password]': SECRET_MASK } }, previous)).toEqual(
			{}
		);
	});

	it('never takes a value from a prototype (no secret of another profile leaks in)', () => {
		// Another profile's save once polluted the prototypes; a mask must not pick that up.
		for (const key of POLLUTED) {
			(Object.prototype as Record<string, unknown>)[key] = 'polluted';
			(Object as unknown as Record<string, unknown>)[key] = 'polluted';
		}
		const kept = keepMaskedSecrets(
			{
				constructor: { 'account[password]': SECRET_MASK },
				__proto__: { 'account[password]': SECRET_MASK },
				A: { 'account[cloud_password]': SECRET_MASK }
			} as unknown as SecretValues,
			previous
		);
		expect(JSON.stringify(kept)).not.toContain('polluted');
	});

	it('keeps secrets of a scenario named __proto__ or constructor', () => {
		const before = stored(
			splitSecrets(
				withScenarios(
					{ name: '__proto__', values: { 'account[password]': 'p1' } },
					{ name: 'constructor', values: { 'account[password]': 'c1' } }
				)
			).secrets
		);
		const incoming = splitSecrets(
			withScenarios(
				{ name: '__proto__', values: { 'account[password]': SECRET_MASK } },
				{ name: 'constructor', values: { 'account[password]': SECRET_MASK } }
			)
		).secrets;
		expect(stored(keepMaskedSecrets(incoming, before))).toEqual(before);
		expect(Object.keys(before)).toEqual(['__proto__', 'constructor']);
	});
});

describe('ProfileDocumentSchema', () => {
	it('refuses two scenarios with the same name (secrets are stored by name)', () => {
		const result = ProfileDocumentSchema.safeParse({
			scenarios: [
				{ name: 'A', values: { 'account[password]': 'one' } },
				{ name: ' A ', values: { 'account[password]': 'two' } }
			]
		});
		expect(result.success).toBe(false);
		expect(result.error?.issues.map((i) => i.path)).toEqual([['scenarios', 1, 'name']]);
	});

	it('refuses a secret that is not text (it could not be sealed)', () => {
		const result = ProfileDocumentSchema.safeParse({
			scenarios: [{ name: 'A', values: { 'account[password]': ['in', 'clear'] } }]
		});
		expect(result.success).toBe(false);
		expect(result.error?.issues.map((i) => i.path)).toEqual([
			['scenarios', 0, 'values', 'account[password]']
		]);
	});

	it('accepts lists for values that are not secret', () => {
		const result = ProfileDocumentSchema.safeParse({
			scenarios: [{ name: 'A', values: { sms_to: ['+1', '+2'] } }]
		});
		expect(result.success).toBe(true);
	});
});

describe('bindSecrets', () => {
	const A = ['https://a.example'];
	const B = ['https://b.example'];

	it('binds a typed secret to the save’s origins and keeps the binding of a masked one', () => {
		const kept = { Text: { 'account[password]': 'pw', password: 'old' } };
		const incoming = { Text: { 'account[password]': 'pw', password: SECRET_MASK } };
		const previous = { Text: { password: A } };
		expect(bindSecrets(incoming, kept, previous, B)).toEqual({
			Text: { 'account[password]': B, password: A }
		});
	});

	it('binds a masked secret with no binding yet to nothing', () => {
		const kept = { Text: { password: 'old' } };
		expect(bindSecrets({ Text: { password: SECRET_MASK } }, kept, {}, A)).toEqual({
			Text: { password: [] }
		});
	});
});

describe('secret settings', () => {
	const document: ProfileDocument = {
		...emptyDocument(),
		services: {
			webServiceContacts: {
				wsContactsUrl: 'https://c.example.com/contacts',
				wsContactsAuthUsername: 'alice',
				wsContactsAuthPassword: 'digest-pw'
			}
		}
	};

	it('seal the Digest password like a secret value, and show it as the mask', () => {
		const split = splitSecrets(document);
		expect(JSON.stringify(split.document)).not.toContain('digest-pw');
		expect(split.document.services.webServiceContacts).toEqual({
			wsContactsUrl: 'https://c.example.com/contacts',
			wsContactsAuthUsername: 'alice',
			wsContactsAuthPassword: ''
		});
		expect(joinSecrets(split.document, stored(split.secrets), 'values')).toEqual(document);
		const masked = joinSecrets(split.document, stored(split.secrets), 'mask');
		expect(masked.services.webServiceContacts?.wsContactsAuthPassword).toBe(SECRET_MASK);
	});

	it('show a changed password as the mask in a difference', () => {
		const changed = structuredClone(document);
		changed.services.webServiceContacts!.wsContactsAuthPassword = 'another-pw';
		const changes = diffDocuments(document, changed);
		expect(changes).toEqual([
			expect.objectContaining({ kind: 'changed', before: SECRET_MASK, after: SECRET_MASK })
		]);
		expect(JSON.stringify(changes)).not.toMatch(/digest-pw|another-pw/);
	});

	it('keep the stored password when the mask comes back, bound where it was typed', () => {
		const first = splitSecrets(document).secrets;
		const origins = ['https://c.example.com'];
		const bound = bindSecrets(first, first, {}, origins);
		const again = splitSecrets(joinSecrets(splitSecrets(document).document, first, 'mask'));
		const kept = keepMaskedSecrets(again.secrets, first);
		expect(kept).toEqual(first);
		expect(bindSecrets(again.secrets, kept, bound, ['https://evil.example'])).toEqual(bound);
	});
});
