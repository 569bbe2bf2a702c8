import { ENCODING_LABELS, type Substitution } from '$lib/core/template';

/** A run of previewed text: plain, or a substituted value with how it was written. */
export interface Segment {
	text: string;
	key?: string;
	title?: string;
	status?: Substitution['status'];
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
		out.push({
			text: text.slice(sub.from, sub.to),
			key: sub.key,
			title: `%${sub.key}% — ${how}`,
			status: sub.status
		});
		at = sub.to;
	}
	if (at < text.length) out.push({ text: text.slice(at) });
	return out;
}
