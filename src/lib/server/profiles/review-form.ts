import { error, fail, type RequestEvent } from '@sveltejs/kit';
import type { Issue } from '$lib/core/issues';
import type { ConflictChoices } from '$lib/core/xml';
import { serverContext } from '../platform/context';
import { clientIp, requireUser } from '../http/body';
import { applyReviewed, type ReviewOutcome } from './io';

/**
 * The form side of the review pages (XML import, backup restore): read what was pasted or
 * uploaded, review it against a revision, apply it on that revision. The pages stay thin.
 */

/** What the pages' actions answer: a review to show, a failure to explain, or the saved revision. */
export interface ReviewFormResult {
	text?: string;
	review?: Extract<ReviewOutcome, { ok: true }>['review'];
	error?: string;
	issues?: Issue[];
	done?: string;
	revision?: number;
}

/** Decodes an uploaded file; pasted text is taken as it is. */
export type Decoder = (
	bytes: Uint8Array
) => { ok: true; text: string } | { ok: false; issue: Issue };

/** The submitted file (decoded) or, without one, the pasted text. */
export async function submitted(data: FormData, decode: Decoder) {
	const file = data.get('file');
	if (file instanceof File && file.size > 0) {
		const decoded = decode(new Uint8Array(await file.arrayBuffer()));
		return decoded.ok
			? { ok: true as const, text: decoded.text }
			: { ok: false as const, issues: [decoded.issue] };
	}
	const text = data.get('text');
	return { ok: true as const, text: typeof text === 'string' ? text : '' };
}

/** The values chosen for conflicting settings (`choice:<service>.<key>` fields). */
export function choicesOf(data: FormData): ConflictChoices {
	const choices: ConflictChoices = {};
	for (const [name, value] of data) {
		if (name.startsWith('choice:') && typeof value === 'string' && /^\d+$/.test(value)) {
			choices[name.slice('choice:'.length)] = Number(value);
		}
	}
	return choices;
}

/** JSON is read as UTF-8; a file that is not is refused rather than guessed. */
export function decodeJsonBytes(bytes: Uint8Array): ReturnType<Decoder> {
	try {
		return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
	} catch {
		const issue = {
			code: 'backup_invalid',
			severity: 'error' as const,
			message: 'The backup file is not UTF-8 text: choose the JSON file this app saved.'
		};
		return { ok: false, issue };
	}
}

function refused(text: string, issues: Issue[], what: string) {
	return fail(400, { text, error: `The ${what} cannot be read.`, issues } as ReviewFormResult);
}

/** The review action: what applying the submitted text would change (nothing is saved). */
export async function reviewAction(
	event: RequestEvent,
	what: string,
	decode: Decoder,
	review: (text: string, choices: ConflictChoices) => Promise<ReviewOutcome>
) {
	const data = await event.request.formData();
	const input = await submitted(data, decode);
	if (!input.ok) return refused('', input.issues, what);
	if (input.text.trim() === '') {
		return fail(400, {
			text: '',
			error: `Paste the ${what} or choose a file.`
		} as ReviewFormResult);
	}
	const outcome = await review(input.text, choicesOf(data));
	if (!outcome.ok && outcome.reason === 'not_found') error(404, 'There is no such profile.');
	if (!outcome.ok) return refused(input.text, outcome.issues, what);
	return { text: input.text, review: outcome.review } as ReviewFormResult;
}

/** The apply action: saves the reviewed text as a new revision on the reviewed revision. */
export async function applyAction(
	event: RequestEvent<{ id: string }>,
	what: string,
	kind: 'import' | 'backup',
	review: (text: string, choices: ConflictChoices, base: number) => Promise<ReviewOutcome>
) {
	const data = await event.request.formData();
	const text = String(data.get('text') ?? '');
	const base = Number(data.get('baseRevision'));
	if (!Number.isInteger(base) || base < 1)
		return fail(400, {
			text,
			error: 'The review is missing its revision: review again.'
		} as ReviewFormResult);
	const choices = choicesOf(data);
	const outcome = await review(text, choices, base);
	const acting = { user: requireUser(event), ip: clientIp(event) };
	const saved = await applyReviewed(serverContext(), acting, event.params.id, base, outcome, kind);
	if (saved.ok) {
		return {
			done: `${kind === 'import' ? 'Imported' : 'Restored'} as revision ${saved.profile.revision}.`,
			revision: saved.profile.revision
		} as ReviewFormResult;
	}
	if (saved.reason === 'not_found') error(404, 'There is no such profile (or it is deleted).');
	if (saved.reason === 'conflict') {
		return fail(409, {
			text,
			error: `Someone saved revision ${saved.conflict.current.revision} after this review and changed ${conflictingFields(saved.conflict.conflicts.map((c) => c.path))} too; nothing was changed. Review again to see the differences from the new revision.`
		} as ReviewFormResult);
	}
	const again = outcome.ok ? outcome.review : undefined;
	return fail(400, {
		text,
		review: again,
		error: `The ${what} cannot be applied.`,
		issues: saved.issues
	} as ReviewFormResult);
}

/** The fields a save and a newer revision both changed, for a message. */
function conflictingFields(paths: string[]): string {
	if (!paths.length) return 'the profile';
	if (paths.length <= 3) return paths.join(', ');
	return `${paths.slice(0, 3).join(', ')} and ${paths.length - 3} more fields`;
}
