/**
 * An expanded JSON body read in place: well-formed, or the parser's first fault and its offset.
 * Alone in its module, so the previews' worker reads large bodies with it without the builder.
 */

/** A body reader's verdict: well-formed, or the first fault and its offset; null when unread. */
export type BodyVerdict = { ok: true } | { ok: false; fault: { message: string; offset: number } };

function jsonErrorOffset(error: unknown, text: string): number {
	const message = error instanceof Error ? error.message : '';
	const position = /position (\d+)/.exec(message);
	if (position) return Number(position[1]);
	return /end of JSON input/i.test(message) ? text.length : 0;
}

/** Reads an expanded JSON body with the platform's parser. */
export function readJsonBody(body: string): BodyVerdict {
	try {
		JSON.parse(body);
		return { ok: true };
	} catch (error) {
		const message = error instanceof Error ? error.message.split('\n')[0] : 'parse error';
		return { ok: false, fault: { message, offset: jsonErrorOffset(error, body) } };
	}
}
