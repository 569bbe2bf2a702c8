/**
 * A server-sent event stream. `open` starts it: it gets `send` (text in the event-stream format)
 * and returns what stops its own watching. A comment now and then keeps proxies from closing a
 * quiet stream; the browser going away (or the stream being cancelled) stops it once.
 */
export function eventStream(
	signal: AbortSignal,
	open: (send: (text: string) => void) => () => void
): Response {
	const encoder = new TextEncoder();
	let stop = () => {};
	const stream = new ReadableStream<Uint8Array>({
		start(controller) {
			let live = true;
			const send = (text: string) => {
				if (live) controller.enqueue(encoder.encode(text));
			};
			send(': connected\n\n');
			const unwatch = open(send);
			const ping = setInterval(() => send(': ping\n\n'), 25_000);
			stop = () => {
				if (!live) return;
				live = false;
				clearInterval(ping);
				unwatch();
			};
			// The browser went away: stop watching; the stream may already be closed by then.
			signal.addEventListener('abort', () => {
				const wasLive = live;
				stop();
				if (wasLive) {
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
}
