import fc from 'fast-check';
import { expect } from 'vitest';

/** Template texts for property tests of the template code (the tokenizer's every branch). */

/** Pieces that reach every branch of the tokenizer, glued with arbitrary text. */
export const PIECES = [
	'%sms_to%',
	'%sms_body%',
	'%account[password]%',
	'%account[user.name-1]%',
	'%interestedParties%',
	'%sha1(%account[password]%)%',
	'%sha1(%sha1(%sms_to%)%)%',
	'%sha1(%sha1(%sha1(%sha1(%sha1(%sha1(%sha1(%sha1(%sha1(%x%)%)%)%)%)%)%)%)%)%',
	'%sha1(%nope%)%',
	'%nope%',
	'%',
	'%%',
	'%20',
	'%C3%A9',
	'%aB',
	'%ab1%',
	'%Fe_x%',
	'%account[',
	'%account[]%',
	'%account[x]',
	'%account[x%',
	'%sha1(',
	'%sha1(%x%',
	'%sha1(%x%)',
	'%sha1(x)%',
	'%md5(%x%)%',
	'50%off(today)',
	'%_a%',
	'%é%',
	')%',
	']%',
	'\u{1F389}',
	'\ud800'
];

export const templateText = fc
	.array(
		fc.oneof(
			{ weight: 3, arbitrary: fc.constantFrom(...PIECES) },
			{ weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 5 }) }
		),
		{ maxLength: 16 }
	)
	.map((parts) => parts.join(''));

/** The same object as the one expected, and the same JSON text (key order included). */
export function same<T>(actual: T, expected: T): void {
	expect(actual).toStrictEqual(expected);
	expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}
