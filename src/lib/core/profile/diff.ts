import { elementTag, pushSettingLabel, settingLabel } from '../catalogue/labels';
import { findService } from '../catalogue/services';
import { credentialElementName, maskedCredential } from '../xml/account';
import { eachField } from './same';
import type { ProfileDocument } from './schema';
import { isSecretKey, isSecretSetting } from './secret-keys';
import { SECRET_MASK } from './secrets';

/**
 * Field-by-field differences between two profile documents. Each field has a stable path
 * (`services.sendMessage.genericSmsSendUrl`, `scenarios["Text message"].values.sms_to`) that
 * programs can rely on, and a label in the catalogue's words that screens show ("Send Message ·
 * URL", "Scenario “Text message” · %sms_to%", "Kept XML element <codec>").
 * Secret values are never shown, only that they changed.
 */

/** One field that differs. `before`/`after` are undefined where the field does not exist. */
export interface FieldChange {
	/** Where the field is in the document (stable, for programs). */
	path: string;
	/** What the field is, in the catalogue's words (for people). */
	label: string;
	kind: 'added' | 'removed' | 'changed';
	before?: string;
	after?: string;
}

/**
 * A flattened field: its value as compared, its label, whether it is a secret (never shown:
 * `masked` instead, or the mask), and what is shown when that differs from the value.
 */
interface Field {
	value: string;
	label: string;
	secret: boolean;
	shown?: string;
	masked?: string;
}

/** A kept element in words: its tag, and where it sits in the XML. */
export function keptElementLabel(element: { path: string; xml: string }): string {
	const tag = elementTag(element.xml);
	return tag ? `Kept XML element <${tag}> in ${element.path}` : `Kept XML in ${element.path}`;
}

/**
 * A field's path (`services.sendMessage.genericSmsSendUrl`, `scenarios["Text message"].values.sms_to`,
 * `scenarios["Text message"]`, `push.appId`, `rawSubstitution`, `preservedXml`) in the words the
 * screens use.
 */
export function fieldPathLabel(path: string): string {
	const setting = /^services\.([^.]+)\.(.+)$/.exec(path);
	if (setting) return settingLabel(setting[1], setting[2]);
	if (path.startsWith('push.')) return pushSettingLabel(path.slice('push.'.length));
	const scenario = /^scenarios\[("(?:[^"\\]|\\.)*")\](?:\.values\.(.+))?$/.exec(path);
	if (scenario) {
		const name = JSON.parse(scenario[1]) as string;
		return scenario[2] === undefined ? `Scenario “${name}”` : scenarioValueLabel(name, scenario[2]);
	}
	if (path === 'rawSubstitution') return 'Raw substitution';
	if (path.startsWith('preservedXml')) return 'Kept XML elements';
	return path;
}

/** A scenario's value in words. */
export function scenarioValueLabel(scenario: string, key: string): string {
	return `Scenario “${scenario}” · %${key}%`;
}

/**
 * A place in a document (a validation issue's path: `['services', 'sendMessage', 'genericSmsSendUrl']`)
 * in the same words as a change's label; `document` names scenarios and kept elements by
 * position. A path the profile's shape does not have names the profile.
 */
export function documentPathLabel(path: readonly PropertyKey[], document?: unknown): string {
	const [area, first, second, third] = path;
	const doc = (document ?? {}) as Partial<ProfileDocument>;
	if (area === 'services' && typeof first === 'string') {
		return typeof second === 'string'
			? settingLabel(first, second)
			: (findService(first)?.title ?? first);
	}
	if (area === 'push' && typeof first === 'string') return pushSettingLabel(first);
	if (area === 'scenarios' && typeof first === 'number') {
		const name = doc.scenarios?.[first]?.name ?? `number ${first + 1}`;
		if (second === 'values' && typeof third === 'string') return scenarioValueLabel(name, third);
		return `Scenario “${name}”`;
	}
	if (area === 'scenarios') return 'Scenarios';
	if (area === 'preservedXml' && typeof first === 'number') {
		const element = doc.preservedXml?.[first];
		return element ? keptElementLabel(element) : `Kept XML element number ${first + 1}`;
	}
	if (area === 'preservedXml') return 'Kept XML elements';
	if (area === 'rawSubstitution') return 'Raw substitution';
	return 'The profile';
}

function fieldsOf(document: ProfileDocument): Map<string, Field> {
	const fields = new Map<string, Field>();
	eachField(document, (path, value, place) => {
		switch (place.area) {
			case 'services':
				fields.set(path, {
					value,
					label: settingLabel(place.service, place.key),
					secret: isSecretSetting(place.service, place.key)
				});
				break;
			case 'push':
				fields.set(path, { value, label: pushSettingLabel(place.key), secret: false });
				break;
			case 'scenario':
				fields.set(path, { value, label: `Scenario “${place.scenario}”`, secret: false });
				break;
			case 'scenarios':
				fields.set(path, {
					value,
					label: scenarioValueLabel(place.scenario, place.key),
					secret: isSecretKey(place.key) && typeof place.raw === 'string'
				});
				break;
			case 'rawSubstitution':
				fields.set(path, {
					value,
					label: 'Raw substitution',
					secret: false,
					shown: document.rawSubstitution ? 'on' : 'off'
				});
				break;
			case 'preservedXml': {
				// Compared with its place, shown as the element itself.
				const credential = credentialElementName(place.element.xml);
				const masked = credential === null ? undefined : maskedCredential(credential, SECRET_MASK);
				fields.set(path, {
					value,
					label: keptElementLabel(place.element),
					secret: masked !== undefined,
					shown: place.element.xml,
					masked
				});
			}
		}
	});
	return fields;
}

/** How a field is shown: a secret as the mask (or empty when it has no value). */
function visible(field: Field | undefined): string | undefined {
	if (field === undefined) return undefined;
	return field.secret && field.value !== ''
		? (field.masked ?? SECRET_MASK)
		: (field.shown ?? field.value);
}

/** Flattens a document into path → value, secret values shown as the mask. */
export function flattenDocument(document: ProfileDocument): Map<string, string> {
	const shown = new Map<string, string>();
	for (const [path, field] of fieldsOf(document)) shown.set(path, visible(field)!);
	return shown;
}

/** The fields that differ from `before` to `after`, in a stable order. */
export function diffDocuments(before: ProfileDocument, after: ProfileDocument): FieldChange[] {
	const a = fieldsOf(before);
	const b = fieldsOf(after);
	const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
	const changes: FieldChange[] = [];
	for (const path of paths) {
		const x = a.get(path);
		const y = b.get(path);
		if (x?.value === y?.value && x?.secret === y?.secret) continue;
		const kind = x === undefined ? 'added' : y === undefined ? 'removed' : 'changed';
		const label = (y ?? x)!.label;
		changes.push({ path, label, kind, before: visible(x), after: visible(y) });
	}
	return changes;
}
