import type { DeclaredAccountKey } from '$lib/core/catalogue';
import { buildRequests, type BuildResult, type Values } from '$lib/core/request';
import type { Encoding, Substitution, SubstitutionStatus } from '$lib/core/template';

/**
 * A preview build as a job: plain data in, plain data out, so it can be done off the main thread
 * (by `preview.worker.ts`) with the same request builder as everywhere else.
 */

/** What one preview is built from: plain data that can be copied to a worker. */
export interface PreviewJob {
	serviceId: string;
	settings: Record<string, string>;
	values: Values;
	rawSubstitution: boolean;
	accountKeys: readonly DeclaredAccountKey[];
}

/** A job as sent to the builder, numbered so its answer can be matched. */
export interface JobMessage {
	id: number;
	job: PreviewJob;
}

/**
 * A builder's answer to a job: its result, or why there is none (a fault of the builder). The
 * result comes without its body substitutions, which come packed (`bodies[i]` for request `i`):
 * a megabyte body has tens of thousands of them, and copying that many objects between threads
 * costs more than building them.
 */
export type AnswerMessage =
	| { id: number; result: BuildResult; bodies: PackedSubstitutions[] }
	| { id: number; error: string };

/**
 * Substitutions as two typed arrays: four offsets each (`from`, `to`, `sourceFrom`,
 * `sourceTo`), and four indexes into `names` (`key`, `encoding`, `status`, `breaks`; 0 for none).
 */
export interface PackedSubstitutions {
	offsets: Int32Array;
	strings: Uint32Array;
	names: string[];
}

/** Packs substitutions for a copy between threads; {@link unpackSubstitutions} undoes it. */
export function packSubstitutions(substitutions: readonly Substitution[]): PackedSubstitutions {
	const offsets = new Int32Array(substitutions.length * 4);
	const strings = new Uint32Array(substitutions.length * 4);
	const names = [''];
	const indexes = new Map<string, number>();
	const indexOf = (name: string | undefined): number => {
		if (name === undefined) return 0;
		let index = indexes.get(name);
		if (index === undefined) {
			index = names.push(name) - 1;
			indexes.set(name, index);
		}
		return index;
	};
	substitutions.forEach((s, i) => {
		offsets.set([s.from, s.to, s.sourceFrom, s.sourceTo], i * 4);
		strings.set([indexOf(s.key), indexOf(s.encoding), indexOf(s.status), indexOf(s.breaks)], i * 4);
	});
	return { offsets, strings, names };
}

/** The substitutions {@link packSubstitutions} packed, as they were. */
export function unpackSubstitutions({
	offsets,
	strings,
	names
}: PackedSubstitutions): Substitution[] {
	const substitutions: Substitution[] = new Array<Substitution>(offsets.length / 4);
	for (let i = 0, j = 0; j < offsets.length; i++, j += 4) {
		const substitution: Substitution = {
			from: offsets[j],
			to: offsets[j + 1],
			sourceFrom: offsets[j + 2],
			sourceTo: offsets[j + 3],
			key: names[strings[j]],
			encoding: names[strings[j + 1]] as Encoding,
			status: names[strings[j + 2]] as SubstitutionStatus
		};
		if (strings[j + 3] !== 0) substitution.breaks = names[strings[j + 3]] as Encoding;
		substitutions[i] = substitution;
	}
	return substitutions;
}

/** Builds one preview: the whole of what a worker does with a job. */
export function runJob(job: PreviewJob): BuildResult {
	return buildRequests({
		service: job.serviceId,
		settings: job.settings,
		values: job.values,
		rawSubstitution: job.rawSubstitution,
		accountKeys: job.accountKeys
	});
}

/** Answers a job message: what the worker posts back (and the buffers it can hand over). */
export function answer({ id, job }: JobMessage): {
	answer: AnswerMessage;
	transfer: ArrayBufferLike[];
} {
	try {
		const built = runJob(job);
		const bodies = built.requests.map((r) => packSubstitutions(r.substitutions.body));
		const result: BuildResult = {
			issues: built.issues,
			requests: built.requests.map((r) => ({
				...r,
				substitutions: { ...r.substitutions, body: [] }
			}))
		};
		const transfer = bodies.flatMap((b) => [b.offsets.buffer, b.strings.buffer]);
		return { answer: { id, result, bodies }, transfer };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return { answer: { id, error: message }, transfer: [] };
	}
}

/** The result an answer carries, with its body substitutions unpacked. */
export function resultOf(answer: Extract<AnswerMessage, { result: BuildResult }>): BuildResult {
	return {
		issues: answer.result.issues,
		requests: answer.result.requests.map((r, i) => ({
			...r,
			substitutions: { ...r.substitutions, body: unpackSubstitutions(answer.bodies[i]) }
		}))
	};
}
