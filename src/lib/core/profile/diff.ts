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

/** Flattens a document into display path → value. */
export function flattenDocument(document: ProfileDocument): Map<string, string> {
	const fields = new Map<string, string>();
	for (const [service, settings] of Object.entries(document.services)) {
		for (const [key, value] of Object.entries(settings ?? {})) {
			fields.set(`services.${service}.${key}`, value);
		}
	}
	for (const [key, value] of Object.entries(document.push)) fields.set(`push.${key}`, show(value));
	for (const scenario of document.scenarios) {
		const base = `scenarios[${JSON.stringify(scenario.name)}].values`;
		for (const [key, value] of Object.entries(scenario.values)) {
			const secret = isSecretKey(key) && typeof value === 'string';
			fields.set(`${base}.${key}`, secret ? `\u0000${value}` : show(value));
		}
	}
	fields.set('rawSubstitution', String(document.rawSubstitution));
	document.preservedXml.forEach((element, i) => {
		fields.set(`preservedXml[${i}]`, `${element.path} #${element.index}: ${element.xml}`);
	});
	return fields;
}

function visible(value: string | undefined): string | undefined {
	if (value === undefined) return undefined;
	return value.startsWith('\u0000') ? (value === '\u0000' ? '' : SECRET_MASK) : value;
}

/** The fields that differ from `before` to `after`, in a stable order. */
export function diffDocuments(before: ProfileDocument, after: ProfileDocument): FieldChange[] {
	const a = flattenDocument(before);
	const b = flattenDocument(after);
	const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
	const changes: FieldChange[] = [];
	for (const path of paths) {
		const x = a.get(path);
		const y = b.get(path);
		if (x === y) continue;
		const kind = x === undefined ? 'added' : y === undefined ? 'removed' : 'changed';
		changes.push({ path, kind, before: visible(x), after: visible(y) });
	}
	return changes;
}
