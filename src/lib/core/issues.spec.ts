import { describe, expect, it } from 'vitest';
import { append, MAX_REPEATS, Repeats, type Issue } from './issues';

function warning(message: string, from: number): Issue {
	return { code: 'unknown_variable', severity: 'warning', message, from, to: from + 1 };
}

describe('Repeats', () => {
	it('lists at most MAX_REPEATS issues per key; the last one listed says how many more follow', () => {
		const listed: Issue[] = [];
		const repeats = new Repeats(listed);
		for (let i = 0; i < MAX_REPEATS + 1234; i++) repeats.add('a', () => warning('A.', i));
		repeats.add('b', () => warning('B.', 99_999));
		repeats.finish();
		expect(listed).toHaveLength(MAX_REPEATS + 1);
		expect(listed.map((i) => i.from)).toEqual([
			...Array.from({ length: MAX_REPEATS }, (_, i) => i),
			99_999
		]);
		expect(listed[MAX_REPEATS - 1].message).toBe(
			'A. 1,234 more like it follow, not listed one by one.'
		);
		expect(listed.slice(0, MAX_REPEATS - 1).every((i) => i.message === 'A.')).toBe(true);
		expect(listed[MAX_REPEATS].message).toBe('B.');
	});

	it('makes no issue past the share, and says nothing when a key has exactly its share', () => {
		const listed: Issue[] = [];
		const repeats = new Repeats(listed);
		let made = 0;
		for (let i = 0; i < MAX_REPEATS * 3; i++) {
			repeats.add(i < MAX_REPEATS ? 'exact' : 'over', () => (made++, warning('W.', i)));
		}
		repeats.finish();
		expect(made).toBe(MAX_REPEATS * 2);
		expect(listed.filter((i) => i.message === 'W.')).toHaveLength(MAX_REPEATS * 2 - 1);
	});

	it('keys issues it is given by code and message, and leaves the given objects as they were', () => {
		const given = Array.from({ length: MAX_REPEATS + 2 }, (_, i) => warning('Same.', i));
		const other = { ...warning('Other.', 500), code: 'other_code' };
		const listed: Issue[] = [];
		const repeats = new Repeats(listed);
		repeats.addAll([...given, other], 'genericSmsSendPostData');
		repeats.finish();
		expect(listed).toHaveLength(MAX_REPEATS + 1);
		expect(listed.every((i) => i.field === 'genericSmsSendPostData')).toBe(true);
		expect(listed[MAX_REPEATS - 1].message).toBe(
			'Same. 2 more like it follow, not listed one by one.'
		);
		expect(given.every((i) => i.message === 'Same.' && i.field === undefined)).toBe(true);
	});
});

describe('append', () => {
	it('adds any number of items, where a spread of a few hundred thousand overflows the stack', () => {
		const many = Array.from({ length: 500_000 }, (_, i) => i);
		expect(() => [0].push(...many)).toThrow(RangeError);
		const target = [-1];
		append(target, many);
		expect(target).toHaveLength(500_001);
		expect(target[500_000]).toBe(499_999);
	});
});
