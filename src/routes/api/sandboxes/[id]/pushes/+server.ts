import { json } from '@sveltejs/kit';
import type { SandboxPushList } from '$lib/api-schemas/calls';
import { serverContext } from '$lib/server/platform/context';
import { apiError } from '$lib/server/http/body';
import { readQuery } from '$lib/server/http/query';
import { SandboxPushesQuerySchema, sandboxPushes } from '$lib/server/push/sandboxes';
import type { RequestHandler } from './$types';

/** The requests a sandbox answered, newest first (`?after=<id>`: only newer ones). */
export const GET: RequestHandler = async ({ params, url }) => {
	const ctx = serverContext();
	if (!(await ctx.store.sandboxes.get(params.id))) {
		return apiError(404, 'not_found', 'No such sandbox.');
	}
	const query = readQuery(url, SandboxPushesQuerySchema);
	if (!query.ok) return query.response;
	return json({
		pushes: await sandboxPushes(ctx, params.id, query.data.after)
	} satisfies SandboxPushList);
};
