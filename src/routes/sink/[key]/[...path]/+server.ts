import { serverContext } from '$lib/server/platform/context';
import { clientIp } from '$lib/server/http/body';
import { receiveAtSink, sinkResponse } from '$lib/server/sinks';
import { idleWait } from '$lib/server/platform/lifecycle';
import type { RequestHandler } from './$types';

/** Every request to `/sink/<key>/…` is recorded and answered as the sink's users chose. */
export const fallback: RequestHandler = async (event) => {
	const { request, url, params } = event;
	const headers: { name: string; value: string }[] = [];
	const callerOrigin = request.headers.get('x-sink-origin');
	for (const [name, value] of request.headers) {
		// The server put the app's origin in Origin for the form check; the caller's is kept apart.
		if (name === 'x-sink-origin' || name === 'origin') continue;
		headers.push({ name, value });
	}
	if (callerOrigin !== null) headers.push({ name: 'origin', value: callerOrigin });
	const body = new Uint8Array(await request.arrayBuffer());
	const answer = await receiveAtSink(serverContext(), params.key, {
		method: request.method,
		path: url.pathname.slice(`/sink/${params.key}`.length) + url.search,
		headers,
		body,
		via: 'network',
		ip: clientIp(event)
	});
	if (!answer) {
		return new Response(
			JSON.stringify({ error: { code: 'not_found', message: 'No such sink.' } }),
			{
				status: 404,
				headers: { 'content-type': 'application/json' }
			}
		);
	}
	// Recorded: the delay holds no work a stop must wait for once the caller has gone.
	if (answer.delayMs > 0) await idleWait(answer.delayMs);
	return sinkResponse(answer, request.method);
};
