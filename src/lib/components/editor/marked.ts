import { ENCODING_LABELS, type Substitution } from '$lib/core/template';

/** A run of previewed text: plain, or a substituted value with how it was written. */
export interface Segment {
	text: string;
	key?: string;
	title?: string;
	status?: Substitution['status'];
	/** Raw substitution: this value would break its spot (see `Substitution.breaks`). */
	breaks?: boolean;
}

/** Above this size the preview shows the text without marks, to stay fast. */
export const MARK_LIMIT = 200_000;

/**
 * The substitutions that end within the first `length` characters. They are in output order,
 * so they are found by halving: a megabyte body has tens of thousands of them, and the preview
 * asks on every keystroke for those of the screenful it lays out.
 */
export function marksWithin(
	substitutions: readonly Substitution[],
	length: number
): readonly Substitution[] {
	let low = 0;
	let high = substitutions.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (substitutions[middle].to <= length) low = middle + 1;
		else high = middle;
	}
	return low === substitutions.length ? substitutions : substitutions.slice(0, low);
}

/** Splits expanded text into plain runs and substituted values, in order. */
export function segments(text: string, substitutions: readonly Substitution[]): Segment[] {
	if (text.length > MARK_LIMIT) return [{ text }];
	const out: Segment[] = [];
	let at = 0;
	for (const sub of substitutions) {
		if (sub.from < at) continue;
		if (sub.from > at) out.push({ text: text.slice(at, sub.from) });
		const how =
			sub.status === 'literal'
				? 'no value: sent as written'
				: sub.status === 'masked'
					? 'masked: the app sends **** over http'
					: sub.status === 'empty'
						? 'no value in this scenario: sent empty'
						: ENCODING_LABELS[sub.encoding];
		const breaks = sub.breaks
			? ` — breaks this spot: it needs to be ${ENCODING_LABELS[sub.breaks]}`
			: '';
		out.push({
			text: text.slice(sub.from, sub.to),
			key: sub.key,
			title: `%${sub.key}% — ${how}${breaks}`,
			status: sub.status,
			breaks: sub.breaks !== undefined
		});
		at = sub.to;
	}
	if (at < text.length) out.push({ text: text.slice(at) });
	return out;
}
