import { serverContext } from '$lib/server/platform/context';
import { apiError } from '$lib/server/http/body';
import { getSink, sinkChanges, sinkRequests, watchSink } from '$lib/server/sinks';
import { resumableEventStream, resumeAfter } from '$lib/server/http/sse';
import type { RequestHandler } from './$types';

/**
 * Server-sent events: one `request` event per request the sink receives, its id the request's
 * id. A reconnect with `Last-Event-ID` (or `?after=<id>`) first gets every kept request after
 * that id, oldest first, so none is lost between two connections.
 */
export const GET: RequestHandler = async ({ params, request, url }) => {
	const ctx = serverContext();
	const sink = await getSink(ctx, params.key);
	if (!sink) return apiError(404, 'not_found', 'No such sink.');
	return resumableEventStream(request.signal, {
		type: 'request',
		after: resumeAfter(request, url),
		watch: (listener) => watchSink(sink.key, listener),
		missed: (after) => sinkRequests(ctx, sink.key, after),
		changes: (poke) => sinkChanges(sink.key, poke)
	});
};
