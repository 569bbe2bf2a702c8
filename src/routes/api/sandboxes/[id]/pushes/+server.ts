import { json } from '@sveltejs/kit';
import { serverContext } from '$lib/server/platform/context';
import { apiError } from '$lib/server/http/body';
import { sandboxPushes } from '$lib/server/push/sandboxes';
import type { RequestHandler } from './$types';

/** The requests a sandbox answered, newest first (`?after=<id>`: only newer ones). */
export const GET: RequestHandler = async ({ params, url }) => {
	const ctx = serverContext();
	if (!(await ctx.store.sandboxes.get(params.id))) {
		return apiError(404, 'not_found', 'No such sandbox.');
	}
	const after = Number(url.searchParams.get('after') ?? 0);
	if (!Number.isSafeInteger(after) || after < 0) {
		return apiError(400, 'invalid_input', 'after must be a push id (a whole number, 0 or more).');
	}
	return json({ pushes: await sandboxPushes(ctx, params.id, after) });
};
