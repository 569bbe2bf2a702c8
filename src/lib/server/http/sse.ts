import { ACCESS_ENDED_EVENT } from '$lib/api-schemas/streams';
import { trackStream } from '../platform/lifecycle';
import { logger } from '../platform/logger';

/** How long a browser waits before it reconnects a dropped stream, in milliseconds. */
export const RECONNECT_MS = 1000;

/** The last event of a stream the app ends as it stops: reconnect (elsewhere) and resume. */
export const RECONNECT_EVENT = 'reconnect';

/** How long a passed check of a stream's caller holds while no news of a change comes. */
export const GUARD_FRESH_MS = 1000;

/**
 * The most text, in bytes, a stream holds after its replay while its caller is checked (what the
 * replay holds is bounded by what the store keeps); beyond it the stream ends.
 */
export const WAITING_MAX_BYTES = 4 * 1024 * 1024;

/** Who may read a stream, checked again while it is open (see `streamGuard`). */
export interface StreamGuard {
	/** Why the caller may no longer read the stream, or null while they may. */
	check(): Promise<string | null>;
	/**
	 * Calls `changed` whenever the caller's access may have changed, and `poll` now and then while
	 * news from other instances cannot reach this one; returns the unsubscribe.
	 */
	watch(changed: () => void, poll: () => void): () => void;
	/** Told once when the stream ends because a check failed. */
	ended(reason: string): void;
}

/**
 * A server-sent event stream. `open` starts it: it gets `send` (text in the event-stream format)
 * and `connected`, which it calls once every item from then on will be sent (the `: connected`
 * comment), and returns what stops its own watching. A comment now and then keeps proxies from
 * closing a quiet stream; the browser going away (or the stream being cancelled) stops it once.
 *
 * Nothing is sent until `guard` says the caller may read it, and the answer holds only for a
 * moment: text sent later waits for a new check, so a busy stream checks once per moment, not
 * once per event. News of a change checks at once; where news from other instances cannot come
 * (while the instance polls), each poll holds what it reads for a check made after it, and a quiet
 * stream is checked at a poll once its last check is a moment old. A failed check ends it with an
 * {@link ACCESS_ENDED_EVENT}; the browser's reconnect is then refused as any request would be. A
 * check under way when news came is set aside, once: the next one counts. A stream whose checks
 * cannot keep up ends with a {@link RECONNECT_EVENT} once {@link WAITING_MAX_BYTES} wait.
 */
export function eventStream(
	signal: AbortSignal,
	guard: StreamGuard,
	open: (send: (text: string) => void, connected: () => void) => () => void
): Response {
	const encoder = new TextEncoder();
	let stop = () => {};
	const stream = new ReadableStream<Uint8Array>({
		start(controller) {
			let live = true;
			const write = (text: string) => {
				if (live) controller.enqueue(encoder.encode(text));
			};
			const close = () => {
				stop();
				try {
					controller.close();
				} catch {
					// already closed by the runtime
				}
			};
			// Text waiting for a check of the caller, in order; a check holds until `freshUntil`.
			const waiting: Uint8Array[] = [];
			/** The bytes of `waiting` queued since the stream said it is connected (after its replay). */
			let waitingBytes = 0;
			let counting = false;
			let freshUntil = 0;
			let checking = false;
			/** Bumped by news of a change and by polls: a check that started before proves nothing. */
			let news = 0;
			let started = 0;
			/** News came while a check was under way: another check follows it at once. */
			let again = false;
			/** The last pass was set aside for news: the next one counts, whatever comes meanwhile. */
			let setAside = false;
			const recheck = () => {
				if (checking || !live) return;
				checking = true;
				again = false;
				started = Date.now();
				const asked = news;
				guard.check().then(
					(reason) => {
						checking = false;
						if (!live) return;
						if (reason !== null) {
							write(`event: ${ACCESS_ENDED_EVENT}\ndata: ${JSON.stringify({ reason })}\n\n`);
							close();
							guard.ended(reason);
							return;
						}
						// Set aside once only, so that news faster than a check cannot hold it for ever.
						if (asked !== news && !setAside) {
							setAside = true;
							return recheck();
						}
						setAside = false;
						if (asked === news) freshUntil = started + GUARD_FRESH_MS;
						for (const chunk of waiting.splice(0)) controller.enqueue(chunk);
						waitingBytes = 0;
						if (again) recheck();
					},
					() => {
						// The store failed: nothing goes out until a check passes again.
						checking = false;
						setTimeout(recheck, GUARD_FRESH_MS).unref();
					}
				);
			};
			const send = (text: string) => {
				if (!live) return;
				if (waiting.length === 0 && !checking && Date.now() < freshUntil) return write(text);
				const chunk = encoder.encode(text);
				if (counting) waitingBytes += chunk.length;
				if (waitingBytes > WAITING_MAX_BYTES) return fellBehind();
				waiting.push(chunk);
				recheck();
			};
			// The checks cannot keep up (a stuck store): rather than hold ever more, the stream
			// ends, and the browser reconnects by itself, resuming after the last event it got.
			const fellBehind = () => {
				write(`event: ${RECONNECT_EVENT}\ndata: ${JSON.stringify({ reason: 'behind' })}\n\n`);
				close();
				logger().warn(
					{ component: 'sse', waitingBytes },
					'An event stream fell behind the checks of its caller: it was ended, to reconnect.'
				);
			};
			const unguard = guard.watch(
				() => {
					news++;
					freshUntil = 0;
					if (checking) again = true;
					recheck();
				},
				// News may be missed meanwhile: what a poll reads waits for a check made after it,
				// and a quiet stream is checked again once its last check is a moment old.
				() => {
					news++;
					freshUntil = 0;
					if (Date.now() - started >= GUARD_FRESH_MS) recheck();
				}
			);
			// A dropped stream is retried after a second (the browser's default is longer).
			send(`retry: ${RECONNECT_MS}\n\n`);
			const unwatch = open(send, () => {
				send(': connected\n\n');
				counting = true;
			});
			// The ping checks the caller too, so a session that expires ends a quiet stream.
			const ping = setInterval(() => send(': ping\n\n'), 25_000);
			// The app stops: a last event says so, and the stream ends. The browser reconnects
			// by itself (to an instance that stays), resuming with Last-Event-ID.
			const untrack = trackStream(() => {
				write(`event: ${RECONNECT_EVENT}\ndata: {}\n\n`);
				close();
			});
			stop = () => {
				if (!live) return;
				live = false;
				clearInterval(ping);
				untrack();
				unguard();
				unwatch();
			};
			// The browser went away: stop watching; the stream may already be closed by then.
			signal.addEventListener('abort', () => {
				if (live) close();
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
		/** Who may read it (see {@link eventStream}). */
		guard: StreamGuard;
	}
): Response {
	const { type, after } = options;
	return eventStream(signal, options.guard, (send, connected) => {
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
