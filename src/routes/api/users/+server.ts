import { json } from '@sveltejs/kit';
import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, readJson, requireUser } from '$lib/server/http/body';
import { createUser, listUsers, NewUserSchema } from '$lib/server/auth/users';
import type { RequestHandler } from './$types';

/** All users, with how each signs in (admins only). */
export const GET: RequestHandler = async () =>
	json({ users: await listUsers(serverContext().store) });

/** Creates a user (admins only). */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, NewUserSchema);
	if (!body.ok) return body.response;
	const outcome = await createUser(serverContext(), requireUser(event), clientIp(event), body.data);
	return outcome.ok
		? json({ user: outcome.user }, { status: 201 })
		: apiError(outcome.status, outcome.code, outcome.message);
};
