import { apiError, requireUser } from '$lib/server/http/body';
import { cancelCall } from '$lib/server/test-calls';
import type { RequestHandler } from './$types';

/** Cancels a running test call of the signed-in user (the one sent with this `callId`). */
export const DELETE: RequestHandler = async (event) => {
	const cancelled = cancelCall(requireUser(event).id, event.params.callId);
	return cancelled
		? new Response(null, { status: 204 })
		: apiError(404, 'not_found', 'No running test call of yours has that id.');
};
