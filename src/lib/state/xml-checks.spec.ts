import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A worker that keeps what it is sent; the test answers for it. */
class FakeWorker {
	static made: FakeWorker[] = [];
	posted: string[] = [];
	onmessage: ((event: { data: unknown }) => void) | null = null;
	onerror: ((event: unknown) => void) | null = null;
	constructor() {
		FakeWorker.made.push(this);
	}
	postMessage(body: string): void {
		this.posted.push(body);
	}
	terminate(): void {}
	answer(): void {
		this.onmessage?.({ data: { ok: true } });
	}
}

/** A body large enough to be read in the worker, ending in `tag`. */
const large = (tag: string) => `<r>${'a'.repeat(40_000)}<t>${tag}</t></r>`;

async function load() {
	vi.resetModules();
	return import('./xml-checks.svelte');
}

beforeEach(() => {
	FakeWorker.made = [];
	vi.useFakeTimers();
	vi.stubGlobal('Worker', FakeWorker);
});

afterEach(() => {
	vi.useRealTimers();
	vi.unstubAllGlobals();
});

describe('the XML checks of large bodies', () => {
	it('while bodies come faster than the settle time, asks the worker nothing; then the newest', async () => {
		const { previewReader, pending, XML_SETTLE_MS } = await load();
		const bodies = Array.from({ length: 10 }, (_, i) => large(`k${i}`));
		for (const body of bodies) {
			expect(previewReader()(body)).toBeNull();
			expect(pending(body)).toBe(true);
			vi.advanceTimersByTime(XML_SETTLE_MS - 1);
		}
		expect(FakeWorker.made).toHaveLength(0);
		vi.advanceTimersByTime(1);
		expect(FakeWorker.made).toHaveLength(1);
		expect(FakeWorker.made[0].posted).toEqual([bodies[9]]);
		FakeWorker.made[0].answer();
		expect(pending(bodies[9])).toBe(false);
		expect(previewReader()(bodies[9])).toEqual({ ok: true });
		expect(pending(bodies[8])).toBe(true);
	});

	it('reads one body at a time: a body asked for during a read is read after it, once settled', async () => {
		const { previewReader, pending, XML_SETTLE_MS } = await load();
		const [first, second] = [large('one'), large('two')];
		previewReader()(first);
		vi.advanceTimersByTime(XML_SETTLE_MS);
		const worker = FakeWorker.made[0];
		expect(worker.posted).toEqual([first]);
		previewReader()(second);
		vi.advanceTimersByTime(XML_SETTLE_MS);
		expect(worker.posted).toEqual([first]);
		worker.answer();
		expect(worker.posted).toEqual([first, second]);
		expect(pending(first)).toBe(false);
		expect(pending(second)).toBe(true);
		worker.answer();
		expect(pending(second)).toBe(false);
	});

	it('reads a small body in place, with no worker and no wait', async () => {
		const { previewReader, pending } = await load();
		expect(previewReader()('<r>&</r>')).toMatchObject({ ok: false });
		expect(pending('<r/>')).toBe(false);
		expect(FakeWorker.made).toHaveLength(0);
	});
});
