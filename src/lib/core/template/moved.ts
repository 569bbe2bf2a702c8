import type { Edit } from '../format/edits';
import type { PlaceholderMark } from './analyze';
import type { PlaceholderToken, Token } from './tokenize';

/**
 * The tokens and marks of a text that local edits made of an earlier one, kept as the earlier
 * text's and the moves since. A key typed in a literal stretch lengthens one text token and
 * moves every offset after it: the thousands of tokens and marks of a large body are moved when
 * they are read, once, and a key that no one reads them after costs no copy of them.
 */

/** Moves kept at most before the lists are written out again. */
const MOST_MOVES = 32;

export function movedToken(token: PlaceholderToken, by: number): PlaceholderToken {
	const ref =
		token.ref.kind === 'sha1'
			? { kind: 'sha1' as const, inner: movedToken(token.ref.inner, by) }
			: token.ref;
	return { kind: 'placeholder', from: token.from + by, to: token.to + by, key: token.key, ref };
}

export function movedMark(mark: PlaceholderMark, by: number): PlaceholderMark {
	const moved: PlaceholderMark = {
		from: mark.from + by,
		to: mark.to + by,
		key: mark.key,
		scope: mark.scope
	};
	if ('variable' in mark) moved.variable = mark.variable;
	return moved;
}

export class Moved {
	/**
	 * @param tokens the earlier text's tokens
	 * @param marks its marks
	 * @param at offsets of the earlier text, ascending: the end of each text token that changed
	 * @param by how much each changed: every offset from `at` on moves by it
	 */
	constructor(
		readonly tokens: readonly Token[],
		readonly marks: readonly PlaceholderMark[],
		readonly at: readonly number[] = [],
		readonly by: readonly number[] = []
	) {}

	/** How far an offset of the earlier text has moved. */
	#shift(offset: number): number {
		let shift = 0;
		for (let k = 0; k < this.at.length && this.at[k] <= offset; k++) shift += this.by[k];
		return shift;
	}

	/**
	 * The moves after one more local edit (in the current text's offsets), or null when it is
	 * not inside one text token that stays non-empty: the lists are then written out whole.
	 */
	after(edit: Edit): Moved | null {
		const tokens = this.tokens;
		const end = (i: number) => tokens[i].to + this.#shift(tokens[i].to);
		let lo = 0;
		let hi = tokens.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (end(mid) <= edit.from) lo = mid + 1;
			else hi = mid;
		}
		// Typed at the end of a text token, just before a placeholder.
		if (lo > 0 && tokens[lo]?.kind !== 'text' && end(lo - 1) === edit.from) lo--;
		const token = tokens[lo];
		if (token?.kind !== 'text') return null;
		const by = edit.inserted - (edit.to - edit.from);
		const from = token.from + this.#shift(token.from);
		if (edit.from < from || edit.to > end(lo) || end(lo) + by <= from) return null;
		if (this.at.length >= MOST_MOVES) return null;
		const at = [...this.at];
		const moves = [...this.by];
		const k = at.findIndex((a) => a >= token.to);
		if (at[k] === token.to) moves[k] += by;
		else {
			const place = k === -1 ? at.length : k;
			at.splice(place, 0, token.to);
			moves.splice(place, 0, by);
		}
		return new Moved(tokens, this.marks, at, moves);
	}

	/** Each of `items` (ascending), as `move` writes it moved by its shift. */
	#walk<T extends { from: number }>(
		items: readonly T[],
		move: (item: T, shift: number, next: number) => T
	): T[] {
		const { at, by } = this;
		const out: T[] = [];
		let k = 0;
		let shift = 0;
		for (const item of items) {
			while (k < at.length && at[k] <= item.from) shift += by[k++];
			out.push(move(item, shift, k));
		}
		return out;
	}

	/** The current text's tokens. */
	currentTokens(): Token[] {
		return this.#walk<Token>(this.tokens, (token, shift, k) => {
			if (token.kind === 'placeholder') return shift === 0 ? token : movedToken(token, shift);
			// A text token's end moves by its own change too.
			const toShift = this.at[k] === token.to ? shift + this.by[k] : shift;
			if (shift === 0 && toShift === 0) return token;
			return { kind: 'text', from: token.from + shift, to: token.to + toShift };
		});
	}

	/** The current text's marks. */
	currentMarks(): PlaceholderMark[] {
		return this.#walk(this.marks, (mark, shift) => (shift === 0 ? mark : movedMark(mark, shift)));
	}
}

/** Makes `key` of `target` a value made when first read; it keeps its place among the keys. */
export function whenRead<T extends object, K extends keyof T>(
	target: T,
	key: K,
	make: () => T[K]
): void {
	let value: T[K] | undefined;
	let made = false;
	Object.defineProperty(target, key, {
		enumerable: true,
		configurable: true,
		get: () => {
			if (!made) {
				value = make();
				made = true;
			}
			return value;
		}
	});
}
