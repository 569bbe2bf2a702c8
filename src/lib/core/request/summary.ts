import type { Issue } from '../issues';

/**
 * How a service's diagnostics are summed up wherever they are shown (the preview's counts, the
 * editor's list of services): one count of errors and one of warnings, said in words.
 */

/** The errors and warnings among some issues (notes are not counted). */
export interface IssueCounts {
	errors: number;
	warnings: number;
}

/** Counts the errors and warnings among `issues`. */
export function countIssues(issues: readonly Issue[]): IssueCounts {
	let errors = 0;
	let warnings = 0;
	for (const issue of issues) {
		if (issue.severity === 'error') errors++;
		else if (issue.severity === 'warning') warnings++;
	}
	return { errors, warnings };
}

/** "1 error", "2 errors", "0 warnings". */
function count(n: number, noun: string): string {
	return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * Counts in words: "2 errors, 1 warning", "1 warning", or "no problems" when there are none.
 */
export function describeCounts(counts: IssueCounts): string {
	const parts: string[] = [];
	if (counts.errors) parts.push(count(counts.errors, 'error'));
	if (counts.warnings) parts.push(count(counts.warnings, 'warning'));
	return parts.length ? parts.join(', ') : 'no problems';
}

/** The worst severity among the counts: what a status mark's colour says. */
export function worstOf(counts: IssueCounts): 'error' | 'warning' | 'ok' {
	return counts.errors ? 'error' : counts.warnings ? 'warning' : 'ok';
}

/** The count of one severity in words, always with its number ("0 errors", "1 warning"). */
export function countOf(n: number, noun: 'error' | 'warning'): string {
	return count(n, noun);
}
