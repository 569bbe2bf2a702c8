import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A worker that keeps what it is sent; the test answers for it. */
class FakeWorker {
	static made: FakeWorker[] = [];
	posted: { kind: string; body: string }[] = [];
	onmessage: ((event: { data: unknown }) => void) | null = null;
	onerror: ((event: unknown) => void) | null = null;
	constructor() {
		FakeWorker.made.push(this);
	}
	postMessage(asked: { kind: string; body: string }): void {
		this.posted.push(asked);
	}
	terminate(): void {}
	answer(data: unknown = { ok: true }): void {
		this.onmessage?.({ data });
	}
}

/** A body large enough to be read in the worker, ending in `tag`. */
const large = (tag: string) => `<r>${'a'.repeat(40_000)}<t>${tag}</t></r>`;
const xml = (body: string) => ({ kind: 'xml', body });

async function load() {
	vi.resetModules();
	return import('./body-checks.svelte');
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
		const { previewReader, pending, SETTLE_MS } = await load();
		const bodies = Array.from({ length: 10 }, (_, i) => large(`k${i}`));
		for (const body of bodies) {
			expect(previewReader('xml')(body)).toBeNull();
			expect(pending('xml', body)).toBe(true);
			vi.advanceTimersByTime(SETTLE_MS - 1);
		}
		expect(FakeWorker.made).toHaveLength(0);
		vi.advanceTimersByTime(1);
		expect(FakeWorker.made).toHaveLength(1);
		expect(FakeWorker.made[0].posted).toEqual([xml(bodies[9])]);
		FakeWorker.made[0].answer();
		expect(pending('xml', bodies[9])).toBe(false);
		expect(previewReader('xml')(bodies[9])).toEqual({ ok: true });
		expect(pending('xml', bodies[8])).toBe(true);
	});

	it('reads one body at a time: a body asked for during a read is read after it, once settled', async () => {
		const { previewReader, pending, SETTLE_MS } = await load();
		const [first, second] = [large('one'), large('two')];
		previewReader('xml')(first);
		vi.advanceTimersByTime(SETTLE_MS);
		const worker = FakeWorker.made[0];
		expect(worker.posted).toEqual([xml(first)]);
		previewReader('xml')(second);
		vi.advanceTimersByTime(SETTLE_MS);
		expect(worker.posted).toEqual([xml(first)]);
		worker.answer();
		expect(worker.posted).toEqual([xml(first), xml(second)]);
		expect(pending('xml', first)).toBe(false);
		expect(pending('xml', second)).toBe(true);
		worker.answer();
		expect(pending('xml', second)).toBe(false);
	});

	it('reads a small body in place, with no worker and no wait', async () => {
		const { previewReader, pending } = await load();
		expect(previewReader('xml')('<r>&</r>')).toMatchObject({ ok: false });
		expect(pending('xml', '<r/>')).toBe(false);
		expect(previewReader('json')('[1,')).toMatchObject({ ok: false });
		expect(pending('json', '[1]')).toBe(false);
		expect(FakeWorker.made).toHaveLength(0);
	});
});

describe('the JSON checks of large bodies', () => {
	it('are the worker’s too, kept apart from an XML verdict on the same text', async () => {
		const { previewReader, pending, SETTLE_MS } = await load();
		const body = `[${'1,'.repeat(20_000)}`;
		expect(previewReader('json')(body)).toBeNull();
		expect(pending('json', body)).toBe(true);
		vi.advanceTimersByTime(SETTLE_MS);
		const worker = FakeWorker.made[0];
		expect(worker.posted).toEqual([{ kind: 'json', body }]);
		const fault = { ok: false, fault: { message: 'Unexpected end of JSON input', offset: 40_001 } };
		worker.answer(fault);
		expect(pending('json', body)).toBe(false);
		expect(previewReader('json')(body)).toEqual(fault);
		expect(pending('xml', body)).toBe(true);
	});
});
