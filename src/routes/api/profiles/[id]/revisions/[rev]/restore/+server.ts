import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, requireUser } from '$lib/server/http/body';
import { saveResponse } from '$lib/server/profiles/api';
import { restoreRevision } from '$lib/server/profiles';
import type { RequestHandler } from './$types';

/** Restores a revision as a new revision on top of the head. */
export const POST: RequestHandler = async (event) => {
	const revision = Number(event.params.rev);
	if (!Number.isInteger(revision)) return apiError(404, 'not_found', 'No such revision.');
	const outcome = await restoreRevision(
		serverContext(),
		requireUser(event),
		clientIp(event),
		event.params.id,
		revision
	);
	return saveResponse(outcome);
};
