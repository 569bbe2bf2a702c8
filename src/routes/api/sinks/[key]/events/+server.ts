import { serverContext } from '$lib/server/context';
import { apiError } from '$lib/server/http';
import { getSink, watchSink } from '$lib/server/sinks';
import { eventStream } from '$lib/server/sse';
import type { RequestHandler } from './$types';

/** Server-sent events: one `request` event per request the sink receives from now on. */
export const GET: RequestHandler = async ({ params, request }) => {
	const sink = await getSink(serverContext(), params.key);
	if (!sink) return apiError(404, 'not_found', 'No such sink.');
	return eventStream(request.signal, (send) =>
		watchSink(sink.key, (received) => {
			send(`event: request\ndata: ${JSON.stringify(received)}\n\n`);
		})
	);
};
