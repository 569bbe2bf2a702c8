import { revokeToken } from '$lib/server/auth/api-tokens';
import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, requireUser } from '$lib/server/http/body';
import type { RequestHandler } from './$types';

/** Revokes one of the signed-in user's tokens. */
export const DELETE: RequestHandler = async (event) => {
	const id = Number(event.params.id);
	const done =
		Number.isInteger(id) &&
		(await revokeToken(serverContext(), requireUser(event), clientIp(event), id));
	return done
		? new Response(null, { status: 204 })
		: apiError(404, 'not_found', 'No such active token.');
};
