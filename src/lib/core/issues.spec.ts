import { describe, expect, it } from 'vitest';
import { append, MAX_OF_A_KIND, MAX_REPEATS, Repeats, type Issue } from './issues';

function warning(message: string, from: number): Issue {
	return { code: 'unknown_variable', severity: 'warning', message, from, to: from + 1 };
}

describe('Repeats', () => {
	it('lists at most MAX_REPEATS issues per key; the last one listed says how many more follow', () => {
		const listed: Issue[] = [];
		const repeats = new Repeats(listed);
		for (let i = 0; i < MAX_REPEATS + 1234; i++) repeats.add('name', 'a', () => warning('A.', i));
		repeats.add('name', 'b', () => warning('B.', 99_999));
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
			repeats.add('name', i < MAX_REPEATS ? 'exact' : 'over', () => (made++, warning('W.', i)));
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

describe('Repeats of a kind', () => {
	it('lists at most MAX_OF_A_KIND issues of a kind at different names, then counts them', () => {
		const listed: Issue[] = [];
		const repeats = new Repeats(listed);
		let made = 0;
		for (let i = 0; i < MAX_OF_A_KIND + 500; i++) {
			repeats.add('name', `n${i}`, () => (made++, warning(`N${i}.`, i)));
		}
		// A name listed already still has its share; another kind is not held back.
		repeats.add('name', 'n0', () => warning('N0 again.', 1_000_000));
		repeats.add('raw_breaks', 'x', () => ({ ...warning('X.', 7), code: 'raw_breaks' }));
		repeats.finish();
		expect(made).toBe(MAX_OF_A_KIND);
		expect(listed).toHaveLength(MAX_OF_A_KIND + 2);
		// The note goes on the last issue of the kind listed: here the name listed again.
		expect(listed[MAX_OF_A_KIND - 1].message).toBe(`N${MAX_OF_A_KIND - 1}.`);
		expect(listed[MAX_OF_A_KIND].message).toBe(
			'N0 again. 500 more of this kind at other names follow, not listed one by one.'
		);
		expect(listed.at(-1)?.message).toBe('X.');
	});

	it('says both counts on one issue when it is the last of its key and of its kind', () => {
		const listed: Issue[] = [];
		const repeats = new Repeats(listed);
		for (let i = 0; i < MAX_OF_A_KIND - 1; i++)
			repeats.add('name', `n${i}`, () => warning('N.', i));
		for (let i = 0; i < MAX_REPEATS + 3; i++) repeats.add('name', 'last', () => warning('L.', i));
		repeats.add('name', 'another', () => warning('A.', 0));
		repeats.finish();
		expect(listed.at(-1)?.message).toBe(
			'L. 3 more like it follow; 1 more of this kind at other names follow, not listed one by one.'
		);
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
