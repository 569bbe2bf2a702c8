import { json } from '@sveltejs/kit';
import { serverContext } from '$lib/server/platform/context';
import { apiError } from '$lib/server/http/body';
import { getProfile } from '$lib/server/profiles';
import type { RequestHandler } from './$types';

/** The profile as it was at one revision (secrets masked). */
export const GET: RequestHandler = async ({ params }) => {
	const revision = Number(params.rev);
	const profile = Number.isInteger(revision)
		? await getProfile(serverContext(), params.id, revision)
		: undefined;
	return profile ? json({ profile }) : apiError(404, 'not_found', 'No such profile or revision.');
};
