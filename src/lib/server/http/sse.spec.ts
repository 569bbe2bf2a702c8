import { describe, expect, it } from 'vitest';
import { ACCESS_ENDED_EVENT } from '$lib/api-schemas/streams';
import {
	GUARD_FRESH_MS,
	RECONNECT_EVENT,
	WAITING_MAX_BYTES,
	resumableEventStream,
	type StreamGuard
} from './sse';

/**
 * The resumable stream with news from other instances: items recorded elsewhere are read from
 * the store by id when a poke comes, and each item goes out once, in order, whether it came
 * from this process or from a poke.
 */

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

/** What `promise` answers within two seconds, or `late`. */
const within = <T>(promise: Promise<T>) =>
	Promise.race([promise, new Promise<'late'>((resolve) => setTimeout(resolve, 2000, 'late'))]);

interface Item {
	id: number;
	pad?: string;
}

/**
 * A caller whose access the test ends: each check answers what was true as it started, a moment
 * later (as the store would), and counts itself; `stuck` stops the answers (a stuck store), and
 * `noisy` makes news come during every check (news faster than the store answers).
 */
function caller() {
	let reason: string | null = null;
	let checks = 0;
	let answering = true;
	let noisy = false;
	const watchers = new Set<() => void>();
	const polls = new Set<() => void>();
	const ended: string[] = [];
	const guard: StreamGuard = {
		async check() {
			checks++;
			const answer = reason;
			if (noisy) setTimeout(news, 1);
			await settle();
			if (!answering) await new Promise(() => undefined);
			return answer;
		},
		watch(changed, poll) {
			watchers.add(changed);
			polls.add(poll);
			return () => {
				watchers.delete(changed);
				polls.delete(poll);
			};
		},
		ended: (why) => ended.push(why)
	};
	const news = () => watchers.forEach((changed) => changed());
	return {
		guard,
		/** The access ends, silently: only a later check finds out. */
		end: (why: string) => (reason = why),
		/** Checks from now on never answer. */
		stuck: () => (answering = false),
		/** News comes during every check from now on. */
		noisy: () => (noisy = true),
		/** News that the access changed. */
		news,
		/** A poll of an instance that cannot hear news from the others. */
		poll: () => polls.forEach((poll) => poll()),
		checks: () => checks,
		ended,
		watching: () => watchers.size
	};
}

