import { XML_FORMS, type XmlFormRule } from '../catalogue/placed';

/**
 * Element paths of the two XML forms. Preserved elements are stored under the provisioning
 * form's paths; the account form's root is the provisioning form's settings element, and it has
 * no place for the provisioning form's other containers.
 */

const CANONICAL = XML_FORMS.provisioning;

/** The container paths of a form, outermost first (`provisioning`, …, the settings path). */
export function containerPaths(rule: XmlFormRule): string[] {
	const names = rule.settingsPath.split('/');
	return names.map((_, i) => names.slice(0, i + 1).join('/'));
}

/** A form's element path as stored in a profile, or null when the profile has no such place. */
export function toStoredPath(path: string, rule: XmlFormRule): string | null {
	if (path === rule.settingsPath) return CANONICAL.settingsPath;
	return rule === CANONICAL ? path : null;
}

/** A stored element path as written in a form, or null when the form has no such place. */
export function toFormPath(path: string, rule: XmlFormRule): string | null {
	if (path === CANONICAL.settingsPath) return rule.settingsPath;
	return rule === CANONICAL && containerPaths(rule).includes(path) ? path : null;
}

/** The stored path of the settings element (`provisioning/account/core`). */
export const SETTINGS_PATH = CANONICAL.settingsPath;
