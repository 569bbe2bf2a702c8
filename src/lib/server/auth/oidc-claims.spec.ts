import { describe, expect, it } from 'vitest';
import {
	claimAt,
	domainAllowed,
	emailOf,
	groupsIn,
	nameOf,
	roleFor,
	shownGroups
} from './oidc-claims';

const MAPPING = { admin: ['studio-admins'], editor: ['/corp/dev'], viewer: ['studio-viewers'] };

describe('the claims of an identity provider', () => {
	it('read a nested claim by its dotted path, and a namespaced claim by its whole name', () => {
		const claims = {
			realm_access: { roles: ['studio-admins'] },
			'https://example.com/roles': ['r']
		};
		expect(claimAt(claims, 'realm_access.roles')).toEqual(['studio-admins']);
		expect(claimAt(claims, 'https://example.com/roles')).toEqual(['r']);
		expect(claimAt(claims, 'realm_access.missing.deeper')).toBeUndefined();
		expect(claimAt({ a: ['x'] }, 'a.length')).toBeUndefined();
	});

	it('take a single group sent as a string as a list of one, and skip what is not text', () => {
		expect(groupsIn({ groups: 'studio-viewers' }, 'groups')).toEqual({
			kind: 'list',
			values: ['studio-viewers']
		});
		expect(groupsIn({ groups: ['a', 7, { b: 1 }, null] }, 'groups')).toEqual({
			kind: 'list',
			values: ['a', '7']
		});
		expect(groupsIn({ groups: { a: 1 } }, 'groups')).toEqual({
			kind: 'unreadable',
			type: 'an object'
		});
	});

	it('tell a missing claim from groups left out for being too many (Entra ID)', () => {
		expect(groupsIn({}, 'groups')).toEqual({ kind: 'absent', overage: false });
		const overage = { _claim_names: { groups: 'src1' }, _claim_sources: { src1: {} } };
		expect(groupsIn(overage, 'groups')).toEqual({ kind: 'absent', overage: true });
		expect(groupsIn({ hasgroups: true }, 'groups')).toEqual({ kind: 'absent', overage: true });
	});

	it('give the highest role any group maps, comparing exactly', () => {
		expect(roleFor(['studio-viewers', '/corp/dev'], MAPPING)).toBe('editor');
		expect(roleFor(['studio-viewers', 'studio-admins'], MAPPING)).toBe('admin');
		expect(roleFor(['corp/dev', 'Studio-Admins'], MAPPING)).toBeNull();
		expect(roleFor([], MAPPING)).toBeNull();
	});

	it('count an e-mail verified only when the provider says so', () => {
		expect(emailOf({ email: 'A@Example.test', email_verified: true })).toEqual({
			email: 'a@example.test',
			verified: true
		});
		expect(emailOf({ email: 'a@example.test', email_verified: 'true' }).verified).toBe(true);
		expect(emailOf({ email: 'a@example.test' }).verified).toBe(false);
		expect(emailOf({ email: 'a@example.test', email_verified: 'false' }).verified).toBe(false);
		expect(emailOf({ email: 'not an address', email_verified: true })).toEqual({
			email: null,
			verified: false
		});
		expect(domainAllowed('a@Example.TEST', ['example.test'])).toBe(true);
		expect(domainAllowed('a@sub.example.test', ['example.test'])).toBe(false);
		expect(domainAllowed('a@example.test.evil', ['example.test'])).toBe(false);
	});

	it('cut long names and many groups to what a page can show', () => {
		expect(nameOf({ name: 'n'.repeat(100_000) }, 'a@example.test')).toHaveLength(100);
		expect(nameOf({ given_name: 'Ada', family_name: 'L' }, 'a@example.test')).toBe('Ada L');
		expect(nameOf({ name: '\u0000' }, 'a@example.test')).toBe('a@example.test');
		const many = Array.from({ length: 10_000 }, (_, i) =>
			i === 0 ? 'x'.repeat(100_000) : `g${i}`
		);
		const shown = shownGroups(many);
		expect(shown.total).toBe(10_000);
		expect(shown.shown).toHaveLength(50);
		expect(shown.shown[0]).toHaveLength(201);
	});
});
