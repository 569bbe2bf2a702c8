import { deprecatedXmlKeys, placedKeys, type PlacedDeprecatedKey, type PlacedKey } from './placed';
import { SERVICES } from './services';

/**
 * Where each setting lives, derived once from the whole catalogue's key locations: the keys the
 * additional provisioning XML carries (and the two documents that carry them), the keys an admin
 * types into the portal instead, and the deprecated XML keys with their replacements.
 */

export * from './placed';

/** The keys written in the XML, in catalogue order (the order an export writes them). */
export const XML_KEYS: readonly PlacedKey[] = placedKeys(SERVICES, 'accountXml');

/** The keys set in the portal, outside the XML, in catalogue order. */
export const PORTAL_KEYS: readonly PlacedKey[] = placedKeys(SERVICES, 'portal');

/** Deprecated keys whose replacement is written in the XML (`genericSmsPostData`). */
export const DEPRECATED_XML_KEYS: readonly PlacedDeprecatedKey[] = deprecatedXmlKeys(SERVICES);
