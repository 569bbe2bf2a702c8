/**
 * Small helpers that put values and near-misses into plain words for issue messages.
 */

/** A JSON-ish value in words: `null`, `a list`, `the number 5`, `the string "abc"`. */
export function describeValue(value: unknown): string {
	if (value === null) return 'null';
	if (value === undefined) return 'nothing';
	if (Array.isArray(value)) return 'a list';
	switch (typeof value) {
		case 'string':
			return value.length > 40
				? `the string ${JSON.stringify(value.slice(0, 40))}…`
				: `the string ${JSON.stringify(value)}`;
		case 'number':
			return `the number ${String(value)}`;
		case 'boolean':
			return `the value ${String(value)}`;
		case 'object':
			return 'an object';
		default:
			return `a ${typeof value}`;
	}
}

/** The candidate equal to `name` when case is ignored (and not exactly equal), or undefined. */
export function sameIgnoringCase(name: string, candidates: readonly string[]): string | undefined {
	const lower = name.toLowerCase();
	return candidates.find((c) => c !== name && c.toLowerCase() === lower);
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(items: readonly string[]): string {
	if (items.length <= 1) return items.join('');
	return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** A value quoted for a message, shortened when long. */
export function quote(text: string): string {
	return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
