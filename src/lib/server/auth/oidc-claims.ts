import { ROLES, type Role } from '../store/types';

/**
 * Reading what an identity provider says about a user (its claims) into what the app needs: a
 * role from groups, an e-mail address and whether it is verified, a name. Real providers differ
 * (Keycloak nests realm roles, Entra ID sends object ids and leaves the claim out past 200
 * groups, some send one group as a string), so nothing here assumes a tidy list of names.
 */

/** The claims of an ID token or a userinfo answer, as parsed JSON. */
export type Claims = Record<string, unknown>;

/** Which groups give which role, as configured. */
export type GroupMapping = Record<Role, string[]>;

/**
 * The value at a claim's path: the claim of that exact name when there is one (namespaced claims
 * such as `https://example.com/roles` hold dots), else the dotted path walked through objects.
 */
export function claimAt(claims: Claims, path: string): unknown {
	if (Object.hasOwn(claims, path)) return claims[path];
	let value: unknown = claims;
	for (const part of path.split('.')) {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
		if (!Object.hasOwn(value, part)) return undefined;
		value = (value as Record<string, unknown>)[part];
	}
	return value;
}

/** The groups found at the roles claim, or why there are none. */
export type GroupsFound =
	| { kind: 'list'; values: string[] }
	/** `overage`: the provider said it left the groups out (Entra ID past 200 groups). */
	| { kind: 'absent'; overage: boolean }
	| { kind: 'unreadable'; type: string };

/**
 * The groups a user's claims hold at `path`. A string is a list of one (some providers send a
 * single group that way); numbers count as their text; other entries of a list are skipped.
 */
export function groupsIn(claims: Claims, path: string): GroupsFound {
	const value = claimAt(claims, path);
	if (value === undefined || value === null) {
		const names = claims._claim_names;
		const overage =
			claims.hasgroups === true ||
			(typeof names === 'object' && names !== null && Object.hasOwn(names, path.split('.')[0]));
		return { kind: 'absent', overage };
	}
	if (typeof value === 'string') return { kind: 'list', values: [value] };
	if (typeof value === 'number') return { kind: 'list', values: [String(value)] };
	if (Array.isArray(value)) {
		const values: string[] = [];
		for (const item of value) {
			if (typeof item === 'string') values.push(item);
			else if (typeof item === 'number') values.push(String(item));
		}
		return { kind: 'list', values };
	}
	return { kind: 'unreadable', type: typeof value === 'object' ? 'an object' : typeof value };
}

/** The highest role any of the groups gives, or null when none maps. Groups compare exactly. */
export function roleFor(groups: readonly string[], mapping: GroupMapping): Role | null {
	const held = new Set(groups);
	for (const role of [...ROLES].reverse()) {
		if (mapping[role].some((group) => held.has(group))) return role;
	}
	return null;
}

/** Whether `role` is below `than`. */
export function isLower(role: Role, than: Role): boolean {
	return ROLES.indexOf(role) < ROLES.indexOf(than);
}

/** How many received groups a refusal shows, and how many characters of each. */
export const SHOWN_GROUPS = 50;
export const SHOWN_GROUP_LENGTH = 200;

/**
 * The groups as a refusal page shows them: the first {@link SHOWN_GROUPS}, each cut to
 * {@link SHOWN_GROUP_LENGTH} characters, and how many there were (10,000 groups or a group name
 * of 100 KB must not make a page of megabytes).
 */
export function shownGroups(values: readonly string[]): { shown: string[]; total: number } {
	return {
		shown: values
			.slice(0, SHOWN_GROUPS)
			.map((v) => (v.length > SHOWN_GROUP_LENGTH ? `${v.slice(0, SHOWN_GROUP_LENGTH)}…` : v)),
		total: values.length
	};
}

/** A claim's text cut to `max` characters, control characters removed; '' when not a string. */
export function claimText(value: unknown, max: number): string {
	if (typeof value !== 'string') return '';
	return (
		value
			// eslint-disable-next-line no-control-regex -- control characters are what is removed
			.replace(/[\u0000-\u001f\u007f]/g, '')
			.trim()
			.slice(0, max)
	);
}

/** The e-mail address a provider says the user has, and whether it says it is verified. */
export function emailOf(claims: Claims): { email: string | null; verified: boolean } {
	const raw = claimText(claims.email, 320).toLowerCase();
	const email = /^[^\s@]{1,100}@[^\s@]{1,200}$/.test(raw) ? raw : null;
	// Absent counts as not verified; a few providers send the flag as text.
	const flag = claims.email_verified;
	return { email, verified: email !== null && (flag === true || flag === 'true') };
}

/** Whether a verified address is in one of the allowed domains (compared without case). */
export function domainAllowed(email: string, domains: readonly string[]): boolean {
	const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
	return domains.some((d) => d.toLowerCase() === domain);
}

/** The user's name from the claims, at most 100 characters; the e-mail when none is given. */
export function nameOf(claims: Claims, email: string): string {
	const given = [claimText(claims.given_name, 100), claimText(claims.family_name, 100)]
		.filter(Boolean)
		.join(' ');
	return (
		claimText(claims.name, 100) ||
		given.slice(0, 100) ||
		claimText(claims.preferred_username, 100) ||
		email.slice(0, 100)
	);
}
