import { saidChange } from './edits';

/** How much longer than asked a head is kept, so that deleting keys can shorten it. */
const SLACK = 4 * 1024;

/**
 * The start of a text that changes a key at a time (a preview shows a large body from its
 * start). Each head is derived from the last one and the change said to make the new text
 * (`noteEdit`), so the new text, made of pieces, is not read and so not copied whole; any other
 * text is sliced.
 */
export class Head {
	#text = '';
	/** A start of `#text` at least as long as asked for last, or all of it. */
	#lead = '';

	/** `text.slice(0, length)`. */
	of(text: string, length: number): string {
		let lead = text === this.#text ? this.#lead : this.#derived(text);
		if (lead === undefined || lead.length < Math.min(length, text.length)) {
			lead = text.slice(0, length + SLACK);
		} else if (lead.length > length + SLACK) {
			lead = lead.slice(0, length + SLACK);
		}
		this.#text = text;
		this.#lead = lead;
		return lead.length > length ? lead.slice(0, length) : lead;
	}

	/** A start of `text` from the last one, when a change said how `text` was made of it. */
	#derived(text: string): string | undefined {
		const change = saidChange(this.#text, text);
		if (!change) return undefined;
		const { edit, inserted } = change;
		const lead = this.#lead;
		const all = lead.length === this.#text.length;
		// Everything kept comes before the change: it starts the new text as it did the old.
		if (!all && edit.from >= lead.length) return lead;
		if (all || edit.to <= lead.length)
			return lead.slice(0, edit.from) + inserted + lead.slice(edit.to);
		return lead.slice(0, edit.from) + inserted;
	}
}
