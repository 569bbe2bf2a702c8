/** UTF-8 byte counts of texts, for a preview that shows the size of what is sent. */

const encoder = new TextEncoder();
let scratch = new Uint8Array(0);

/** Runs of characters that take more than one byte each (or, as lone surrogates, three). */
const WIDE = /[\u0080-\uffff]+/g;

/**
 * The UTF-8 length of a text in bytes (a lone surrogate counts as U+FFFD, 3 bytes, as it is
 * sent): one byte a character, plus what the runs of other characters add, encoded natively
 * into one buffer kept between calls. A megabyte of ASCII is one scan, allocating nothing.
 */
export function utf8Length(text: string): number {
	if (text === known.text) return known.bytes;
	let bytes = text.length;
	for (const [run] of text.matchAll(WIDE)) {
		const needed = run.length * 3;
		if (scratch.length < needed) scratch = new Uint8Array(Math.max(needed, scratch.length * 2));
		bytes += encoder.encodeInto(run, scratch).written - run.length;
	}
	known = { text, bytes };
	return bytes;
}

/** The last text counted, and its count: a preview may ask again for the same body. */
let known = { text: '', bytes: 0 };
