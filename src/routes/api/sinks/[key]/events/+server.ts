import { serverContext } from '$lib/server/context';
import { apiError } from '$lib/server/http';
import { getSink, watchSink } from '$lib/server/sinks';
import type { RequestHandler } from './$types';

/** Server-sent events: one `request` event per request the sink receives from now on. */
export const GET: RequestHandler = async ({ params, request }) => {
	const sink = await getSink(serverContext(), params.key);
	if (!sink) return apiError(404, 'not_found', 'No such sink.');
	const encoder = new TextEncoder();
	let stop = () => {};
	const stream = new ReadableStream<Uint8Array>({
		start(controller) {
			let open = true;
			const send = (text: string) => {
				if (open) controller.enqueue(encoder.encode(text));
			};
			send(': connected\n\n');
			const unwatch = watchSink(sink.key, (received) => {
				send(`event: request\ndata: ${JSON.stringify(received)}\n\n`);
			});
			// A comment now and then keeps proxies from closing a quiet stream.
			const ping = setInterval(() => send(': ping\n\n'), 25_000);
			stop = () => {
				if (!open) return;
				open = false;
				clearInterval(ping);
				unwatch();
			};
			// The browser went away: stop watching; the stream may already be closed by then.
			request.signal.addEventListener('abort', () => {
				const wasOpen = open;
				stop();
				if (wasOpen) {
					try {
						controller.close();
					} catch {
						// already closed by the runtime
					}
				}
			});
		},
		cancel() {
			stop();
		}
	});
	return new Response(stream, {
		headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' }
	});
};
