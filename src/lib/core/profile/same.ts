import type { ProfileDocument } from './schema';

/**
 * Whether two profile documents hold the same fields, without the labels and secret masks a
 * diff shows: the editor asks this on every keystroke (is the draft unsaved?), so it reads no
 * catalogue and no kept XML, and loads with the first page.
 */

function show(value: unknown): string {
	return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Where a field sits: what a diff needs to name it. */
export type FieldPlace =
	| { area: 'services'; service: string; key: string }
	| { area: 'push'; key: string }
	| { area: 'scenario'; scenario: string }
	| { area: 'scenarios'; scenario: string; key: string; raw: unknown }
	| { area: 'rawSubstitution' }
	| { area: 'preservedXml'; element: ProfileDocument['preservedXml'][number] };

/**
 * Visits every field of a document with its path (`services.sendMessage.genericSmsSendUrl`,
 * `scenarios["Text message"]`, `scenarios["Text message"].values.sms_to`, `push.appId`,
 * `rawSubstitution`, `preservedXml[0]`) and its value as compared: the one definition of a
 * field's path, for the diff and the unsaved-changes check. A scenario is a field of its own
 * (with no value: it is there or not), so that one with no values is a change too. A later
 * scenario of the same name visits the same paths.
 */
export function eachField(
	document: ProfileDocument,
	visit: (path: string, value: string, place: FieldPlace) => void
): void {
	for (const [service, settings] of Object.entries(document.services)) {
		for (const [key, value] of Object.entries(settings ?? {})) {
			visit(`services.${service}.${key}`, value, { area: 'services', service, key });
		}
	}
	for (const [key, value] of Object.entries(document.push)) {
		visit(`push.${key}`, show(value), { area: 'push', key });
	}
	for (const scenario of document.scenarios) {
		const path = `scenarios[${JSON.stringify(scenario.name)}]`;
		visit(path, '', { area: 'scenario', scenario: scenario.name });
		const base = `${path}.values`;
		for (const [key, value] of Object.entries(scenario.values)) {
			visit(`${base}.${key}`, show(value), {
				area: 'scenarios',
				scenario: scenario.name,
				key,
				raw: value
			});
		}
	}
	visit('rawSubstitution', String(document.rawSubstitution), { area: 'rawSubstitution' });
	document.preservedXml.forEach((element, i) => {
		visit(`preservedXml[${i}]`, `${element.path} #${element.index}: ${element.xml}`, {
			area: 'preservedXml',
			element
		});
	});
}

/** Every field of a document by its path, as compared. */
export function fieldValues(document: ProfileDocument): Map<string, string> {
	const fields = new Map<string, string>();
	eachField(document, (path, value) => fields.set(path, value));
	return fields;
}

/**
 * True when two documents hold the same fields, their scenarios in the same order: a service
 * with no settings left, or key order, is no difference. Strings are compared as they are, never
 * serialised.
 */
export function sameDocument(a: ProfileDocument, b: ProfileDocument): boolean {
	if (a === b) return true;
	// The scenarios' order is the order the scenario bar shows and a save keeps.
	if (a.scenarios.length !== b.scenarios.length) return false;
	if (a.scenarios.some((scenario, i) => scenario.name !== b.scenarios[i].name)) return false;
	const x = fieldValues(a);
	const y = fieldValues(b);
	if (x.size !== y.size) return false;
	for (const [path, value] of x) {
		if (y.get(path) !== value) return false;
	}
	return true;
}

/** True when two JSON values are equal (objects compared key by key, in any key order). */
export function sameJson(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	const keysA = Object.keys(a);
	if (keysA.length !== Object.keys(b).length) return false;
	return keysA.every(
		(k) =>
			Object.hasOwn(b, k) &&
			sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])
	);
}
