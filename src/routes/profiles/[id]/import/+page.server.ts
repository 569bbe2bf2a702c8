import { decodeXmlBytes } from '$lib/core/xml';
import { serverContext } from '$lib/server/platform/context';
import { profileSummary, reviewXmlImport } from '$lib/server/profiles/io';
import { applyAction, reviewAction } from '$lib/server/profiles/review-form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = ({ params, locals }) =>
	profileSummary(serverContext(), params.id, locals.user);

export const actions: Actions = {
	/** What importing the pasted or uploaded XML would change; nothing is saved. */
	review: (event) =>
		reviewAction(event, 'XML', decodeXmlBytes, (text, choices) =>
			reviewXmlImport(serverContext(), event.params.id, text, choices)
		),

	/** Saves the reviewed XML as a new revision on the reviewed revision. */
	apply: (event) =>
		applyAction(event, 'XML', 'import', (text, choices, base) =>
			reviewXmlImport(serverContext(), event.params.id, text, choices, base)
		)
};
