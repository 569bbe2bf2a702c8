import type { EditorState } from '@codemirror/state';
import { analyzeTemplate, type PlaceholderMark } from '$lib/core/template';
import { templateConfig } from './config';

/**
 * Placeholders never span lines (names and keys hold no line break), so a line can be analysed
 * on its own: highlighting and hover look at the lines they need, never the whole document.
 */

/** The placeholders of the lines from `from` to `to`, with document positions. */
export function marksInRange(state: EditorState, from: number, to: number): PlaceholderMark[] {
	const config = state.facet(templateConfig);
	if (!config) return [];
	const marks: PlaceholderMark[] = [];
	let line = state.doc.lineAt(from);
	for (;;) {
		const analysis = analyzeTemplate(line.text, config.service, undefined, config.accountKeys);
		for (const mark of analysis.marks) {
			marks.push({ ...mark, from: mark.from + line.from, to: mark.to + line.from });
		}
		if (line.to >= to || line.number === state.doc.lines) break;
		line = state.doc.line(line.number + 1);
	}
	return marks;
}

/** The innermost placeholder at a position, if any. */
export function placeholderAt(state: EditorState, pos: number): PlaceholderMark | undefined {
	const marks = marksInRange(state, pos, pos).filter((m) => m.from <= pos && pos <= m.to);
	return marks.sort((a, b) => a.to - a.from - (b.to - b.from))[0];
}
