import { resetForUser } from '$lib/server/auth/totp';
import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, requireUser } from '$lib/server/http/body';
import type { RequestHandler } from './$types';

/** Takes the second factor off a user who lost it (admins only); they sign in with a password. */
export const DELETE: RequestHandler = async (event) => {
	const id = Number(event.params.id);
	if (!Number.isInteger(id)) return apiError(404, 'not_found', 'No such user.');
	const outcome = await resetForUser(serverContext(), requireUser(event), clientIp(event), id);
	return outcome.ok
		? new Response(null, { status: 204 })
		: apiError(outcome.status, outcome.code, outcome.message);
};
