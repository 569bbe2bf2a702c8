import { serverContext } from '$lib/server/platform/context';
import { profileSummary, reviewBackupRestore } from '$lib/server/profiles/io';
import { applyAction, decodeJsonBytes, reviewAction } from '$lib/server/profiles/review-form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = ({ params, locals }) =>
	profileSummary(serverContext(), params.id, locals.user);

export const actions: Actions = {
	/** What restoring the pasted or uploaded backup would change; nothing is saved. */
	review: (event) =>
		reviewAction(event, 'backup', decodeJsonBytes, (text) =>
			reviewBackupRestore(serverContext(), event.params.id, text)
		),

	/** Saves the reviewed backup's document as a new revision on the reviewed revision. */
	apply: (event) =>
		applyAction(event, 'backup', 'backup', (text, _choices, base) =>
			reviewBackupRestore(serverContext(), event.params.id, text, base)
		)
};
