import { readJsonBody, type BodyVerdict } from '$lib/core/request/json-read';
import { readXmlBody } from '$lib/core/request/strict-build';
// With the checks, not on its own: it loads when they do, in the same request.
export { TemplateMemo } from '$lib/core/template/incremental';
export { sayEdit } from '$lib/editor/said-edit';

/**
 * The previews' reading of expanded JSON and XML bodies (loaded with the strict XML reader, after
 * the editor page's first paint; `preview-tools.svelte.ts` asks for it). A body up to
 * {@link IN_PLACE_LIMIT} characters is read in place. A larger one is read by the same reader in
 * a worker: reading a megabyte of XML takes a few hundred milliseconds, and even the platform's
 * JSON parser, with the garbage its values leave, takes a good share of a key's frame. Its
 * preview is unchecked and says it is updating until the worker's verdict on that very body is
 * in; the worker reads one body at a time, the newest asked for, once typing has paused.
 */

/** What a body is read as. */
export type BodyCheck = 'json' | 'xml';

/** A body reader of the previews: null while the verdict on a large body is on its way. */
export type PreviewReader = (body: string) => BodyVerdict | null;

/** Bodies up to this many characters are read in place, in well under a frame. */
export const IN_PLACE_LIMIT = 32 * 1024;

/**
 * How long no newer body must be asked for before the worker starts on the newest: longer than
 * the time between two keys of a fast typist. While keys come faster, a verdict would arrive for
 * a body already typed over (a megabyte takes the worker a few hundred milliseconds) and only
 * take a core from the page.
 */
export const SETTLE_MS = 150;

const IN_PLACE: Record<BodyCheck, (body: string) => BodyVerdict> = {
	json: readJsonBody,
	xml: (body) => readXmlBody(body) ?? { ok: true }
};

/** A body to read, as what. */
interface Asked {
	kind: BodyCheck;
	body: string;
}

/**
 * The worker's verdicts on the last few large bodies, newest first. Looked up by comparing the
 * bodies (a different length settles it at once), not through a map: hashing a megabyte string
 * on every keystroke would cost about what the check saves.
 */
let verdicts: (Asked & { verdict: BodyVerdict })[] = [];
const KEPT_VERDICTS = 4;

function verdictOn({ kind, body }: Asked): BodyVerdict | undefined {
	return verdicts.find((kept) => kept.kind === kind && kept.body === body)?.verdict;
}

const same = (a: Asked | null, b: Asked) => a !== null && a.kind === b.kind && a.body === b.body;

/** Counts the worker's verdicts that the previews have not used yet (read to depend on them). */
let arrivals = $state(0);

let worker: Worker | null = null;
/** False once the worker could not be started or failed: large bodies are read in place. */
let workerUsable = typeof Worker !== 'undefined';
/** The body the worker is reading, and the newest one asked for since. */
let reading: Asked | null = null;
let queued: Asked | null = null;
/** Starts the worker on the queued body once no newer one has been asked for a while. */
let settling: ReturnType<typeof setTimeout> | null = null;

function startWorker(): Worker {
	const started = new Worker(new URL('./body-check.worker.ts', import.meta.url), {
		type: 'module'
	});
	started.onmessage = (event: MessageEvent<BodyVerdict>) => {
		const read = reading!;
		reading = null;
		verdicts = [{ ...read, verdict: event.data }, ...verdicts].slice(0, KEPT_VERDICTS);
		// Told only when nothing newer waits: a verdict on a body already typed over is kept
		// (undo may bring it back) but builds nothing again.
		if (queued === null || verdictOn(queued) !== undefined) {
			queued = null;
			arrivals++;
		} else if (settling === null) readQueued();
	};
	started.onerror = (event) => {
		event.preventDefault();
		console.error('The body check worker failed; large bodies are read in place.');
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
	const asked = queued!;
	queued = null;
	reading = asked;
	worker ??= startWorker();
	worker.postMessage(asked);
}

/**
 * Asks the worker for a verdict on a body: the worker starts on it once no newer body has been
 * asked for {@link SETTLE_MS} and it has finished the body it reads. Writes no state: a derived
 * value may call it.
 */
function ask(asked: Asked): void {
	if (same(reading, asked) || same(queued, asked)) return;
	queued = asked;
	if (settling !== null) clearTimeout(settling);
	settling = setTimeout(() => {
		settling = null;
		if (reading === null && queued !== null) readQueued();
	}, SETTLE_MS);
}

function offloaded(body: string): boolean {
	return workerUsable && body.length > IN_PLACE_LIMIT;
}

let readers: { arrivals: number; read: Record<BodyCheck, PreviewReader> } | null = null;

/**
 * The previews' reader of a kind of body. A new function once a verdict from the worker is in,
 * so results kept with the reader they were built with are built again (reading it makes a
 * derived value depend on the verdicts).
 */
export function previewReader(kind: BodyCheck): PreviewReader {
	const seen = arrivals;
	if (readers?.arrivals !== seen) {
		const reader =
			(kind: BodyCheck): PreviewReader =>
			(body) => {
				if (!offloaded(body)) return IN_PLACE[kind](body);
				const known = verdictOn({ kind, body });
				if (known) return known;
				ask({ kind, body });
				return null;
			};
		readers = { arrivals: seen, read: { json: reader('json'), xml: reader('xml') } };
	}
	return readers.read[kind];
}

/** True while a large body's verdict is on its way. */
export function pending(kind: BodyCheck, body: string): boolean {
	void arrivals;
	return offloaded(body) && verdictOn({ kind, body }) === undefined;
}
