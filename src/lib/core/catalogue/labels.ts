import { findService } from './services';

/**
 * The words screens use for a profile's fields, taken from the catalogue: a setting is named by
 * its service and its label ("Send Message · URL"), never by its configuration path.
 */

/** The profile's push settings, in words. */
export const PUSH_SETTING_LABELS: Readonly<Record<string, string>> = {
	gatewayUrl: 'Push gateway URL',
	appId: 'Push app ID',
	target: 'Push target platform'
};

/**
 * A service's setting in words: the service's title and the key's label. A deprecated key says
 * which setting replaces it; a key the catalogue does not know is shown as written.
 */
export function settingLabel(serviceId: string, key: string): string {
	const service = findService(serviceId);
	if (!service) return `${serviceId} · ${key}`;
	const known = service.keys.find((k) => k.key === key);
	if (known) return `${service.title} · ${known.label}`;
	const old = service.deprecatedKeys.find((k) => k.key === key);
	if (old) {
		const replacement = service.keys.find((k) => k.key === old.replacement);
		return `${service.title} · ${key} (deprecated, replaced by ${replacement?.label ?? old.replacement})`;
	}
	return `${service.title} · ${key}`;
}

/** A push setting in words (a field the catalogue does not know is shown as written). */
export function pushSettingLabel(key: string): string {
	return PUSH_SETTING_LABELS[key] ?? `Push · ${key}`;
}

/** The tag of an element's XML text (`<foo a="1">…` → `foo`), or null when there is none. */
export function elementTag(xml: string): string | null {
	return /^\s*<([^\s/>!?]+)/.exec(xml)?.[1] ?? null;
}
