import { ACCOUNT_CORE_PATH } from './keys';
import type { ConfigKey, DeprecatedKey, KeyLocation, Service } from './schema';
import { SERVICES } from './services';

/**
 * Where each setting lives, derived once from the catalogue's key locations: the keys the
 * additional provisioning XML carries (and the two documents that carry them), the keys an admin
 * types into the portal instead, and the deprecated XML keys with their replacements.
 */

/** The two XML documents a profile is exported as. */
export type XmlForm = 'provisioning' | 'account';

/** One XML document shape: its root and the element path whose children are the settings. */
export interface XmlFormRule {
	form: XmlForm;
	label: string;
	root: string;
	/** The element path holding the settings, e.g. `provisioning/account/core`. */
	settingsPath: string;
}

/**
 * The additional provisioning XML writes account-level settings under `provisioning/account/core`
 * (the catalogue's location of those keys); an external provisioning answer is an `<account>`
 * document whose settings are its plain child elements.
 */
export const XML_FORMS: Record<XmlForm, XmlFormRule> = {
	provisioning: {
		form: 'provisioning',
		label: 'Additional provisioning XML',
		root: 'provisioning',
		settingsPath: ACCOUNT_CORE_PATH
	},
	account: {
		form: 'account',
		label: 'Account document (external provisioning answer)',
		root: 'account',
		settingsPath: 'account'
	}
};

/** A setting key with its service. */
export interface PlacedKey {
	service: Service;
	key: ConfigKey;
}

/** A deprecated XML key with its service and the key that replaces it. */
export interface PlacedDeprecatedKey {
	service: Service;
	deprecated: DeprecatedKey;
}

function placed(kind: 'accountXml' | 'portal'): PlacedKey[] {
	return SERVICES.flatMap((service) =>
		service.keys.filter((key) => key.location.kind === kind).map((key) => ({ service, key }))
	);
}

/** The keys written in the XML, in catalogue order (the order an export writes them). */
export const XML_KEYS: readonly PlacedKey[] = placed('accountXml');

/** The keys set in the portal, outside the XML, in catalogue order. */
export const PORTAL_KEYS: readonly PlacedKey[] = placed('portal');

const XML_BY_NAME = new Map(XML_KEYS.map((p) => [p.key.key, p]));
const PORTAL_BY_NAME = new Map(PORTAL_KEYS.map((p) => [p.key.key, p]));

/** Deprecated keys whose replacement is written in the XML (`genericSmsPostData`). */
export const DEPRECATED_XML_KEYS: readonly PlacedDeprecatedKey[] = SERVICES.flatMap((service) =>
	service.deprecatedKeys
		.filter((d) => XML_BY_NAME.get(d.replacement)?.service === service)
		.map((deprecated) => ({ service, deprecated }))
);

const DEPRECATED_BY_NAME = new Map(DEPRECATED_XML_KEYS.map((d) => [d.deprecated.key, d]));

/** The XML setting with this element name, or undefined. */
export function xmlKeyNamed(name: string): PlacedKey | undefined {
	return XML_BY_NAME.get(name);
}

/** The portal setting with this name, or undefined. */
export function portalKeyNamed(name: string): PlacedKey | undefined {
	return PORTAL_BY_NAME.get(name);
}

/** The deprecated XML key with this element name, or undefined. */
export function deprecatedXmlKeyNamed(name: string): PlacedDeprecatedKey | undefined {
	return DEPRECATED_BY_NAME.get(name);
}

/** True when this key of this service is written in the XML (a deprecated spelling included). */
export function isXmlKey(service: Service, key: string): boolean {
	const placedKey = XML_BY_NAME.get(key) ?? DEPRECATED_BY_NAME.get(key);
	return placedKey?.service === service;
}

/**
 * Where a key is set, in words. Here rather than with the other descriptions (`describe.ts`):
 * the editor shows it under every field, and needs none of the others.
 */
export function describeLocation(location: KeyLocation): string {
	return location.kind === 'accountXml'
		? `Additional provisioning XML, ${location.path}`
		: `Portal, ${location.step}`;
}
