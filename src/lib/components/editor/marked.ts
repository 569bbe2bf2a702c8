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
