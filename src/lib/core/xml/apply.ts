import { settingLabel } from '../catalogue/labels';
import { DEPRECATED_XML_KEYS, XML_KEYS } from '../catalogue/placement';
import type { Issue, Result } from '../issues';
import type { ProfileDocument } from '../profile/schema';
import { xmlSettings } from './export';
import { SETTINGS_PATH } from './forms';
import type { ImportedXml, PreservedElement } from './import';

/**
 * What applying an import does to a profile: a whole document (either form) replaces the XML
 * settings and the preserved elements it speaks for; a fragment only sets what it holds and adds
 * its unknown elements after the existing ones. Portal settings, scenarios and push settings
 * never change.
 */

/** The chosen candidate for each conflict, keyed `service.key`. */
export type ConflictChoices = Record<string, number>;

/** The key of a conflict in {@link ConflictChoices}. */
export function conflictId(conflict: { service: string; key: string }): string {
	return `${conflict.service}.${conflict.key}`;
}

type Services = Record<string, Record<string, string>>;

function withoutXmlSettings(services: Services): Services {
	const names = new Set([
		...XML_KEYS.map((p) => `${p.service.id}.${p.key.key}`),
		...DEPRECATED_XML_KEYS.map((d) => `${d.service.id}.${d.deprecated.key}`)
	]);
	const result: Services = {};
	for (const [service, settings] of Object.entries(services)) {
		const kept = Object.entries(settings).filter(([key]) => !names.has(`${service}.${key}`));
		if (kept.length) result[service] = Object.fromEntries(kept);
	}
	return result;
}

function setAll(services: Services, values: Services): void {
	for (const [service, settings] of Object.entries(values)) {
		services[service] = { ...services[service], ...settings };
		// The imported value is read as the replacement: a deprecated spelling left would compete.
		for (const { deprecated } of DEPRECATED_XML_KEYS.filter((d) => d.service.id === service)) {
			if (Object.hasOwn(settings, deprecated.replacement)) delete services[service][deprecated.key];
		}
	}
}

/** The chosen values of the conflicts, or the issues of those left unchosen. */
function chosen(imported: ImportedXml, choices: ConflictChoices): Result<Services> {
	const values: Services = {};
	const issues: Issue[] = [];
	for (const conflict of imported.conflicts) {
		const id = conflictId(conflict);
		const pick = Object.hasOwn(choices, id) ? choices[id] : undefined;
		const candidate = pick === undefined ? undefined : conflict.candidates[pick];
		if (!candidate) {
			issues.push({
				code: 'setting_conflict_unresolved',
				severity: 'error',
				message: `Choose a value for ${settingLabel(conflict.service, conflict.key)} (${conflict.candidates.length} were given).`,
				field: conflict.key
			});
			continue;
		}
		(values[conflict.service] ??= {})[conflict.key] = candidate.value;
	}
	return issues.length ? { ok: false, issues } : { ok: true, value: values, issues: [] };
}

/** The document the import would save, or the conflicts still to choose. */
export function applyImport(
	document: ProfileDocument,
	imported: ImportedXml,
	choices: ConflictChoices = {}
): Result<ProfileDocument> {
	const resolved = chosen(imported, choices);
	if (!resolved.ok) return resolved;
	const whole = imported.form !== 'fragment';
	const current = document.services as Services;
	const services: Services = whole ? withoutXmlSettings(current) : structuredClone(current);
	setAll(services, imported.services);
	setAll(services, resolved.value);
	let preservedXml: PreservedElement[];
	if (imported.form === 'provisioning') preservedXml = imported.preservedXml;
	else if (imported.form === 'account') {
		// An account document speaks only for the settings element.
		preservedXml = [
			...document.preservedXml.filter((p) => p.path !== SETTINGS_PATH),
			...imported.preservedXml
		];
	} else {
		const next: ProfileDocument = { ...document, services, preservedXml: document.preservedXml };
		const occupied =
			xmlSettings(next).settings.length +
			document.preservedXml.filter((p) => p.path === SETTINGS_PATH).length;
		preservedXml = [
			...document.preservedXml,
			...imported.preservedXml.map((p, i) => ({ ...p, index: occupied + i }))
		];
	}
	return {
		ok: true,
		value: { ...document, services: services as ProfileDocument['services'], preservedXml },
		issues: []
	};
}
