import { autocompletion } from '@codemirror/autocomplete';
import { json } from '@codemirror/lang-json';
import { xml } from '@codemirror/lang-xml';
import { linter } from '@codemirror/lint';
import { Prec, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { templateCompletions } from './completion';
import { templateConfig, type TemplateEditorConfig } from './config';
import { placeholderHighlight } from './highlight';
import { placeholderHover } from './hover';
import { templateDiagnostics } from './lint';
import { templateTheme } from './theme';

export { templateConfig, type TemplateEditorConfig } from './config';
export { templateCompletions } from './completion';
export { templateDiagnostics, toDiagnostics } from './lint';
export { marksInRange, placeholderAt } from './placeholders';

/**
 * Everything a template editor needs, as one extension: placeholder highlighting (above the
 * JSON or XML highlighting of a body), completion, lint with quick fixes, hover, and an
 * accessible name for the editable area.
 */
export function templateEditor(config: TemplateEditorConfig, label: string): Extension {
	const language = config.encoding === 'json' ? json() : config.encoding === 'xml' ? xml() : [];
	return [
		templateConfig.of(config),
		language,
		Prec.high(placeholderHighlight()),
		autocompletion({ override: [templateCompletions], activateOnTyping: true }),
		linter((view) => templateDiagnostics(view.state), { delay: 150 }),
		placeholderHover(),
		templateTheme,
		EditorView.contentAttributes.of({ 'aria-label': label })
	];
}