/** A store of items and a stream over it, with its local watchers and its pokes. */
function setup(after: number | null, initial: number[], guard = caller().guard) {
	const items: Item[] = initial.map((id) => ({ id }));
	const listeners = new Set<(item: Item) => void>();
	const pokes = new Set<() => void>();
	let reads = 0;
	const controller = new AbortController();
	const response = resumableEventStream<Item>(controller.signal, {
		type: 'thing',
		after,
		watch: (listener) => {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		missed: async (from) => {
			// Answered a moment later, as a database would.
			await settle();
			reads++;
			return items.filter((item) => item.id > from).reverse();
		},
		changes: (poke) => {
			pokes.add(poke);
			return () => pokes.delete(poke);
		},
		guard
	});
	const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
	let text = '';
	return {
		/** Recorded here: stored and told to the local watchers. */
		local(id: number, pad?: string) {
			items.push({ id, pad });
			for (const listener of listeners) listener({ id, pad });
		},
		/** Recorded by another instance: stored, and a poke follows. */
		remote(id: number) {
			items.push({ id });
		},
		poke: () => pokes.forEach((poke) => poke()),
		reads: () => reads,
		/** Waits for the `: connected` comment. */
		async connected(): Promise<void> {
			while (!/^: connected$/m.test(text)) {
				const { value, done } = await reader.read();
				if (done) throw new Error('The stream ended.');
				text += value;
			}
		},
		/** The ids sent until `count` arrived. */
		async ids(count: number): Promise<number[]> {
			for (;;) {
				const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
				if (ids.length >= count) return ids;
				const { value, done } = await reader.read();
				if (done) return ids;
				text += value;
			}
		},
		/** Everything until the stream ends. */
		async rest(): Promise<string> {
			for (;;) {
				const { value, done } = await reader.read();
				if (done) return text;
				text += value;
			}
		},
		stop() {
			controller.abort();
			return pokes.size;
		}
	};
}

describe('resumableEventStream with changes from elsewhere', () => {
	it('starts a new stream after the newest item, then sends poked items in order', async () => {
		const s = setup(null, [1, 2, 3]);
		await settle();
		s.remote(4);
		s.remote(5);
		s.poke();
		expect(await s.ids(2)).toEqual([4, 5]);
	});

	it('sends an item once whether it came from this process or from a poke', async () => {
		const s = setup(null, [7]);
		await settle();
		s.local(8);
		s.remote(9);
		s.poke();
		s.poke();
		await settle();
		s.local(10);
		s.poke();
		await settle();
		expect(await s.ids(3)).toEqual([8, 9, 10]);
	});

	it('resumes after an id with the missed items, and a poke during the replay reads again', async () => {
		const s = setup(2, [1, 2, 3]);
		s.remote(4);
		s.poke();
		expect(await s.ids(2)).toEqual([3, 4]);
		await settle();
		s.remote(5);
		s.poke();
		expect(await s.ids(3)).toEqual([3, 4, 5]);
	});

	it('keeps the items a new stream held while it looked for the newest', async () => {
		const s = setup(null, [1]);
		// Recorded here (and stored) before the first read answered: it belongs to this stream.
		s.local(2);
		expect(await s.ids(1)).toEqual([2]);
	});

	it('says it is connected only once an item recorded elsewhere from then on will be sent', async () => {
		const s = setup(null, [1, 2]);
		await s.connected();
		s.remote(3);
		s.poke();
		await settle();
		await settle();
		s.local(4);
		expect((await s.ids(1))[0]).toBe(3);
		expect(await s.ids(2)).toEqual([3, 4]);
	});

	it('stops listening to pokes when the browser goes away', async () => {
		const s = setup(null, []);
		await settle();
		await settle();
		expect(s.stop()).toBe(0);
		expect(s.reads()).toBe(1);
	});
});

describe('a stream that checks its caller again', () => {
	/** The ids a stream sent until it ended, and the data of its last event. */
	async function sentUntilEnd(s: ReturnType<typeof setup>) {
		const text = await s.rest();
		return {
			ids: [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])),
			ended: new RegExp(`^event: ${ACCESS_ENDED_EVENT}\ndata: (.*)$`, 'm').exec(text)?.[1]
		};
	}

	/** A new stream, once connected, and its caller. */
	async function connectedStream() {
		const who = caller();
		const s = setup(null, [], who.guard);
		await s.connected();
		return { who, s };
	}

	it('ends at news of a change that ended the access, and sends nothing recorded after', async () => {
		const who = caller();
		const s = setup(null, [], who.guard);
		await s.connected();
		s.local(1);
		expect(await s.ids(1)).toEqual([1]);
		who.end('token_revoked');
		who.news();
		s.local(2);
		expect(await sentUntilEnd(s)).toEqual({ ids: [1], ended: '{"reason":"token_revoked"}' });
		expect(who.ended).toEqual(['token_revoked']);
		expect(who.watching()).toBe(0);
	});

	it('checks again before an event once the last check is a moment old, news or not', async () => {
		const who = caller();
		const s = setup(null, [], who.guard);
		await s.connected();
		who.end('deactivated');
		await new Promise((resolve) => setTimeout(resolve, GUARD_FRESH_MS + 50));
		s.local(1);
		expect(await sentUntilEnd(s)).toEqual({ ids: [], ended: '{"reason":"deactivated"}' });
	});

	it('does not trust a check that was under way when news came', async () => {
		const who = caller();
		const s = setup(null, [], who.guard);
		await s.connected();
		who.news();
		// The check the news started answers as access was before it ended.
		who.end('role_changed');
		who.news();
		s.local(1);
		expect(await sentUntilEnd(s)).toEqual({ ids: [], ended: '{"reason":"role_changed"}' });
	});

	it('holds everything until the first check passed', async () => {
		const who = caller();
		who.end('session_ended');
		const s = setup(2, [1, 2, 3], who.guard);
		s.local(4);
		const text = await s.rest();
		expect(text).not.toMatch(/^(id|retry):/m);
		expect(text).toMatch(/"reason":"session_ended"/);
	});

	it('checks a busy stream once per moment, not once per event', async () => {
		const who = caller();
		const s = setup(null, [], who.guard);
		await s.connected();
		const before = who.checks();
		expect(before).toBeGreaterThan(0);
		for (let id = 1; id <= 200; id++) s.local(id);
		expect(await s.ids(200)).toHaveLength(200);
		expect(who.checks() - before).toBeLessThanOrEqual(1);
		s.stop();
	});

	it('checks at a poll only once the last check is a moment old', async () => {
		const { who, s } = await connectedStream();
		const before = who.checks();
		for (let i = 0; i < 5; i++) who.poll();
		await settle();
		expect(who.checks()).toBe(before);
		who.end('deactivated');
		await new Promise((resolve) => setTimeout(resolve, GUARD_FRESH_MS + 50));
		who.poll();
		expect(await sentUntilEnd(s)).toEqual({ ids: [], ended: '{"reason":"deactivated"}' });
	});

	it('holds what a poll reads until a check made after the poll', async () => {
		const { who, s } = await connectedStream();
		// Ended on another instance, whose news cannot reach this one: only its polls can tell.
		who.end('role_changed');
		s.remote(1);
		who.poll();
		s.poke();
		expect(await sentUntilEnd(s)).toEqual({ ids: [], ended: '{"reason":"role_changed"}' });
	});

	it('sends what waits while news keeps coming faster than a check answers', async () => {
		const { who, s } = await connectedStream();
		who.noisy();
		who.news();
		s.local(1);
		expect(await within(s.ids(1))).toEqual([1]);
		s.stop();
	});

	it('ends a stream whose waiting text outgrows its cap, telling it to reconnect', async () => {
		const { who, s } = await connectedStream();
		who.stuck();
		who.news();
		const pad = 'x'.repeat(1024 * 1024);
		for (let id = 1; id <= Math.ceil(WAITING_MAX_BYTES / pad.length) + 1; id++) s.local(id, pad);
		const text = await within(s.rest());
		expect(text.slice(text.lastIndexOf('event:'))).toBe(
			`event: ${RECONNECT_EVENT}\ndata: {"reason":"behind"}\n\n`
		);
		expect(text).not.toMatch(/^id:/m);
		expect(who.ended).toEqual([]);
		expect(who.watching()).toBe(0);
	});
});
