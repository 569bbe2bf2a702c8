import { describe, expect, it } from 'vitest';
import type { PhoneState } from '$lib/core/phones';
import type { MessagingInput } from './journey';
import { liveChannel, liveFeed, LIVE_BYTES } from './live';

const input = {
	values: { sender: { password: 'alice-secret' }, recipient: { password: 'bob-secret' } }
} as MessagingInput;

/** A phone's state of about `bytes` bytes. */
const big = (bytes: number) =>
	({ identity: { label: 'x'.repeat(bytes) } }) as unknown as PhoneState;

describe('the keys a run is followed by', () => {
	it('keep at most LIVE_BYTES of items in all, the oldest going first', () => {
		const item = Math.floor(LIVE_BYTES / 8);
		const first = liveFeed(1, 'bytes-first-0123456789', input);
		for (let i = 0; i < 6; i++)
			first.listener({ kind: 'state', phone: 'sender', state: big(item) });
		const second = liveFeed(2, 'bytes-second-0123456789', input);
		for (let i = 0; i < 6; i++)
			second.listener({ kind: 'state', phone: 'sender', state: big(item) });
		const kept = (user: number, key: string) =>
			liveChannel(user, key)
				.after(0)
				.map((i) => i.id);
		// Newest first: the first key lost its oldest items, the second kept all of its own.
		expect(kept(2, 'bytes-second-0123456789')).toEqual([6, 5, 4, 3, 2, 1]);
		const left = kept(1, 'bytes-first-0123456789');
		expect(left.length).toBeLessThan(6);
		expect(left.length).toBeGreaterThan(0);
		expect(left[0]).toBe(6);
	});

	it("masks the accounts' passwords in what it keeps", () => {
		const feed = liveFeed(3, 'masked-0123456789abc', input);
		feed.listener({
			kind: 'state',
			phone: 'sender',
			state: { identity: { label: 'pass=alice-secret' } } as unknown as PhoneState
		});
		expect(JSON.stringify(liveChannel(3, 'masked-0123456789abc').after(0))).not.toContain(
			'alice-secret'
		);
	});
});
