import { lineColumn } from '../issues';
import { editBetween, isHigh, isLow, saidChange } from './edits';

/**
 * UTF-8 byte counts of texts, for a preview that shows the size of what is sent, and where bytes
 * that should be UTF-8 are not, for the readers of imports and JSON bodies.
 */

/** Runs of characters that take more than one byte each (or, as lone surrogates, three). */
const WIDE = /[\u0080-\uffff]+/g;

/**
 * The UTF-8 length of a text in bytes (a lone surrogate counts as U+FFFD, 3 bytes, as it is
 * sent). A long text that differs from the last one counted in one stretch (a key typed into a
 * body: the expanded body changes where the key went) is counted from that one: only the
 * stretch that differs is read in each (`editBetween`).
 */
export function utf8Length(text: string): number {
	if (text === known.text) return known.bytes;
	const before = known.text;
	let bytes: number;
	let start = 0;
	let end = 0;
	if (text.length >= EDIT_MIN && before.length >= EDIT_MIN) {
		// A change said by its maker is counted from what it said: `text` is not read at all.
		const change = saidChange(before, text);
		if (change) {
			bytes = known.bytes - countBytes(change.removed) + countBytes(change.inserted);
			known = { text, bytes };
			return bytes;
		}
		const edit = editBetween(before, text);
		start = edit.from;
		end = before.length - edit.to;
	}
	// Counting what differs in both texts pays only while it is less than the new text: a paste
	// over the whole body is counted once, whole.
	if (2 * (start + end) > text.length) {
		bytes =
			known.bytes -
			countBytes(before.slice(start, before.length - end)) +
			countBytes(text.slice(start, text.length - end));
	} else {
		bytes = countBytes(text);
	}
	known = { text, bytes };
	return bytes;
}

/** Below this length a text is counted whole: the comparison would not pay. */
const EDIT_MIN = 16_384;

/** The last text counted, and its count: a preview may ask again for the same body. */
let known = { text: '', bytes: 0 };

/**
 * One byte a character, plus what the runs of other characters add: a character below U+0800
 * one more, a surrogate pair two more (four bytes for two characters), any other two more (a
 * lone surrogate is sent as U+FFFD). The runs are found by one native scan, so a megabyte of
 * ASCII is read once; a run is counted where it lies, without copying it or encoding it.
 */
function countBytes(text: string): number {
	let bytes = text.length;
	WIDE.lastIndex = 0;
	for (let run = WIDE.exec(text); run; run = WIDE.exec(text)) {
		const end = WIDE.lastIndex;
		for (let i = run.index; i < end; i++) {
			const code = text.charCodeAt(i);
			if (code < 0x800) bytes += 1;
			else if (isHigh(code) && i + 1 < end && isLow(text.charCodeAt(i + 1))) {
				bytes += 2;
				i++;
			} else bytes += 2;
		}
	}
	return bytes;
}

/** The offset of the first byte that is not well-formed UTF-8, or -1. */
function firstInvalidByte(bytes: Uint8Array): number {
	let i = 0;
	while (i < bytes.length) {
		const b = bytes[i];
		if (b < 0x80) {
			i++;
			continue;
		}
		let length: number;
		let min: number;
		let max = 0xbf;
		if (b >= 0xc2 && b <= 0xdf) [length, min] = [2, 0x80];
		else if (b >= 0xe0 && b <= 0xef) {
			length = 3;
			// No overlong forms (E0 80..9F) and no surrogates (ED A0..BF).
			min = b === 0xe0 ? 0xa0 : 0x80;
			if (b === 0xed) max = 0x9f;
		} else if (b >= 0xf0 && b <= 0xf4) {
			length = 4;
			min = b === 0xf0 ? 0x90 : 0x80;
			if (b === 0xf4) max = 0x8f;
		} else return i;
		for (let k = 1; k < length; k++) {
			const c = bytes[i + k];
			if (c === undefined || c < (k === 1 ? min : 0x80) || c > (k === 1 ? max : 0xbf)) return i;
		}
		i += length;
	}
	return -1;
}

/**
 * Where bytes stop being UTF-8 (`byte 0xED at offset 5 (line 1, column 6)`), or null when they
 * are all UTF-8.
 */
export function invalidUtf8(bytes: Uint8Array): string | null {
	const bad = firstInvalidByte(bytes);
	if (bad === -1) return null;
	const before = new TextDecoder('utf-8').decode(bytes.subarray(0, bad));
	const at = lineColumn(before, before.length);
	const hex = bytes[bad].toString(16).toUpperCase().padStart(2, '0');
	return `byte 0x${hex} at offset ${bad} (line ${at.line}, column ${at.column})`;
}
