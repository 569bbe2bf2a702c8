import { EditorView } from '@codemirror/view';
import type { Issue } from '$lib/core/issues';

/**
 * Puts the cursor on an issue's place in its field's editor, selected and in view; an issue of
 * no field brings the preview's diagnostics into view. Answers whether something was focused.
 */
export function focusIssue(issue: Issue): boolean {
	const host = issue.field
		? document.querySelector<HTMLElement>(`[data-field="${CSS.escape(issue.field)}"] .cm-editor`)
		: null;
	const view = host ? EditorView.findFromDOM(host) : null;
	if (!view) {
		const preview = document.querySelector<HTMLElement>('[aria-label="Request preview"]');
		preview?.scrollIntoView({ block: 'start' });
		return false;
	}
	const length = view.state.doc.length;
	const from = Math.min(issue.from ?? 0, length);
	const to = Math.min(Math.max(issue.to ?? from, from), length);
	view.dispatch({ selection: { anchor: from, head: to }, scrollIntoView: true });
	view.focus();
	return true;
}
