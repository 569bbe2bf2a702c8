import { apiError, requireUser } from '$lib/server/http/body';
import { resumableEventStream, resumeAfter } from '$lib/server/http/sse';
import { streamGuard } from '$lib/server/auth/stream-guard';
import { liveChannel, LIVE_KEY } from '$lib/server/phones';
import { serverContext } from '$lib/server/platform/context';
import type { RequestHandler } from './$types';

/**
 * Server-sent events: one `journey` event per step and change of a phone of the messaging run
 * the caller started with this `live` key, then the kept run, whichever instance runs it. A
 * stream opened or reconnected late first gets what the key kept; only the caller's own key is
 * read. It ends when the caller's access does.
 */
export const GET: RequestHandler = async (event) => {
	const { params, request, url } = event;
	if (!LIVE_KEY.test(params.key)) {
		return apiError(404, 'not_found', 'A live key is 16 to 64 letters, digits, - or _.');
	}
	const channel = liveChannel(serverContext(), requireUser(event).id, params.key);
	return resumableEventStream(request.signal, {
		type: 'journey',
		// A stream opened before its run started, or after, gets everything kept from the first.
		after: resumeAfter(request, url) ?? 0,
		watch: (listener) => channel.watch(listener),
		missed: (after) => channel.after(after),
		changes: (poke) => channel.changes(poke),
		guard: streamGuard(event, { kind: 'messaging', target: params.key.slice(0, 6) })
	});
};
