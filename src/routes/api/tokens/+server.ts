import { json } from '@sveltejs/kit';
import { createToken, listTokens, NewTokenSchema } from '$lib/server/auth/api-tokens';
import { serverContext } from '$lib/server/platform/context';
import { clientIp, readJson, requireUser } from '$lib/server/http/body';
import type { RequestHandler } from './$types';

/** The signed-in user's API tokens (never their secrets). */
export const GET: RequestHandler = async (event) =>
	json({ tokens: await listTokens(serverContext(), requireUser(event)) });

/** Creates an API token acting with the owner's role; its secret is in this answer only. */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, NewTokenSchema);
	if (!body.ok) return body.response;
	const created = await createToken(
		serverContext(),
		requireUser(event),
		clientIp(event),
		body.data.name
	);
	return json(created, { status: 201 });
};
