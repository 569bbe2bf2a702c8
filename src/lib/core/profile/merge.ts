import { fieldPathLabel } from './diff';
import { sameJson } from './same';
import type { ProfileDocument, Scenario, ServiceSettings } from './schema';
import { isSecretKey, isSecretSetting } from './secret-keys';
import { maskKeptCredentials, SECRET_MASK } from './secrets';

/**
 * Three-way merge of profile documents, field by field: what changed from `base` to `mine` and
 * from `base` to `theirs` is combined, and only a field both sides changed to different values
 * is a conflict. Fields are the paths of the diff (`services.sendMessage.genericSmsSendUrl`,
 * `scenarios["Text message"].values.sms_to`, `push.gatewayUrl`, `rawSubstitution`), plus
 * `scenarios["Text message"]` for a scenario's existence and `preservedXml` for the kept XML
 * elements as a whole.
 *
 * A secret that reads as the mask stands for the value its base has: sending the mask back means
 * "unchanged", whatever the stored value is.
 */

/** A field both sides changed to different values. Secret values are shown as the mask. */
export interface MergeConflict {
	path: string;
	/** The field in the screens' words (`Send Message · URL`). */
	label: string;
	/** The values as text (undefined where the field does not exist). */
	base?: string;
	mine?: string;
	theirs?: string;
	secret: boolean;
}

/** Which side a conflicting field takes, by path. */
export type MergeChoices = Record<string, 'mine' | 'theirs'>;

/** The outcome of a merge. */
export interface MergeResult {
	/**
	 * The merged document. A conflict with a choice takes the chosen side; one without keeps
	 * mine, so nothing typed is lost while it waits for a choice.
	 */
	document: ProfileDocument;
	/** Every field both sides changed differently, chosen or not, in path order. */
	conflicts: MergeConflict[];
	/** The conflicts no choice was given for. */
	unresolved: string[];
	/** The fields that took their side because only they changed it. */
	fromTheirs: string[];
	/** The fields that kept my side because only I changed it. */
	fromMine: string[];
}

/** Where a field goes when the document is rebuilt. */
type Ref =
	| { kind: 'setting'; service: string; key: string }
	| { kind: 'push'; key: string }
	| { kind: 'scenario'; name: string }
	| { kind: 'value'; name: string; key: string }
	| { kind: 'raw' }
	| { kind: 'preserved' };

interface Field {
	ref: Ref;
	value: unknown;
	secret: boolean;
}

function scenarioPath(name: string): string {
	return `scenarios[${JSON.stringify(name)}]`;
}

function fieldsOf(document: ProfileDocument): Map<string, Field> {
	const fields = new Map<string, Field>();
	for (const [service, settings] of Object.entries(document.services)) {
		for (const [key, value] of Object.entries(settings ?? {})) {
			fields.set(`services.${service}.${key}`, {
				ref: { kind: 'setting', service, key },
				value,
				secret: isSecretSetting(service, key)
			});
		}
	}
	for (const [key, value] of Object.entries(document.push)) {
		fields.set(`push.${key}`, { ref: { kind: 'push', key }, value, secret: false });
	}
	for (const scenario of document.scenarios) {
		const path = scenarioPath(scenario.name);
		fields.set(path, {
			ref: { kind: 'scenario', name: scenario.name },
			value: true,
			secret: false
		});
		for (const [key, value] of Object.entries(scenario.values)) {
			fields.set(`${path}.values.${key}`, {
				ref: { kind: 'value', name: scenario.name, key },
				value,
				secret: isSecretKey(key) && typeof value === 'string'
			});
		}
	}
	fields.set('rawSubstitution', {
		ref: { kind: 'raw' },
		value: document.rawSubstitution,
		secret: false
	});
	fields.set('preservedXml', {
		ref: { kind: 'preserved' },
		value: document.preservedXml,
		secret: false
	});
	return fields;
}

function same(a: Field | undefined, b: Field | undefined): boolean {
	if (a === undefined || b === undefined) return a === b;
	return sameJson(a.value, b.value);
}

/** A side's field, a mask read as the base's value (a masked secret is an unchanged one). */
function unmasked(field: Field | undefined, base: Field | undefined): Field | undefined {
	if (field?.secret && field.value === SECRET_MASK) return base;
	return field;
}

