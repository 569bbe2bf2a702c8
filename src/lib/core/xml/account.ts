import {
	isAccountKeyName,
	isSecretAccountKey,
	SECRET_NAME_RULE,
	type DeclaredAccountKey
} from '../catalogue/account-keys';
import { deprecatedXmlKeyNamed, portalKeyNamed, xmlKeyNamed } from '../catalogue/placed';
import type { ProfileDocument } from '../profile/schema';
import { SETTINGS_PATH } from './forms';
import { isXmlChar } from './chars';

/**
 * What a profile's kept XML says about its accounts: the elements of the settings element that
 * are not settings are account values (`<authUsername>`, a provider's own `<apiUser>`), filled
 * by the app as `%account[name]%`; those that are credentials (`<password>`, `<apiPass>`) are
 * secrets, like secret sample values.
 */

type Kept = ProfileDocument['preservedXml'][number];

/** Most kept elements name no credential: only those with a telling word are read. */
const MAY_BE_SECRET = new RegExp(
	`<[^>]*(${[...SECRET_NAME_RULE.words, ...SECRET_NAME_RULE.inside].join('|')})`,
	'i'
);

// Kept elements were read as well-formed XML when they were imported, so their tags can be found
// without a parser (which keeps the XML reader out of the editor's bundle).
const COMMENT = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>/g;
const CDATA = /<!\[CDATA\[([\s\S]*?)\]\]>/g;
const TAG = /<(?:[^>"']|"[^"]*"|'[^']*')*>/g;
const START_NAME = /<([A-Za-z_][A-Za-z0-9_.:-]*)/g;

/**
 * The name of a kept element that holds a credential (its own name or a child's says so, and it
 * has text), else null.
 */
export function credentialElementName(xml: string): string | null {
	if (!MAY_BE_SECRET.test(xml)) return null;
	let text = '';
	const markup = xml.replace(COMMENT, '').replace(CDATA, (_, inner: string) => {
		text += inner;
		return '';
	});
	const names = [...markup.matchAll(START_NAME)].map((m) => m[1]);
	text += markup.replace(TAG, '');
	if (names.length === 0 || !names.some(isSecretAccountKey) || text.trim() === '') return null;
	return names[0];
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const REFERENCE = /&(?:#x([0-9A-Fa-f]+)|#([0-9]+)|(amp|lt|gt|quot|apos));/g;

/** Element text with XML's references decoded (a character XML cannot hold stays as written). */
function decodeText(text: string): string {
	return text.replace(REFERENCE, (whole, hex?: string, decimal?: string, name?: string) => {
		if (name) return PREDEFINED[name];
		const cp = hex ? parseInt(hex, 16) : Number(decimal);
		return isXmlChar(cp) ? String.fromCodePoint(cp) : whole;
	});
}

/** How a stored credential element is shown: its name, its value as the mask. */
export function maskedCredential(name: string, mask: string): string {
	return `<${name}>${mask}</${name}>`;
}

/** A credential element as stored in the document: its name, no value (the value is sealed). */
export function emptiedCredential(name: string): string {
	return `<${name}/>`;
}

/** The key a kept credential is sealed under: its place and name. */
export function credentialKey(kept: Pick<Kept, 'path' | 'index'>, name: string): string {
	return `${kept.path}#${kept.index}#${name}`;
}

const SIMPLE = /^<([A-Za-z_][A-Za-z0-9_.-]*)(?:\s[^<>]*)?(?:\/>|>[^<]*<\/\1\s*>)$/;

/**
 * The account keys a profile's kept XML declares: plain elements of the settings element that
 * are not settings, in document order, the first of a name counting. A credential's value is
 * not read (it is sealed, or shown as the mask).
 */
export function declaredAccountKeys(preserved: readonly Kept[]): DeclaredAccountKey[] {
	const declared: DeclaredAccountKey[] = [];
	const seen = new Set<string>();
	const ordered = preserved
		.filter((p) => p.path === SETTINGS_PATH)
		.sort((a, b) => a.index - b.index);
	for (const kept of ordered) {
		const xml = kept.xml.trim();
		const name = SIMPLE.exec(xml)?.[1];
		if (!name || seen.has(name) || !isAccountKeyName(name)) continue;
		if (xmlKeyNamed(name) || deprecatedXmlKeyNamed(name) || portalKeyNamed(name)) continue;
		seen.add(name);
		const secret = isSecretAccountKey(name);
		const text = /^<[^>]*>([\s\S]*)<\/[^>]*>$/.exec(xml)?.[1] ?? '';
		declared.push({ name, value: secret ? '' : decodeText(text).replace(/\r\n?/g, '\n'), secret });
	}
	return declared;
}
