/**
 * Problems in user input are values, never exceptions. Every module of the core reports them in
 * this one shape so the editor, the preview, the API and the server print them the same way.
 */

/** How bad a problem is: errors block a correct request, warnings deserve a look. */
export type Severity = 'error' | 'warning' | 'info';

/**
 * One problem found in user input.
 *
 * `from`/`to` are UTF-16 offsets into the text of `field` (a configuration key such as
 * `genericSmsSendUrl`) when the problem has a place; `fix` is a replacement the editor can
 * offer as a quick fix.
 */
export interface Issue {
	code: string;
	severity: Severity;
	message: string;
	field?: string;
	from?: number;
	to?: number;
	fix?: { label: string; from: number; to: number; insert: string };
}

/** A line and column (both 1-based) for an offset, for messages that name a place. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
	let line = 1;
	let lineStart = 0;
	const end = Math.min(Math.max(offset, 0), text.length);
	for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
		line++;
		lineStart = i + 1;
	}
	return { line, column: end - lineStart + 1 };
}

/** `{ ok: true, value } | { ok: false, issues }`, the shape of zod's `safeParse`. */
export type Result<T> = { ok: true; value: T; issues: Issue[] } | { ok: false; issues: Issue[] };