function shown(field: Field | undefined): string | undefined {
	if (field === undefined) return undefined;
	if (field.secret && field.value !== '') return SECRET_MASK;
	// Credentials inside kept XML are never shown, whoever asks.
	if (field.ref.kind === 'preserved')
		return JSON.stringify(maskKeptCredentials(field.value as ProfileDocument['preservedXml']));
	return typeof field.value === 'string' ? field.value : JSON.stringify(field.value);
}

function rebuild(
	fields: Map<string, Field>,
	mine: ProfileDocument,
	theirs: ProfileDocument
): ProfileDocument {
	const services: Record<string, ServiceSettings> = {};
	const push = { gatewayUrl: '', appId: '', target: 'unknown' } as ProfileDocument['push'];
	const values = new Map<string, Scenario['values']>();
	let rawSubstitution = false;
	let preservedXml: ProfileDocument['preservedXml'] = [];
	const scenario = (name: string) => {
		let kept = values.get(name);
		if (!kept) values.set(name, (kept = {}));
		return kept;
	};
	for (const { ref, value } of fields.values()) {
		if (ref.kind === 'setting') (services[ref.service] ??= {})[ref.key] = value as string;
		else if (ref.kind === 'push') (push as Record<string, unknown>)[ref.key] = value;
		else if (ref.kind === 'scenario') scenario(ref.name);
		// A value kept in a scenario one side removed keeps the scenario.
		else if (ref.kind === 'value')
			scenario(ref.name)[ref.key] = value as Scenario['values'][string];
		else if (ref.kind === 'raw') rawSubstitution = value as boolean;
		else preservedXml = value as ProfileDocument['preservedXml'];
	}
	// Scenarios in my order, then the ones only they have, in theirs.
	const order = [...mine.scenarios, ...theirs.scenarios].map((s) => s.name);
	const names = [...new Set(order.filter((name) => values.has(name))), ...values.keys()];
	const scenarios = [...new Set(names)].map((name) => ({ name, values: values.get(name)! }));
	return {
		...mine,
		services: services as ProfileDocument['services'],
		push,
		scenarios,
		rawSubstitution,
		preservedXml
	};
}

/** How a merge reads its documents. */
export interface MergeOptions {
	/**
	 * True when the mask is a value like any other, as between documents that all show the same
	 * stored secrets masked (the browser's tabs); by default a mask means "unchanged".
	 */
	maskIsValue?: boolean;
}

/**
 * Merges `mine` and `theirs`, both made from `base`: a field only one side changed takes that
 * side, a field both changed to the same value takes it, and a field both changed differently is
 * a conflict, settled by `choices` (else mine is kept and the path is listed as unresolved).
 */
export function mergeDocuments(
	base: ProfileDocument,
	mine: ProfileDocument,
	theirs: ProfileDocument,
	choices: MergeChoices = {},
	{ maskIsValue = false }: MergeOptions = {}
): MergeResult {
	const b = fieldsOf(base);
	const m = fieldsOf(mine);
	const t = fieldsOf(theirs);
	const paths = [...new Set([...b.keys(), ...m.keys(), ...t.keys()])].sort();
	const merged = new Map<string, Field>();
	const result: Omit<MergeResult, 'document'> = {
		conflicts: [],
		unresolved: [],
		fromTheirs: [],
		fromMine: []
	};
	for (const path of paths) {
		const was = b.get(path);
		const ours = maskIsValue ? m.get(path) : unmasked(m.get(path), was);
		const other = maskIsValue ? t.get(path) : unmasked(t.get(path), was);
		let take: Field | undefined;
		if (same(ours, was)) {
			take = other;
			if (!same(other, was)) result.fromTheirs.push(path);
		} else if (same(other, was) || same(ours, other)) {
			take = ours;
			if (!same(ours, other)) result.fromMine.push(path);
		} else {
			const choice = Object.hasOwn(choices, path) ? choices[path] : undefined;
			const secret = Boolean(was?.secret || ours?.secret || other?.secret);
			result.conflicts.push({
				path,
				label: fieldPathLabel(path),
				base: shown(was && { ...was, secret }),
				mine: shown(ours && { ...ours, secret }),
				theirs: shown(other && { ...other, secret }),
				secret
			});
			if (choice === undefined) result.unresolved.push(path);
			take = choice === 'theirs' ? other : ours;
		}
		// Keep what the side sent (the mask stays the mask, so a save keeps the stored value).
		if (take === ours && take !== undefined) take = m.get(path) ?? take;
		else if (take === other && take !== undefined) take = t.get(path) ?? take;
		if (take !== undefined) merged.set(path, take);
	}
	return { document: rebuild(merged, mine, theirs), ...result };
}
