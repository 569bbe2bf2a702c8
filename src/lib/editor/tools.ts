import {
	autocompletion,
	closeBrackets,
	completionKeymap,
	startCompletion
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { linter, lintKeymap } from '@codemirror/lint';
import type { Extension } from '@codemirror/state';
import { keymap, type EditorView } from '@codemirror/view';
import { templateCompletions } from './completion';
import { templateConfig } from './config';
import { placeholderHover, placeholderInfoKeys } from './hover';
import { templateDiagnostics } from './lint';

/**
 * The editing tools of a template editor, loaded after its first key or once the page has settled
 * (`editingTools`): the
 * undo history, closing brackets, the key bindings, completion, lint with quick fixes and the
 * placeholder explanations (hover, Ctrl/Cmd+I, F1). They read the editor's `templateConfig`, so
 * one set serves every field. Typed text is shown, and its placeholders marked, without them.
 */
export function templateTools(): Extension {
	return [
		history(),
		closeBrackets(),
		keymap.of([...completionKeymap, ...lintKeymap, ...historyKeymap, ...defaultKeymap]),
		autocompletion({ override: [templateCompletions], activateOnTyping: true }),
		linter((view) => templateDiagnostics(view.state, view), {
			delay: 150,
			// A field's configuration (its service, its encoding) changes what is wrong in it.
			needsRefresh: (update) =>
				update.startState.facet(templateConfig) !== update.state.facet(templateConfig)
		}),
		placeholderHover(),
		placeholderInfoKeys()
	];
}

/**
 * Opens the completion at the cursor if a placeholder is being typed there (the completion source
 * answers nothing elsewhere): for keys typed into an editor before its tools were there, so a `%`
 * typed at once is completed as one typed later.
 */
export function completeAtCursor(view: EditorView): void {
	startCompletion(view);
}
