import { trackStream } from '../platform/lifecycle';

/** How long a browser waits before it reconnects a dropped stream, in milliseconds. */
export const RECONNECT_MS = 1000;

/** The last event of a stream the app ends as it stops: reconnect (elsewhere) and resume. */
export const RECONNECT_EVENT = 'reconnect';

/**
 * A server-sent event stream. `open` starts it: it gets `send` (text in the event-stream format)
 * and `connected`, which it calls once every item from then on will be sent (the `: connected`
 * comment), and returns what stops its own watching. A comment now and then keeps proxies from
 * closing a quiet stream; the browser going away (or the stream being cancelled) stops it once.
 */
export function eventStream(
	signal: AbortSignal,
	open: (send: (text: string) => void, connected: () => void) => () => void
): Response {
	const encoder = new TextEncoder();
	let stop = () => {};
	const stream = new ReadableStream<Uint8Array>({
		start(controller) {
			let live = true;
			const send = (text: string) => {
				if (live) controller.enqueue(encoder.encode(text));
			};
			// A dropped stream is retried after a second (the browser's default is longer).
			send(`retry: ${RECONNECT_MS}\n\n`);
			const unwatch = open(send, () => send(': connected\n\n'));
			const ping = setInterval(() => send(': ping\n\n'), 25_000);
			// The app stops: a last event says so, and the stream ends. The browser reconnects
			// by itself (to an instance that stays), resuming with Last-Event-ID.
			const untrack = trackStream(() => {
				send(`event: ${RECONNECT_EVENT}\ndata: {}\n\n`);
				stop();
				try {
					controller.close();
				} catch {
					// already closed by the runtime
				}
			});
			stop = () => {
				if (!live) return;
				live = false;
				clearInterval(ping);
				untrack();
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

/**
 * Where a stream resumes: the `Last-Event-ID` a reconnecting browser sends, else the `after`
 * parameter of the first connection; null when neither is a push or request id.
 */
export function resumeAfter(request: Request, url: URL): number | null {
	const from = request.headers.get('last-event-id') ?? url.searchParams.get('after');
	return from !== null && /^\d{1,15}$/.test(from) ? Number(from) : null;
}

/**
 * A stream of `type` events, one per item recorded from now on, its id the item's id. Resuming
 * `after` an id first sends every kept item after it, oldest first; items recorded meanwhile are
 * held until those are out, and none is sent twice, so no item falls between two connections.
 * With `changes` (items recorded by other instances of the app), each poke reads the kept items
 * after the last one sent, so an item from elsewhere arrives once, in order, like a local one.
 */
export function resumableEventStream<T extends { id: number }>(
	signal: AbortSignal,
	options: {
		type: string;
		after: number | null;
		watch: (listener: (item: T) => void) => () => void;
		/** The kept items after an id, newest first. */
		missed: (after: number) => Promise<T[]>;
		/** Pokes when items may have been recorded elsewhere; returns the unsubscribe. */
		changes?: (poke: () => void) => (() => void) | undefined;
	}
): Response {
	const { type, after } = options;
	return eventStream(signal, (send, connected) => {
		let lastSent = after ?? 0;
		const sendItem = (item: T) => {
			if (item.id <= lastSent) return;
			lastSent = item.id;
			send(`id: ${item.id}\nevent: ${type}\ndata: ${JSON.stringify(item)}\n\n`);
		};
		const sendMissed = (missed: T[]) => {
			for (const item of missed.reverse()) sendItem(item);
		};
		// Watch first and hold live items until the missed ones are out, so none falls between.
		const held: T[] = [];
		let replaying = true;
		let poked = false;
		let reading = false;
		const unwatch = options.watch((item) => (replaying ? held.push(item) : sendItem(item)));
		// One read at a time; pokes during a read ask for one more after it.
		const catchUp = () => {
			if (replaying || reading) {
				poked = true;
				return;
			}
			reading = true;
			poked = false;
			void options
				.missed(lastSent)
				.then(sendMissed)
				.catch(() => {
					// The store failed: the next poke reads again from the same id.
				})
				.finally(() => {
					reading = false;
					if (poked) catchUp();
				});
		};
		const unpoke = options.changes?.(catchUp);
		let start: Promise<void> | undefined;
		if (after !== null) start = options.missed(after).then(sendMissed);
		else if (unpoke) {
			// A new stream starts after the newest item recorded anywhere, or before the first
			// one held here, whichever is older.
			start = options.missed(0).then((items) => {
				lastSent = Math.min(items[0]?.id ?? 0, ...held.map((item) => item.id - 1));
			});
		}
		// Where the stream starts is known: an item recorded from now on, here or elsewhere, is
		// sent (said before that, one recorded elsewhere meanwhile would count as before it).
		const live = () => {
			replaying = false;
			for (const item of held) sendItem(item);
			connected();
			if (poked) catchUp();
		};
		if (start) {
			void start
				.catch(() => {
					// The store failed: the live items still follow.
				})
				.finally(live);
		} else live();
		return () => {
			unwatch();
			unpoke?.();
		};
	});
}
