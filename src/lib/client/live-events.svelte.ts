import {
	ACCESS_ENDED_EVENT,
	ACCESS_ENDED_MESSAGES,
	type AccessEnded
} from '$lib/api-schemas/streams';

/**
 * The state of a page's server-sent event stream, in words a user reads: `connecting` (the first
 * connection), `live`, `reconnecting` (the browser lost the stream and tries again on its own,
 * sending the id of the last event it received as `Last-Event-ID`, so the server resumes after
 * it), `closed` (the server refused the stream; {@link LiveEvents.reconnect} starts again) and
 * `ended` (the user's access ended: signing in again is the way back, see {@link LiveEvents.ended}).
 */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'closed' | 'ended';

/**
 * One event stream kept open for as long as a page shows it. Reloading the page's data does not
 * touch the stream, so nothing sent meanwhile can fall between two connections; when the stream
 * drops, the browser's own reconnect resumes after the last event received.
 */
export class LiveEvents {
	state = $state<LiveState>('connecting');
	/** Why the access ended, in words a user reads, once the state is `ended`. */
	ended = $state<string | null>(null);
	#source: EventSource | null = null;
	#lastId: string | null = null;
	readonly #url: (after: string | null) => string;
	readonly #listeners: Record<string, (event: MessageEvent<string>) => void>;

	/**
	 * `url` answers the stream's address, resuming after an event id (null on the first
	 * connection, when the page's own data says where to start); `listeners` are by event type.
	 */
	constructor(
		url: (after: string | null) => string,
		listeners: Record<string, (event: MessageEvent<string>) => void>
	) {
		this.#url = url;
		this.#listeners = listeners;
		this.#open();
	}

	#open(): void {
		const source = new EventSource(this.#url(this.#lastId));
		this.#source = source;
		source.onopen = () => {
			if (this.#source === source) this.state = 'live';
		};
		source.onerror = () => {
			if (this.#source !== source) return;
			// CONNECTING: the browser tries again by itself; CLOSED: it gave up (the server
			// answered something other than a stream).
			this.state = source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting';
		};
		// The server ended the stream because the access did: a reconnect would only be refused.
		source.addEventListener(ACCESS_ENDED_EVENT, (event) => {
			if (this.#source !== source) return;
			source.close();
			const reason = (JSON.parse((event as MessageEvent<string>).data) as { reason?: string })
				.reason;
			this.ended =
				ACCESS_ENDED_MESSAGES[reason as AccessEnded] ?? 'Your access to this page ended.';
			this.state = 'ended';
		});
		for (const [type, listener] of Object.entries(this.#listeners)) {
			source.addEventListener(type, (event) => {
				const message = event as MessageEvent<string>;
				if (message.lastEventId !== '') this.#lastId = message.lastEventId;
				listener(message);
			});
		}
	}

	/** Starts a new stream after the browser gave up, resuming after the last event received. */
	reconnect(): void {
		this.#source?.close();
		this.state = 'reconnecting';
		this.#open();
	}

	/** Stops the stream for good. */
	close(): void {
		this.#source?.close();
		this.#source = null;
	}
}

/**
 * The items of a reloaded list and those received live, each once (by id), newest (highest id)
 * first, at most `limit`: a reload that ran before a live item arrived does not hide it.
 */
export function mergeNewestFirst<T extends { id: number }>(
	loaded: readonly T[],
	live: readonly T[],
	limit: number
): T[] {
	const all = [...loaded, ...live].sort((a, b) => b.id - a.id);
	return all.filter((item, i) => i === 0 || all[i - 1].id !== item.id).slice(0, limit);
}
