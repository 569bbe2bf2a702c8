import { Prec, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { templateConfig, type TemplateEditorConfig } from './config';
import { placeholderHighlight } from './highlight';
import { followColorScheme, pageColours, templateTheme } from './theme';

export { templateConfig, type TemplateEditorConfig } from './config';
export { marksInRange, placeholderAt } from './placeholders';
export { bodyLanguage } from './language';
export { externalChange, singleLine, type LineBreakNotice } from './single-line';
export { rememberText, settleAfterFrame, textAfter } from './text-after';

/**
 * What a template editor needs to answer its first keystroke, as one extension: its
 * configuration, placeholder highlighting (above the JSON or XML highlighting of a body, which
 * `bodyLanguage` loads), the light or dark colours the page has, and an accessible name for the
 * editable area. History, key bindings, completion, lint with quick fixes and hover (also from
 * the keyboard: Ctrl/Cmd+I or F1) come with `editingTools`, loaded once the page has settled or once
 * the first key pressed in an editor has been shown.
 */
export function templateEditor(config: TemplateEditorConfig, label: string): Extension {
	return [
		templateConfig.of(config),
		Prec.high(placeholderHighlight()),
		templateTheme,
		pageColours,
		followColorScheme(),
		// In the tab order by its own tabindex too, so that checkers see that the editor's scroll
		// area (a long URL, a long body) is reached from the keyboard.
		EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' })
	];
}

/** The editing tools, and what an editor typed into before they came does with them. */
export interface EditingTools {
	extension: Extension;
	/** Opens the completion at the cursor, if a placeholder is being typed there. */
	complete(view: EditorView): void;
}

let tools: Promise<EditingTools> | undefined;
/** Editors waiting for the tools that no editor has asked for yet. */
const waiting = new Set<(tools: EditingTools) => void>();

/**
 * The editing tools of every template editor (history, key bindings, closing brackets,
 * completion, lint, hover), loaded on first use: the editor page answers typing before they
 * arrive, and its initial JavaScript leaves out their code (and the language package they need).
 * Every editor that waits for them ({@link whenEditingTools}) gets them when one asks.
 */
export function editingTools(): Promise<EditingTools> {
	tools ??= import('./tools').then((m) => {
		const loaded = { extension: m.templateTools(), complete: m.completeAtCursor };
		for (const install of waiting) install(loaded);
		waiting.clear();
		return loaded;
	});
	return tools;
}

/**
 * Calls `install` with the editing tools once any editor has asked for them (soon after, if one
 * has), without asking for them itself. Answers how to stop waiting.
 */
export function whenEditingTools(install: (tools: EditingTools) => void): () => void {
	if (!tools) {
		waiting.add(install);
		return () => waiting.delete(install);
	}
	let waits = true;
	void tools.then((loaded) => waits && install(loaded));
	return () => (waits = false);
}
