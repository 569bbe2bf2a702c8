import { serverContext } from '$lib/server/platform/context';
import { apiError } from '$lib/server/http/body';
import { clearSinkRequests, getSink } from '$lib/server/sinks';
import type { RequestHandler } from './$types';

/** Forgets the requests a sink received. */
export const DELETE: RequestHandler = async ({ params }) => {
	const ctx = serverContext();
	const sink = await getSink(ctx, params.key);
	if (!sink) return apiError(404, 'not_found', 'No such sink.');
	await clearSinkRequests(ctx, sink.key);
	return new Response(null, { status: 204 });
};
