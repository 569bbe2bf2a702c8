import { json } from '@sveltejs/kit';
import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, readJson, requireUser } from '$lib/server/http/body';
import { changeOwnPassword, PasswordChangeSchema } from '$lib/server/auth/users';
import type { RequestHandler } from './$types';

/** Changes the signed-in user's password; every session of the user ends. */
export const PUT: RequestHandler = async (event) => {
	const body = await readJson(event, PasswordChangeSchema);
	if (!body.ok) return body.response;
	const outcome = await changeOwnPassword(
		serverContext(),
		requireUser(event),
		clientIp(event),
		body.data
	);
	if (outcome.ok) return json({ user: outcome.user });
	const response = apiError(outcome.status, outcome.code, outcome.message);
	if (outcome.retryAfter) response.headers.set('Retry-After', String(outcome.retryAfter));
	return response;
};
