import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenSettled } from './settled';

/** Timers and idle callbacks the test runs by hand. */
function fakeHost(withIdle: boolean) {
	vi.useFakeTimers();
	const idle = new Map<number, () => void>();
	let next = 1;
	const host = {
		setTimeout: globalThis.setTimeout,
		clearTimeout: globalThis.clearTimeout,
		...(withIdle && {
			requestIdleCallback: (run: () => void, options?: { timeout?: number }) => {
				expect(options?.timeout).toBeGreaterThan(0);
				idle.set(next, run);
				return next++;
			},
			cancelIdleCallback: (id: number) => void idle.delete(id)
		})
	} as Parameters<typeof whenSettled>[2];
	const runIdle = () => {
		for (const [id, run] of [...idle]) {
			idle.delete(id);
			run();
		}
	};
	return { host, idle, runIdle };
}

afterEach(() => vi.useRealTimers());

describe('whenSettled', () => {
	it('waits for the delay, then for an idle moment', () => {
		const { host, idle, runIdle } = fakeHost(true);
		const work = vi.fn();
		whenSettled(work, 1000, host);
		vi.advanceTimersByTime(999);
		expect(idle.size).toBe(0);
		vi.advanceTimersByTime(1);
		expect(work).not.toHaveBeenCalled();
		expect(idle.size).toBe(1);
		runIdle();
		expect(work).toHaveBeenCalledTimes(1);
	});

	it('runs after the delay where the browser has no idle callbacks', () => {
		const { host } = fakeHost(false);
		const work = vi.fn();
		whenSettled(work, 500, host);
		vi.advanceTimersByTime(499);
		expect(work).not.toHaveBeenCalled();
		vi.advanceTimersByTime(1);
		expect(work).toHaveBeenCalledTimes(1);
	});

	it('does nothing once cancelled, before the delay or while waiting for idle', () => {
		const early = fakeHost(true);
		const work = vi.fn();
		whenSettled(work, 1000, early.host)();
		vi.advanceTimersByTime(5000);
		expect(early.idle.size).toBe(0);

		const late = fakeHost(true);
		const cancel = whenSettled(work, 1000, late.host);
		vi.advanceTimersByTime(1000);
		expect(late.idle.size).toBe(1);
		cancel();
		late.runIdle();
		expect(work).not.toHaveBeenCalled();
	});
});
