import { json } from '@sveltejs/kit';
import { serverContext } from '$lib/server/platform/context';
import { apiError } from '$lib/server/http/body';
import { diffRevisions } from '$lib/server/profiles';
import type { RequestHandler } from './$types';

/** The field-by-field differences from revision `from` to revision `to`. */
export const GET: RequestHandler = async ({ params, url }) => {
	const from = Number(url.searchParams.get('from'));
	const to = Number(url.searchParams.get('to'));
	if (!(Number.isInteger(from) && from > 0 && Number.isInteger(to) && to > 0)) {
		return apiError(400, 'invalid_input', 'Give two revision numbers: ?from=1&to=2.');
	}
	const changes = await diffRevisions(serverContext(), params.id, from, to);
	return changes
		? json({ from, to, changes })
		: apiError(404, 'not_found', 'No such profile or revision.');
};
