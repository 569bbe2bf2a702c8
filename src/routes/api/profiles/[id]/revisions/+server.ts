import { json } from '@sveltejs/kit';
import type { RevisionList } from '$lib/api-schemas/profiles';
import { serverContext } from '$lib/server/platform/context';
import { apiError } from '$lib/server/http/body';
import type { RequestHandler } from './$types';

/** The revisions of a profile, newest first: number, author, time, message. */
export const GET: RequestHandler = async ({ params }) => {
	const ctx = serverContext();
	if (!(await ctx.store.profiles.get(params.id))) {
		return apiError(404, 'not_found', 'No such profile.');
	}
	const revisions = await ctx.store.profiles.revisions(params.id);
	return json({ revisions } satisfies RevisionList);
};
