import { json } from '@sveltejs/kit';
import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, readJson, requireUser } from '$lib/server/http/body';
import { updateUser, UserChangesSchema } from '$lib/server/auth/users';
import type { RequestHandler } from './$types';

/** Changes a user's name, role, active flag or password (admins only). */
export const PATCH: RequestHandler = async (event) => {
	const body = await readJson(event, UserChangesSchema);
	if (!body.ok) return body.response;
	const id = Number(event.params.id);
	if (!Number.isInteger(id)) return apiError(404, 'not_found', 'No such user.');
	const outcome = await updateUser(
		serverContext(),
		requireUser(event),
		clientIp(event),
		id,
		body.data
	);
	return outcome.ok
		? json({ user: outcome.user })
		: apiError(outcome.status, outcome.code, outcome.message);
};
