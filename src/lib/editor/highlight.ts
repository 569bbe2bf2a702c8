import { RangeSetBuilder } from '@codemirror/state';
import {
	Decoration,
	EditorView,
	ViewPlugin,
	type DecorationSet,
	type ViewUpdate
} from '@codemirror/view';
import { templateConfig } from './config';
import { marksInRange } from './placeholders';

/** Placeholder marks by scope, on top of the body's JSON/XML highlighting. */

const SCOPE_MARKS = {
	service: Decoration.mark({ class: 'cm-tpl-placeholder cm-tpl-service' }),
	account: Decoration.mark({ class: 'cm-tpl-placeholder cm-tpl-account' }),
	global: Decoration.mark({ class: 'cm-tpl-placeholder cm-tpl-global' }),
	function: Decoration.mark({ class: 'cm-tpl-placeholder cm-tpl-function' }),
	unknown: Decoration.mark({ class: 'cm-tpl-placeholder cm-tpl-unknown' })
};

function build(view: EditorView): DecorationSet {
	const builder = new RangeSetBuilder<Decoration>();
	for (const { from, to } of view.visibleRanges) {
		const marks = marksInRange(view.state, from, to).sort((a, b) => a.from - b.from || b.to - a.to);
		for (const mark of marks) builder.add(mark.from, mark.to, SCOPE_MARKS[mark.scope]);
	}
	return builder.finish();
}

/** Marks placeholders in the visible lines, coloured by scope. */
export function placeholderHighlight() {
	return ViewPlugin.fromClass(
		class {
			decorations: DecorationSet;
			constructor(view: EditorView) {
				this.decorations = build(view);
			}
			update(update: ViewUpdate) {
				const reconfigured =
					update.startState.facet(templateConfig) !== update.state.facet(templateConfig);
				if (update.docChanged || update.viewportChanged || reconfigured) {
					this.decorations = build(update.view);
				}
			}
		},
		{ decorations: (plugin) => plugin.decorations }
	);
}
