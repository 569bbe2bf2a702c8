import { Prec, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { templateConfig, type TemplateEditorConfig } from './config';
import { placeholderHighlight } from './highlight';
import { followColorScheme, pageColours, templateTheme } from './theme';

export { templateConfig, type TemplateEditorConfig } from './config';
export { marksInRange, placeholderAt } from './placeholders';
export { bodyLanguage } from './language';
export { externalChange, singleLine, type LineBreakNotice } from './single-line';

/**
 * What a template editor needs to answer its first keystroke, as one extension: its
 * configuration, placeholder highlighting (above the JSON or XML highlighting of a body, which
 * `bodyLanguage` loads), the light or dark colours the page has, and an accessible name for the
 * editable area. History, key bindings, completion, lint with quick fixes and hover (also from
 * the keyboard: Ctrl/Cmd+I or F1) come with `editingTools`, loaded once the editor is there.
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

let tools: Promise<Extension> | undefined;

/**
 * The editing tools of every template editor (history, key bindings, closing brackets,
 * completion, lint, hover), loaded on first use: the editor page answers typing before they
 * arrive, and its initial JavaScript leaves out their code (and the language package they need).
 */
export function editingTools(): Promise<Extension> {
	tools ??= import('./tools').then((m) => m.templateTools());
	return tools;
}
