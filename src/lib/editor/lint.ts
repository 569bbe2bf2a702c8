import type { Diagnostic } from '@codemirror/lint';
import type { EditorState } from '@codemirror/state';
import type { Issue } from '$lib/core/issues';
import { analyzeTemplate } from '$lib/core/template';
import { templateConfig } from './config';

/** Lint of a template: the core's diagnostics, with their quick fixes as actions. */

/** Turns core issues with positions into CodeMirror diagnostics. */
export function toDiagnostics(issues: readonly Issue[], length: number): Diagnostic[] {
	return issues
		.filter((issue) => issue.from !== undefined)
		.map((issue) => {
			const from = Math.min(issue.from ?? 0, length);
			const to = Math.min(Math.max(issue.to ?? from, from), length);
			const fix = issue.fix;
			return {
				from,
				to,
				severity: issue.severity,
				message: issue.message,
				source: issue.code,
				actions: fix
					? [
							{
								name: fix.label,
								apply: (view) => {
									view.dispatch({
										changes: { from: fix.from, to: fix.to, insert: fix.insert }
									});
								}
							}
						]
					: undefined
			} satisfies Diagnostic;
		});
}

/** The diagnostics of the template in `state`, judged for the configured service. */
export function templateDiagnostics(state: EditorState): Diagnostic[] {
	const config = state.facet(templateConfig);
	if (!config) return [];
	const text = state.doc.toString();
	return toDiagnostics(
		analyzeTemplate(text, config.service, config.field, config.accountKeys).issues,
		text.length
	);
}
