import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { bridge } from './bridge.js';
import { metrics } from './metrics.js';

/**
 * The app's life as its operators see it: whether it is ready for traffic, and a graceful stop.
 * The start script (`scripts/serve.js`) owns the HTTP server; on SIGTERM or SIGINT it stops
 * accepting connections and calls `drain` here (readiness answers 503 from then on, so a load
 * balancer sends nothing new), `endStreams` (every event stream gets a last event and ends: the
 * browser reconnects, with `Last-Event-ID`, to an instance that stays), waits for the requests in
 * flight, then `close` (the database, last). It finds these on the bridge (`bridge.js`) once
 * the built server has started.
 */

/** What the app found at start, for the start script's first line: never a secret. */
export interface StartFacts {
	database: { backend: 'sqlite' | 'postgres'; location: string };
	origin: string | null;
	/** The single sign-on issuer, when set (its address only, never the client's secret). */
	oidcIssuer?: string | null;
}

/** What the start script calls, in this order. */
export interface Lifecycle {
	/** What the app found (its database, its origin), said once it listens. */
	facts(): StartFacts;
	drain(): void;
	endStreams(): number;
	/** Resolves once no request's work is under way (see {@link whileWorking}). */
	settled(): Promise<void>;
	close(): Promise<void>;
}

let draining = false;
/** The open event streams, each with the function that sends its last event and ends it. */
const streams = new Set<() => void>();

/** True from the moment a stop begins: readiness answers 503. */
export function isDraining(): boolean {
	return draining;
}

/**
 * Registers an open event stream; `end` sends its last event and closes it. Returns what
 * forgets it (the stream ended by itself). A stream opened while draining is ended at once.
 */
export function trackStream(end: () => void): () => void {
	if (draining) {
		queueMicrotask(end);
		return () => {};
	}
	streams.add(end);
	metrics().eventStreams.inc();
	return () => {
		if (streams.delete(end)) metrics().eventStreams.dec();
	};
}

/** How many requests' work is under way, and who waits for it to end. */
let working = 0;
let whenSettled: (() => void)[] = [];

/**
 * Runs a request's work and counts it until it ends, whether or not its caller is still there.
 * The start script counts a request until its connection closes; a caller that goes away (a tab
 * closed, a client's timeout) closes it while the app still saves, calls or writes the audit
 * entry. A stop waits for this work too before it closes the database, so what was begun is
 * finished and written down, not cut off by a closed database.
 */
export async function whileWorking<T>(work: () => T | Promise<T>): Promise<T> {
	working++;
	try {
		return await work();
	} finally {
		stopCounting();
	}
}

function stopCounting(): void {
	working--;
	if (working === 0) {
		const waiting = whenSettled;
		whenSettled = [];
		for (const resolve of waiting) resolve();
	}
}

/**
 * Waits `ms` inside a request's work without counting as work meanwhile: a wait that holds
 * nothing to finish (a sink's chosen delay, after the request is recorded). A stop does not wait
 * for it when its caller has gone; a caller still there is waited for as every request is.
 */
export async function idleWait(ms: number): Promise<void> {
	const counted = working > 0;
	if (counted) stopCounting();
	try {
		await new Promise((resolve) => setTimeout(resolve, ms));
	} finally {
		if (counted) working++;
	}
}

function settled(): Promise<void> {
	if (working === 0) return Promise.resolve();
	return new Promise((resolve) => whenSettled.push(resolve));
}

/** A blocked event loop past this long within the last window makes liveness answer 503. */
export const STUCK_MS = 5000;
/** How long one window of the event loop's delay lasts; the last two are reported. */
const WINDOW_MS = 30_000;

let histogram: IntervalHistogram | undefined;
let previousMaxMs = 0;

/** Starts measuring the event loop's delay (once). */
function watchEventLoop(): void {
	if (histogram) return;
	histogram = monitorEventLoopDelay({ resolution: 20 });
	histogram.enable();
	setInterval(() => {
		previousMaxMs = histogram!.max / 1e6;
		histogram!.reset();
	}, WINDOW_MS).unref();
}

/**
 * The event loop's delay over the last half minute to minute: its 99th percentile and its
 * longest, in milliseconds, and whether it was stuck (blocked past `STUCK_MS`).
 */
export function eventLoopDelay(): { p99Ms: number; maxMs: number; stuck: boolean } {
	watchEventLoop();
	const current = histogram!.count > 0 ? histogram!.max / 1e6 : 0;
	const maxMs = Math.round(Math.max(previousMaxMs, current));
	const p99Ms = histogram!.count > 0 ? Math.round(histogram!.percentile(99) / 1e6) : 0;
	return { p99Ms, maxMs, stuck: maxMs > STUCK_MS };
}

/**
 * Makes the app's side of a stop available to the start script; `closeStore` ends last.
 * `stopWorkers` (the audit stream) is told as the stop begins, and the store is closed only once
 * it has finished, so the work under way is written down first.
 */
export function installLifecycle(
	closeStore: () => Promise<void>,
	facts: () => StartFacts,
	stopWorkers: () => Promise<void> = async () => {}
): void {
	watchEventLoop();
	let workersStopped: Promise<void> | undefined;
	const lifecycle: Lifecycle = {
		facts,
		drain() {
			draining = true;
			workersStopped ??= stopWorkers();
		},
		endStreams() {
			const open = [...streams];
			streams.clear();
			metrics().eventStreams.set(0);
			for (const end of open) end();
			return open.length;
		},
		settled,
		async close() {
			// A stop that did not drain first (or a worker that failed) still closes the store.
			await (workersStopped ??= stopWorkers()).catch(() => undefined);
			await closeStore();
		}
	};
	bridge().lifecycle = lifecycle;
}

/** What the app knows of a request that the start script's log line and metrics want. */
export interface RequestNote {
	/** The route's template (`/api/profiles/[id]`), never a raw path; null when none matched. */
	route: string | null;
	userId: number | null;
	/** The client's address as the app reads it (behind a proxy, from ADDRESS_HEADER). */
	ip: string | null;
}

/**
 * Tells the start script which route answered a request, and for whom. The start script makes
 * the map (nothing is kept when the app runs without it, in development) and takes each note as
 * its request ends.
 */
export function noteRequest(requestId: string | null, note: RequestNote): void {
	const notes = bridge().notes;
	if (notes && requestId) notes.set(requestId, note);
}
