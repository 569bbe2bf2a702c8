import { json } from '@sveltejs/kit';
import { serverContext } from '$lib/server/platform/context';
import type { RevisionDiff } from '$lib/api-schemas/profiles';
import { apiError } from '$lib/server/http/body';
import { diffRevisions } from '$lib/server/profiles';
import { DiffQuerySchema } from '$lib/server/profiles/api';
import type { RequestHandler } from './$types';

/** The field-by-field differences from revision `from` to revision `to`. */
export const GET: RequestHandler = async ({ params, url }) => {
	const query = DiffQuerySchema.safeParse({
		from: url.searchParams.get('from'),
		to: url.searchParams.get('to')
	});
	if (!query.success) {
		return apiError(400, 'invalid_input', 'Give two revision numbers: ?from=1&to=2.');
	}
	const { from, to } = query.data;
	const changes = await diffRevisions(serverContext(), params.id, from, to);
	return changes
		? json({ from, to, changes } satisfies RevisionDiff)
		: apiError(404, 'not_found', 'No such profile or revision.');
};
