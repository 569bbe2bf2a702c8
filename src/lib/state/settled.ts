/**
 * Work a page's first keystrokes do not need (panels below the fold, checks for another page,
 * readers fetched ahead of need) waits until the page has settled: `delay` milliseconds after
 * this is called, at the browser's next idle moment (at most `delay` more). Its code is then
 * fetched, parsed and run while nobody is waiting, instead of in front of the first key.
 *
 * Returns a function that cancels the work if it has not started.
 */
export function whenSettled(
	work: () => void,
	delay = 1000,
	host: Pick<typeof globalThis, 'setTimeout' | 'clearTimeout'> &
		Partial<Pick<typeof globalThis, 'requestIdleCallback' | 'cancelIdleCallback'>> = globalThis
): () => void {
	let idle: number | undefined;
	const timer = host.setTimeout(() => {
		if (host.requestIdleCallback) idle = host.requestIdleCallback(() => work(), { timeout: delay });
		else work();
	}, delay);
	return () => {
		host.clearTimeout(timer);
		if (idle !== undefined) host.cancelIdleCallback?.(idle);
	};
}
