import type { ProfileDocument } from './schema';
import { isSecretKey, SECRET_MASK } from './secrets';

/**
 * Field-by-field differences between two profile documents, with paths an admin can read:
 * `services.sendMessage.genericSmsSendUrl`, `scenarios["Text message"].values.sms_to`.
 * Secret values are never shown, only that they changed.
 */

/** One field that differs. `before`/`after` are undefined where the field does not exist. */
export interface FieldChange {
	path: string;
	kind: 'added' | 'removed' | 'changed';
	before?: string;
	after?: string;
}

function show(value: unknown): string {
	return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A flattened field: its value, and whether it is a secret (never shown). */
interface Field {
	value: string;
	secret: boolean;
}

function fieldsOf(document: ProfileDocument): Map<string, Field> {
	const fields = new Map<string, Field>();
	const add = (path: string, value: string, secret = false) => fields.set(path, { value, secret });
	for (const [service, settings] of Object.entries(document.services)) {
		for (const [key, value] of Object.entries(settings ?? {})) {
			add(`services.${service}.${key}`, value);
		}
	}
	for (const [key, value] of Object.entries(document.push)) add(`push.${key}`, show(value));
	for (const scenario of document.scenarios) {
		const base = `scenarios[${JSON.stringify(scenario.name)}].values`;
		for (const [key, value] of Object.entries(scenario.values)) {
			const secret = isSecretKey(key) && typeof value === 'string';
			add(`${base}.${key}`, show(value), secret);
		}
	}
	add('rawSubstitution', String(document.rawSubstitution));
	document.preservedXml.forEach((element, i) => {
		add(`preservedXml[${i}]`, `${element.path} #${element.index}: ${element.xml}`);
	});
	return fields;
}

/** How a field is shown: a secret as the mask (or empty when it has no value). */
function visible(field: Field | undefined): string | undefined {
	if (field === undefined) return undefined;
	return field.secret && field.value !== '' ? SECRET_MASK : field.value;
}

/** Flattens a document into display path → value, secret values shown as the mask. */
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
		changes.push({ path, kind, before: visible(x), after: visible(y) });
	}
	return changes;
}

/**
 * True when two documents hold the same fields: a service with no settings left, or key order,
 * is no difference. Strings are compared as they are, never serialised.
 */
export function sameDocument(a: ProfileDocument, b: ProfileDocument): boolean {
	if (a === b) return true;
	const x = fieldsOf(a);
	const y = fieldsOf(b);
	if (x.size !== y.size) return false;
	for (const [path, field] of x) {
		const other = y.get(path);
		if (!other || other.value !== field.value) return false;
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
