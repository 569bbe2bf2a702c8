import { describe, expect, it } from 'vitest';
import type { Issue } from '../issues';
import { countIssues, countOf, describeCounts, worstOf } from './summary';

function issue(severity: Issue['severity']): Issue {
	return { code: 'x', severity, message: 'x' };
}

describe('countIssues', () => {
	it('counts errors and warnings, not notes', () => {
		const counts = countIssues([issue('error'), issue('warning'), issue('info'), issue('error')]);
		expect(counts).toEqual({ errors: 2, warnings: 1 });
		expect(worstOf(counts)).toBe('error');
		expect(worstOf({ errors: 0, warnings: 3 })).toBe('warning');
		expect(worstOf(countIssues([issue('info')]))).toBe('ok');
	});
});

describe('describeCounts', () => {
	it('says the counts in words, singular and plural', () => {
		expect(describeCounts({ errors: 2, warnings: 1 })).toBe('2 errors, 1 warning');
		expect(describeCounts({ errors: 1, warnings: 0 })).toBe('1 error');
		expect(describeCounts({ errors: 0, warnings: 3 })).toBe('3 warnings');
		expect(describeCounts({ errors: 0, warnings: 0 })).toBe('no problems');
		expect(countOf(0, 'error')).toBe('0 errors');
		expect(countOf(1, 'warning')).toBe('1 warning');
	});
});
