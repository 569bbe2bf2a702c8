/**
 * Where each element of a well-formed document starts and ends in its text, so an element the
 * product does not know can be kept exactly as written (its entity references, CDATA, comments
 * and attribute quoting included) and written back on export.
 */

/** An element's place in the text: `text.slice(start, end)` is the element as written. */
export interface ElementSpan {
	start: number;
	end: number;
	children: ElementSpan[];
}

function endOf(text: string, terminator: string, from: number): number {
	const at = text.indexOf(terminator, from);
	return at === -1 ? text.length : at + terminator.length;
}

/** The index just past the `>` that ends a tag, skipping quoted attribute values. */
export function tagEnd(text: string, from: number): number {
	let quote: string | null = null;
	for (let i = from; i < text.length; i++) {
		const c = text[i];
		if (quote !== null) {
			if (c === quote) quote = null;
		} else if (c === '"' || c === "'") quote = c;
		else if (c === '>') return i + 1;
	}
	return text.length;
}

/** An element tag found by {@link scanTags}: `text.slice(start, end)` is the tag. */
export interface Tag {
	kind: 'open' | 'empty' | 'close';
	start: number;
	end: number;
}

/**
 * Visits the element tags of `text` in order, and the text between markup (`onText(from, to)`).
 * Comments, CDATA, processing instructions, declarations and quoted attribute values are
 * skipped, so markup inside them is not taken for tags.
 */
export function scanTags(
	text: string,
	onTag: (tag: Tag) => void,
	onText: (from: number, to: number) => void = () => {}
): void {
	let i = 0;
	while (i < text.length) {
		const lt = text.indexOf('<', i);
		onText(i, lt === -1 ? text.length : lt);
		if (lt === -1) break;
		if (text.startsWith('<!--', lt)) i = endOf(text, '-->', lt + 4);
		else if (text.startsWith('<![CDATA[', lt)) i = endOf(text, ']]>', lt + 9);
		else if (text[lt + 1] === '?') i = endOf(text, '?>', lt + 2);
		else if (text[lt + 1] === '!') i = endOf(text, '>', lt + 2);
		else if (text[lt + 1] === '/') {
			i = tagEnd(text, lt + 2);
			onTag({ kind: 'close', start: lt, end: i });
		} else {
			i = tagEnd(text, lt + 1);
			onTag({ kind: text[i - 2] === '/' ? 'empty' : 'open', start: lt, end: i });
		}
	}
}

/**
 * The spans of the root element and its descendants, in document order. `text` must be
 * well-formed (it is read after `parseXml` accepted it).
 */
export function elementSpans(text: string): ElementSpan {
	const top: ElementSpan = { start: 0, end: text.length, children: [] };
	const open: ElementSpan[] = [top];
	scanTags(text, (tag) => {
		if (tag.kind === 'close') {
			const closed = open.pop();
			if (closed && open.length > 0) closed.end = tag.end;
			return;
		}
		const span: ElementSpan = { start: tag.start, end: tag.end, children: [] };
		open[open.length - 1].children.push(span);
		if (tag.kind === 'open') open.push(span);
	});
	return top.children[0] ?? top;
}
