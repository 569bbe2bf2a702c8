import { ACCOUNT_VARIABLES } from './variables';

/**
 * Account keys a profile declares itself: the elements of its own account XML (`<apiUser>`,
 * `<authUsername>`), which the app fills as `%account[name]%` like the documented ones. Which of
 * them are credentials is decided here, as data: the catalogue's secret account keys, plus names
 * made of a word that names a credential.
 */

/** An account element a profile's XML declares, with the value it gives. */
export interface DeclaredAccountKey {
	/** The element name, written `%account[name]%`. */
	name: string;
	/** The text of the element (the mask for a stored credential). */
	value: string;
	/** True for a credential: sealed at rest, never shown, never used as a preview default. */
	secret: boolean;
}

/**
 * Words of an element name that make it a credential. A name is cut into words at `_`, `-`, `.`
 * and lower-to-upper case changes (`apiPass` → `api`, `pass`); the long words also count inside
 * a word (`sippassword`).
 */
export const SECRET_NAME_RULE = {
	words: ['pass', 'passwd', 'password', 'pwd', 'pin', 'secret', 'token', 'key', 'apikey'],
	inside: ['password', 'passwd', 'secret', 'token', 'apikey']
} as const;

const DOCUMENTED_SECRETS = new Set(ACCOUNT_VARIABLES.filter((v) => v.secret).map((v) => v.name));

/** The words of an element name, lower case (`cloud_password` → `cloud`, `password`). */
export function nameWords(name: string): string[] {
	return name
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
		.split(/[\s_.-]+/)
		.filter((w) => w !== '')
		.map((w) => w.toLowerCase());
}

/** True when an account element of this name holds a credential. */
export function isSecretAccountKey(name: string): boolean {
	if (DOCUMENTED_SECRETS.has(name)) return true;
	const words = nameWords(name);
	const rule = SECRET_NAME_RULE;
	return words.some(
		(w) =>
			(rule.words as readonly string[]).includes(w) || rule.inside.some((part) => w.includes(part))
	);
}

/** A name `%account[…]%` can hold: an XML element name without a namespace prefix. */
export function isAccountKeyName(name: string): boolean {
	return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name);
}
