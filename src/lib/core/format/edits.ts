/**
 * Where two versions of a text differ: a key typed into a megabyte body changes a few characters,
 * and what reads both versions (the template's analysis, its expansion, the byte count) reads
 * only that stretch. An editor that knows the change it made says so; else it is found by
 * comparing the texts' ends.
 */

/** `from`..`to` of the old text became `inserted` characters of the new one, at `from`. */
export interface Edit {
	from: number;
	to: number;
	inserted: number;
	/** What the editor said of it: with it, neither text is read (a large one is not copied). */
	said?: Said;
}

/** An edit's characters as the editor that made it read them from its own document. */
export interface Said {
	/** The inserted characters. */
	text: string;
	/** The removed ones. */
	removed: string;
	/** The old text just before `from` (a few characters, or none at its start). */
	lead: string;
	/** The old text's character at `to` ('' at its end). */
	next: string;
}

/** The code units of the old text just before an edit and just after it (NaN at an end). */
export function borders(before: string, edit: Edit): [number, number] {
	const lead = edit.said?.lead ?? '';
	const last = lead === '' ? before.charCodeAt(edit.from - 1) : lead.charCodeAt(lead.length - 1);
	const next = edit.said ? edit.said.next.charCodeAt(0) : before.charCodeAt(edit.to);
	return [last, next];
}

interface Known {
	before: string;
	after: string;
	edit: Edit;
}

/** Changes said lately: a key changes the body and, from it, the expanded body. */
const known: Known[] = [];
const KEPT = 4;

/**
 * Says that `after` is `before` with one edit (as an editor or an expansion made it), so that
 * {@link editBetween} of the two needs no comparison.
 */
export function noteEdit(before: string, after: string, edit: Edit): void {
	known.unshift({ before, after, edit });
	if (known.length > KEPT) known.pop();
}

/**
 * The change said by {@link noteEdit} that makes `after` of `before`, widened as
 * {@link editBetween} widens it, with the characters it removes and puts in. Read from what was
 * said and never from `after`: a large text made of pieces is copied whole to be read.
 */
export function saidChange(
	before: string,
	after: string
): { edit: Edit; removed: string; inserted: string } | undefined {
	const k = known.find((k) => k.after === after && k.before === before);
	const said = k?.edit.said;
	if (!k || !said) return undefined;
	const [last, next] = borders(before, k.edit);
	const lead = isHigh(last) ? String.fromCharCode(last) : '';
	const tail = isLow(next) ? String.fromCharCode(next) : '';
	return {
		edit: whole(before, k.edit),
		removed: lead + said.removed + tail,
		inserted: lead + said.text + tail
	};
}

/** The one edit that makes `after` of `before`: a change said by {@link noteEdit}, else found. */
export function editBetween(before: string, after: string): Edit {
	for (const k of known) if (k.after === after && k.before === before) return whole(before, k.edit);
	const [start, end] = sameEnds(before, after);
	return { from: start, to: before.length - end, inserted: after.length - end - start };
}

/** The edit widened so that it splits no surrogate pair, as {@link sameEnds} cuts its ends. */
function whole(before: string, edit: Edit): Edit {
	const [last, next] = borders(before, edit);
	const high = isHigh(last);
	const low = isLow(next);
	if (!high && !low) return edit;
	const from = high ? edit.from - 1 : edit.from;
	const to = low ? edit.to + 1 : edit.to;
	return { from, to, inserted: edit.inserted + (to - from) - (edit.to - edit.from) };
}

export const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
export const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * How many characters two texts share at their start and at their end (not overlapping), cut
 * so that no surrogate pair is split: how a surrogate counts depends on its neighbour.
 */
export function sameEnds(a: string, b: string): [number, number] {
	const most = Math.min(a.length, b.length);
	// Compared a block at a time natively, then a character at a time in the block that differs.
	let start = 0;
	while (start + BLOCK <= most && a.slice(start, start + BLOCK) === b.slice(start, start + BLOCK)) {
		start += BLOCK;
	}
	while (start < most && a.charCodeAt(start) === b.charCodeAt(start)) start++;
	const room = most - start;
	let end = 0;
	while (
		end + BLOCK <= room &&
		a.slice(a.length - end - BLOCK, a.length - end) ===
			b.slice(b.length - end - BLOCK, b.length - end)
	) {
		end += BLOCK;
	}
	while (end < room && a.charCodeAt(a.length - 1 - end) === b.charCodeAt(b.length - 1 - end)) end++;
	if (start > 0 && isHigh(a.charCodeAt(start - 1))) start--;
	if (end > 0 && isLow(a.charCodeAt(a.length - end))) end--;
	return [start, end];
}

/** Characters compared at once, natively, while two texts are the same. */
const BLOCK = 1024;
