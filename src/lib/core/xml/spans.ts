/**
 * Where each element of a well-formed document starts and ends in its text (found by the strict
 * reading that accepted it), so an element the product does not know can be kept exactly as
 * written (its entity references, CDATA, comments and attribute quoting included) and written
 * back on export.
 */

/** An element's place in the text: `text.slice(start, end)` is the element as written. */
export interface ElementSpan {
	start: number;
	end: number;
	children: ElementSpan[];
}

/** The index just past the `>` that ends a tag, skipping quoted attribute values. */
export function tagEnd(text: string, from: number): number {
	let quote: string | null = null;
	for (let i = from; i < text.length; i++) {
		const c = text[i];
		if (quote !== null) {
			if (c === quote) quote = null;
		} else if (c === '"' || c === "'") quote = c;
		else if (c === '>') return i + 1;
	}
	return text.length;
}
