import { isPushObject } from './checks';
import { PUSH_ATTRIBUTES, type PushAttribute, type PushVerb } from './reference';
import type { PushTarget } from './schema';

/**
 * What the push composer's form needs, kept pure: the fields of a verb with their required
 * marks (the platform decides Badge), reading a typed value into the JSON value it stands for,
 * moving elements of a multisend list, and the place of a JSON syntax error.
 */

/** One field of the composer's form. */
export interface ComposerField {
	/** The attribute name, case as the contract writes it. */
	name: string;
	attribute: PushAttribute;
	required: boolean;
	/** Why it is required, when it is only for this platform. */
	requiredWhy?: string;
}

/**
 * The fields of `verb` in the order of the contract's table, `verb` itself left out: every
 * attribute the verb uses. Required are the ones the verb needs on every device, and Badge of
 * NotifyTextMessage on mobile platform A 13+.
 */
export function composerFields(verb: PushVerb, platform: PushTarget): ComposerField[] {
	const fields: ComposerField[] = [];
	for (const attribute of PUSH_ATTRIBUTES) {
		if (attribute.id === 'verb' || !attribute.usedBy.includes(verb)) continue;
		for (const name of attribute.names) {
			const badge = name === 'Badge' && verb === 'NotifyTextMessage' && platform === 'platformA13';
			fields.push({
				name,
				attribute,
				required: attribute.requiredFor.includes(verb) || badge,
				...(badge ? { requiredWhy: 'required on mobile platform A 13 or later' } : {})
			});
		}
	}
	return fields;
}

/**
 * The JSON value a typed text stands for: an integer attribute typed as a whole number becomes
 * a number, anything else typed there stays the text (so the check names it); an empty text
 * removes the attribute (`undefined`), except for `keepEmpty` (Sound, where empty means silent).
 */
export function typedValue(
	text: string,
	type: 'string' | 'integer',
	keepEmpty = false
): string | number | undefined {
	if (text === '') return keepEmpty ? '' : undefined;
	if (type === 'integer' && /^\s*-?\d+\s*$/.test(text)) {
		const number = Number(text.trim());
		return Number.isSafeInteger(number) ? number : text;
	}
	return text;
}

/** A copy of the element with `name` set, or removed when `value` is undefined. */
export function withAttribute(
	element: Record<string, unknown>,
	name: string,
	value: unknown
): Record<string, unknown> {
	// Entries, not spread onto a literal with `name`: keeps the order of the attributes.
	const entries = Object.entries(element).filter(([key]) => key !== name || value !== undefined);
	const out = Object.fromEntries(
		entries.map(([key, old]) => [key, key === name ? value : old])
	) as Record<string, unknown>;
	if (value !== undefined && !Object.hasOwn(element, name)) out[name] = value;
	return out;
}

/** The text a form field shows for an attribute's value (`undefined`: absent, empty). */
export function fieldText(value: unknown): string {
	if (value === undefined) return '';
	if (typeof value === 'string') return value;
	return JSON.stringify(value) ?? '';
}

/** The list with the item at `from` moved to `to` (both clamped); a new list. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
	const out = [...list];
	if (from < 0 || from >= out.length) return out;
	const [item] = out.splice(from, 1);
	out.splice(Math.max(0, Math.min(to, out.length)), 0, item);
	return out;
}

/** The attribute names of an element the form has no field for (kept as they are). */
export function otherAttributes(element: unknown, verb: PushVerb, platform: PushTarget): string[] {
	if (!isPushObject(element)) return [];
	const shown = new Set(['verb', ...composerFields(verb, platform).map((f) => f.name)]);
	return Object.keys(element).filter((name) => !shown.has(name));
}

/** A JSON text read: the value, or where and why it is not JSON. */
export type JsonReading =
	| { ok: true; value: unknown }
	| { ok: false; offset: number; line: number; column: number; message: string };

/** Line and column (from 1; columns count UTF-16 units, as editors do) of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
	const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
	const lines = before.split(/\r\n|\r|\n/);
	return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/**
 * Reads a JSON text. On a syntax error, the place comes from the engine's message ("at position
 * N") or, when it names none (the text ends too early), is the end of the text.
 */
export function readJsonText(text: string): JsonReading {
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		const at = /at position (\d+)/.exec(reason);
		const offset = at ? Number(at[1]) : text.length;
		const { line, column } = lineColumn(text, offset);
		// The engine's own place ("in JSON at position 12 (line 1 column 13)") is said once, above.
		const why =
			text.trim() === ''
				? 'the text is empty'
				: reason.replace(/\s*(in JSON )?at position \d+.*$/s, '').replace(/\s*\(line.*\)$/, '');
		return {
			ok: false,
			offset,
			line,
			column,
			message: `The JSON is not valid at line ${line}, column ${column}: ${why}.`
		};
	}
}
