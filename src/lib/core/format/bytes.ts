/** UTF-8 byte counts of texts, for a preview that shows the size of what is sent. */

const encoder = new TextEncoder();
let scratch = new Uint8Array(0);

/**
 * The UTF-8 length of a text in bytes (a lone surrogate counts as U+FFFD, 3 bytes, as it is
 * sent). Encoded natively into one buffer kept between calls: counting a megabyte body on every
 * keystroke allocates nothing.
 */
export function utf8Length(text: string): number {
	const needed = text.length * 3;
	if (scratch.length < needed) scratch = new Uint8Array(Math.max(needed, scratch.length * 2));
	return encoder.encodeInto(text, scratch).written;
}
