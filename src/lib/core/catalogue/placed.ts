import { fromKnown } from './known';
import { ACCOUNT_CORE_PATH } from './keys';
import type { ConfigKey, DeprecatedKey, KeyLocation, Service } from './schema';

/**
 * Where each known setting lives, looked up by name: what the editor's first load needs of the
 * keys' placement, without the whole catalogue (`placement.ts` lists every key of it).
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

/** The keys of these services set in this place, in catalogue order. */
export function placedKeys(
	services: readonly Service[],
	kind: 'accountXml' | 'portal'
): PlacedKey[] {
	return services.flatMap((service) =>
		service.keys.filter((key) => key.location.kind === kind).map((key) => ({ service, key }))
	);
}

/** Deprecated keys of these services whose replacement is written in the XML. */
export function deprecatedXmlKeys(services: readonly Service[]): PlacedDeprecatedKey[] {
	const xml = new Map(placedKeys(services, 'accountXml').map((p) => [p.key.key, p]));
	return services.flatMap((service) =>
		service.deprecatedKeys
			.filter((d) => xml.get(d.replacement)?.service === service)
			.map((deprecated) => ({ service, deprecated }))
	);
}

const xmlByName = fromKnown(
	(services) => new Map(placedKeys(services, 'accountXml').map((p) => [p.key.key, p]))
);
const portalByName = fromKnown(
	(services) => new Map(placedKeys(services, 'portal').map((p) => [p.key.key, p]))
);
const deprecatedByName = fromKnown(
	(services) => new Map(deprecatedXmlKeys(services).map((d) => [d.deprecated.key, d]))
);

/** The XML setting with this element name, or undefined. */
export function xmlKeyNamed(name: string): PlacedKey | undefined {
	return xmlByName().get(name);
}

/** The portal setting with this name, or undefined. */
export function portalKeyNamed(name: string): PlacedKey | undefined {
	return portalByName().get(name);
}

/** The deprecated XML key with this element name, or undefined. */
export function deprecatedXmlKeyNamed(name: string): PlacedDeprecatedKey | undefined {
	return deprecatedByName().get(name);
}

/** True when this key of this service is written in the XML (a deprecated spelling included). */
export function isXmlKey(service: Service, key: string): boolean {
	const placedKey = xmlByName().get(key) ?? deprecatedByName().get(key);
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
