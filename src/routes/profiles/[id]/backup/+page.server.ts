import { serverContext } from '$lib/server/context';
import { profileSummary, reviewBackupRestore } from '$lib/server/profile-io';
import { applyAction, reviewAction } from '$lib/server/review-form';
import type { Actions, PageServerLoad } from './$types';

/** JSON is read as UTF-8; a file that is not is refused rather than guessed. */
function decodeJson(bytes: Uint8Array) {
	try {
		return { ok: true as const, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
	} catch {
		const issue = {
			code: 'backup_invalid',
			severity: 'error' as const,
			message: 'The backup file is not UTF-8 text: choose the JSON file this app saved.'
		};
		return { ok: false as const, issue };
	}
}

export const load: PageServerLoad = ({ params, locals }) =>
	profileSummary(serverContext(), params.id, locals.user);

export const actions: Actions = {
	/** What restoring the pasted or uploaded backup would change; nothing is saved. */
	review: (event) =>
		reviewAction(event, 'backup', decodeJson, (text) =>
			reviewBackupRestore(serverContext(), event.params.id, text)
		),

	/** Saves the reviewed backup's document as a new revision on the reviewed revision. */
	apply: (event) =>
		applyAction(event, 'backup', 'backup', (text, _choices, base) =>
			reviewBackupRestore(serverContext(), event.params.id, text, base)
		)
};
