import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pathProblem } from './request-path.js';

describe('pathProblem', () => {
	it('refuses a dot segment hidden by a tab or a line break, which URL parsers drop', () => {
		for (const target of ['/sink/.\t./api/tokens', '/sink/.\n./api/tokens', '/sink/.\r./api']) {
			expect({ target, problem: pathProblem(target) }).toEqual({
				target,
				problem: 'The request target must not hold control characters.'
			});
		}
	});

	it('lets through dots inside a segment, a lone %2F and anything in the query', () => {
		for (const target of [
			'/sink/k/file.json',
			'/sink/k/...',
			'/sink/k/..x',
			'/sink/k/a%2Fb',
			'/x?a=../b'
		]) {
			expect({ target, problem: pathProblem(target) }).toEqual({ target, problem: null });
		}
	});

	it('never lets through a path that a URL parser resolves out of its first segment', () => {
		const piece = fc.constantFrom(
			'.',
			'..',
			'/',
			'%2e',
			'%2E',
			'%2f',
			'\\',
			'%5c',
			'a',
			'\t',
			'\n',
			';',
			'%',
			'?',
			'#'
		);
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
				const target = `/sink/${pieces.join('')}`;
				if (pathProblem(target) !== null) return;
				expect(new URL(target, 'http://x').pathname.startsWith('/sink/')).toBe(true);
			}),
			{ numRuns: 3000 }
		);
	});
});
