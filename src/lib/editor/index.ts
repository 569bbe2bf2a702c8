import { autocompletion } from '@codemirror/autocomplete';
import { linter } from '@codemirror/lint';
import { Prec, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { templateCompletions } from './completion';
import { templateConfig, type TemplateEditorConfig } from './config';
import { placeholderHighlight } from './highlight';
import { placeholderHover, placeholderInfoKeys } from './hover';
import { templateDiagnostics } from './lint';
import { followColorScheme, pageColours, templateTheme } from './theme';

export { templateConfig, type TemplateEditorConfig } from './config';
export { templateCompletions } from './completion';
export { templateDiagnostics, toDiagnostics } from './lint';
export { closePlaceholderInfo, explainPlaceholder, placeholderInfo } from './hover';
export { marksInRange, placeholderAt } from './placeholders';
export { bodyLanguage } from './language';
export { externalChange, singleLine, type LineBreakNotice } from './single-line';

/**
 * Everything a template editor needs, as one extension: placeholder highlighting (above the
 * JSON or XML highlighting of a body, which `bodyLanguage` loads), completion, lint with quick
 * fixes, hover (also from the keyboard: Ctrl/Cmd+I or F1), the light or dark colours the page
 * has, and an accessible name for the
 * editable area.
 */
export function templateEditor(config: TemplateEditorConfig, label: string): Extension {
	return [
		templateConfig.of(config),
		Prec.high(placeholderHighlight()),
		autocompletion({ override: [templateCompletions], activateOnTyping: true }),
		linter((view) => templateDiagnostics(view.state), { delay: 150 }),
		placeholderHover(),
		placeholderInfoKeys(),
		templateTheme,
		pageColours,
		followColorScheme(),
		// In the tab order by its own tabindex too, so that checkers see that the editor's scroll
		// area (a long URL, a long body) is reached from the keyboard.
		EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' })
	];
}
