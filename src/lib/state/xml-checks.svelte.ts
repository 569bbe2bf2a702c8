import { readXmlBody } from '$lib/core/request/strict-build';
import type { XmlBodyReader } from '$lib/core/request';

/**
 * The previews' strict reading of expanded XML bodies (loaded with the strict reader, after the
 * editor page's first paint; `preview-tools.svelte.ts` asks for it). A body up to
 * {@link XML_IN_PLACE_LIMIT} characters is read in place. A larger one is read by the same reader
 * in a worker: reading a megabyte of XML takes a few hundred milliseconds, which would hold up
 * every keystroke. Its preview is unchecked and says it is updating until the worker's verdict on
 * that very body is in; the worker reads one body at a time, the newest asked for, once
 * typing has paused.
 */

/** Bodies up to this many characters are read in place, in well under a frame. */
export const XML_IN_PLACE_LIMIT = 32 * 1024;

/**
 * How long no newer body must be asked for before the worker starts on the newest: longer than
 * the time between two keys of a fast typist. While keys come faster, a verdict would arrive for
 * a body already typed over (a megabyte takes the worker a few hundred milliseconds) and only
 * take a core from the page.
 */
export const XML_SETTLE_MS = 150;

type Verdict = NonNullable<ReturnType<XmlBodyReader>>;

/**
 * The worker's verdicts on the last few large bodies, newest first. Looked up by comparing the
 * bodies (a different length settles it at once), not through a map: hashing a megabyte string
 * on every keystroke would cost about what the check saves.
 */
let verdicts: { body: string; verdict: Verdict }[] = [];
const KEPT_VERDICTS = 4;

function verdictOn(body: string): Verdict | undefined {
	return verdicts.find((kept) => kept.body === body)?.verdict;
}

/** Counts the worker's verdicts that the previews have not used yet (read to depend on them). */
let arrivals = $state(0);

let worker: Worker | null = null;
/** False once the worker could not be started or failed: large bodies are read in place. */
let workerUsable = typeof Worker !== 'undefined';
/** The body the worker is reading, and the newest one asked for since. */
let reading: string | null = null;
let queued: string | null = null;
/** Starts the worker on the queued body once no newer one has been asked for a while. */
let settling: ReturnType<typeof setTimeout> | null = null;

function startWorker(): Worker {
	const started = new Worker(new URL('./xml-check.worker.ts', import.meta.url), {
		type: 'module'
	});
	started.onmessage = (event: MessageEvent<Verdict>) => {
		const body = reading!;
		reading = null;
		verdicts = [{ body, verdict: event.data }, ...verdicts].slice(0, KEPT_VERDICTS);
		// Told only when nothing newer waits: a verdict on a body already typed over is kept
		// (undo may bring it back) but builds nothing again.
		if (queued === null || verdictOn(queued) !== undefined) {
			queued = null;
			arrivals++;
		} else if (settling === null) readQueued();
	};
	started.onerror = (event) => {
		event.preventDefault();
		console.error('The XML check worker failed; large XML bodies are read in place.');
		workerUsable = false;
		started.terminate();
		worker = null;
		reading = queued = null;
		if (settling !== null) clearTimeout(settling);
		settling = null;
		arrivals++;
	};
	return started;
}

function readQueued(): void {
	const body = queued!;
	queued = null;
	reading = body;
	worker ??= startWorker();
	worker.postMessage(body);
}

/**
 * Asks the worker for a verdict on `body`: the worker starts on it once no newer body has been
 * asked for {@link XML_SETTLE_MS} and it has finished the body it reads. Writes no state: a
 * derived value may call it.
 */
function ask(body: string): void {
	if (body === reading || body === queued) return;
	queued = body;
	if (settling !== null) clearTimeout(settling);
	settling = setTimeout(() => {
		settling = null;
		if (reading === null && queued !== null) readQueued();
	}, XML_SETTLE_MS);
}

function offloaded(body: string): boolean {
	return workerUsable && body.length > XML_IN_PLACE_LIMIT;
}

let reader: { arrivals: number; read: XmlBodyReader } | null = null;

/**
 * The previews' XML reader. A new function once a verdict from the worker is in, so results kept
 * with the reader they were built with are built again (reading it makes a derived value depend
 * on the verdicts).
 */
export function previewReader(): XmlBodyReader {
	const seen = arrivals;
	if (reader?.arrivals !== seen) {
		reader = {
			arrivals: seen,
			read: (body) => {
				if (!offloaded(body)) return readXmlBody(body);
				const known = verdictOn(body);
				if (known) return known;
				ask(body);
				return null;
			}
		};
	}
	return reader.read;
}

/** True while a large body's verdict is on its way. */
export function pending(body: string): boolean {
	void arrivals;
	return offloaded(body) && verdictOn(body) === undefined;
}
