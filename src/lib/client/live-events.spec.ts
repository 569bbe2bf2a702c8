import { describe, expect, it } from 'vitest';
import { mergeNewestFirst } from './live-events.svelte';

describe('mergeNewestFirst', () => {
	it('keeps a live item a reload did not see, each item once, newest first', () => {
		const loaded = [{ id: 3 }, { id: 2 }, { id: 1 }];
		const live = [{ id: 5 }, { id: 4 }, { id: 3 }];
		expect(mergeNewestFirst(loaded, live, 10).map((i) => i.id)).toEqual([5, 4, 3, 2, 1]);
	});

	it('keeps at most the limit, dropping the oldest', () => {
		expect(mergeNewestFirst([{ id: 1 }, { id: 2 }], [{ id: 3 }], 2).map((i) => i.id)).toEqual([
			3, 2
		]);
	});
});
