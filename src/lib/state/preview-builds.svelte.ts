import type { BuildResult } from '$lib/core/request';
import { resultOf, type AnswerMessage, type JobMessage, type PreviewJob } from './preview-job';

/**
 * Previews of large templates are built off the main thread, by the same request builder, so a
 * keystroke in a megabyte body is answered by the editor at once and the preview follows as soon
 * as the build is done. A newer keystroke replaces a build that has not started yet: the builder
 * never falls behind by more than the build it is working on.
 */

/** Where jobs go: a worker, or anything that answers the same messages. */
export interface BuildChannel {
	post(message: JobMessage): void;
	/**
	 * Called with each answer, in the order jobs were posted; `onFault` when the builder itself
	 * cannot run (its script did not load, it crashed).
	 */
	listen(onAnswer: (answer: AnswerMessage) => void, onFault: (reason: string) => void): void;
	close(): void;
}

/** A dedicated worker answering jobs; null where there are no workers (the server). */
export function workerChannel(): BuildChannel | null {
	if (typeof Worker === 'undefined') return null;
	// The bundler's own form for a worker's script: a constant address, never reactive state.
	// eslint-disable-next-line svelte/prefer-svelte-reactivity
	const worker = new Worker(new URL('./preview.worker.ts', import.meta.url), {
		type: 'module',
		name: 'preview-builder'
	});
	return {
		post: (message) => worker.postMessage(message),
		listen: (onAnswer, onFault) => {
			worker.onmessage = (event: MessageEvent<AnswerMessage>) => onAnswer(event.data);
			worker.onerror = (event) => onFault(event.message || 'the preview builder stopped');
			worker.onmessageerror = () => onFault('an answer of the preview builder could not be read');
		},
		close: () => worker.terminate()
	};
}

/**
 * The newest preview built off the main thread, and whether a newer one is on its way. At most
 * one job is with the builder at a time; jobs asked for meanwhile replace each other, and only
 * the last is sent when the builder is free.
 */
export class LatestBuild {
	readonly #channel: BuildChannel;
	#nextId = 1;
	/** The job the builder is working on, if any. */
	#running: JobMessage | null = null;
	/** The newest job asked for while the builder was busy. */
	#waiting: JobMessage | null = null;
	/** The id of the newest job asked for. */
	#wanted = $state(0);
	/** The newest result, and the job it answered. */
	#latest = $state.raw<{ id: number; job: PreviewJob; result: BuildResult } | null>(null);
	/** Why the builder cannot be used, once it has failed: previews are then built in place. */
	#fault = $state<string | null>(null);

	constructor(channel: BuildChannel) {
		this.#channel = channel;
		channel.listen(
			(answer) => this.#answered(answer),
			(reason) => this.#failed(reason)
		);
	}

	/** Asks for a build of `job`; its answer replaces {@link result} when it comes. */
	request(job: PreviewJob): void {
		if (this.#fault !== null) return;
		const message = { id: this.#nextId++, job };
		this.#wanted = message.id;
		if (this.#running === null) this.#send(message);
		else this.#waiting = message;
	}

	/** The job the newest preview was built from, or null before the first answer. */
	jobOf(): PreviewJob | null {
		return this.#latest?.job ?? null;
	}

	/** The newest preview built, or null before the first answer. */
	get result(): BuildResult | null {
		return this.#latest?.result ?? null;
	}

	/** True while the preview shown is not the one of the newest job. */
	get updating(): boolean {
		return this.#fault === null && this.#wanted !== 0 && this.#latest?.id !== this.#wanted;
	}

	/** Why the builder failed; null while it works. */
	get fault(): string | null {
		return this.#fault;
	}

	close(): void {
		this.#channel.close();
	}

	#send(message: JobMessage): void {
		this.#running = message;
		this.#channel.post(message);
	}

	#answered(answer: AnswerMessage): void {
		const running = this.#running;
		if (answer.id !== running?.id) return;
		this.#running = null;
		if ('error' in answer) {
			this.#failed(answer.error);
			return;
		}
		this.#latest = { id: answer.id, job: running.job, result: resultOf(answer) };
		const next = this.#waiting;
		this.#waiting = null;
		if (next) this.#send(next);
	}

	#failed(reason: string): void {
		this.#fault = reason;
		this.#running = null;
		this.#waiting = null;
		this.#channel.close();
	}
}
