import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request being answered, wherever the code that answers it runs (the hooks, a route, the
 * direct test-call path): its id (`X-Request-Id`, given or made by the start script), so an
 * audit entry and a test call's history name the request, as its log line does, without every
 * function passing it along.
 */

const storage = new AsyncLocalStorage<{ requestId: string | null }>();

/** Runs `answer` as the answer to the request with this id. */
export function withRequest<T>(requestId: string | null, answer: () => T): T {
	return storage.run({ requestId }, answer);
}

/** The id of the request being answered, or null outside a request (start-up, timers). */
export function currentRequestId(): string | null {
	return storage.getStore()?.requestId ?? null;
}
