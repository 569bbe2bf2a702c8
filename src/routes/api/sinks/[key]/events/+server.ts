import { serverContext } from '$lib/server/platform/context';
import { apiError } from '$lib/server/http/body';
import { getSink, sinkChanges, sinkRequests, watchSink } from '$lib/server/sinks';
import { resumableEventStream, resumeAfter } from '$lib/server/http/sse';
import { streamGuard } from '$lib/server/auth/stream-guard';
import type { RequestHandler } from './$types';

/**
 * Server-sent events: one `request` event per request the sink receives, its id the request's
 * id. A reconnect with `Last-Event-ID` (or `?after=<id>`) first gets every kept request after
 * that id, oldest first, so none is lost between two connections. It ends when the caller's
 * access does.
 */
export const GET: RequestHandler = async (event) => {
	const { params, request, url } = event;
	const ctx = serverContext();
	const sink = await getSink(ctx, params.key);
	if (!sink) return apiError(404, 'not_found', 'No such sink.');
	return resumableEventStream(request.signal, {
		type: 'request',
		after: resumeAfter(request, url),
		watch: (listener) => watchSink(sink.key, listener),
		missed: (after) => sinkRequests(ctx, sink.key, after),
		changes: (poke) => sinkChanges(sink.key, poke),
		// The key is the sink's secret: the audit log names it by its first characters, as elsewhere.
		guard: streamGuard(event, { kind: 'sink', target: sink.key.slice(0, 6) })
	});
};
