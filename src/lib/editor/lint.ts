import type { Diagnostic } from '@codemirror/lint';
import type { EditorState } from '@codemirror/state';
import type { Issue } from '$lib/core/issues';
import { analyzeTemplate } from '$lib/core/template';
import { TemplateMemo } from '$lib/core/template/incremental';
import { templateConfig } from './config';
import { knownText } from './text-after';

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

/**
 * Each editor's last lint, from which the next one is derived where the edits since were local:
 * a whole analysis of a megabyte body is a long task, while keys still come.
 */
const memos = new WeakMap<object, TemplateMemo>();

/**
 * The diagnostics of the template in `state`, judged for the configured service; with `owner`
 * (the editor), derived from that owner's last ones.
 */
export function templateDiagnostics(state: EditorState, owner?: object): Diagnostic[] {
	const config = state.facet(templateConfig);
	if (!config) return [];
	const text = knownText(state.doc) ?? state.doc.toString();
	let memo = owner && memos.get(owner);
	if (owner && !memo) memos.set(owner, (memo = new TemplateMemo()));
	const analysis = memo
		? memo.analyze('lint', text, config.service, config.field, config.accountKeys ?? [])
		: analyzeTemplate(text, config.service, config.field, config.accountKeys);
	return toDiagnostics(analysis.issues, text.length);
}
