import { serverContext } from '$lib/server/platform/context';
import { apiError } from '$lib/server/http/body';
import { sandboxChanges, sandboxPushes, watchSandbox } from '$lib/server/push/sandboxes';
import { resumableEventStream, resumeAfter } from '$lib/server/http/sse';
import { streamGuard } from '$lib/server/auth/stream-guard';
import type { RequestHandler } from './$types';

/**
 * Server-sent events: one `push` event per request the sandbox answers, its id the push id. A
 * reconnect with `Last-Event-ID` (or `?after=<id>`) first gets every kept push after that id,
 * oldest first, so none is lost between two connections. With several instances of the app on
 * PostgreSQL, records made through any of them arrive here within a second. It ends when the
 * caller's access does.
 */
export const GET: RequestHandler = async (event) => {
	const { params, request, url } = event;
	const ctx = serverContext();
	if (!(await ctx.store.sandboxes.get(params.id))) {
		return apiError(404, 'not_found', 'No such sandbox.');
	}
	return resumableEventStream(request.signal, {
		type: 'push',
		after: resumeAfter(request, url),
		watch: (listener) => watchSandbox(params.id, listener),
		missed: (after) => sandboxPushes(ctx, params.id, after),
		changes: (poke) => sandboxChanges(params.id, poke),
		guard: streamGuard(event, { kind: 'sandbox', target: params.id })
	});
};
