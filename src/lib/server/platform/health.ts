import type { Store } from '../store/types';

/**
 * Asks the database for an answer within `timeoutMs` (with `migrated`, also that its schema is
 * migrated) and resolves with how long it took, in milliseconds to a tenth; rejects with the
 * database's error, or with a timeout. The health checks' one way of asking.
 */
export async function databaseLatency(
	store: Store,
	timeoutMs: number,
	options: { migrated?: boolean } = {}
): Promise<number> {
	const started = performance.now();
	let timer: ReturnType<typeof setTimeout> | undefined;
	try {
		await Promise.race([
			options.migrated ? Promise.all([store.ready(), store.ping()]) : store.ping(),
			new Promise((_, reject) => {
				timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
			})
		]);
	} finally {
		clearTimeout(timer);
	}
	return Math.round((performance.now() - started) * 10) / 10;
}
