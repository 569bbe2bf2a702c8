import { json } from '@sveltejs/kit';
import type { SinkOne, SinkWithRequests } from '$lib/api-schemas/calls';
import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, readJson, requireUser } from '$lib/server/http/body';
import { deleteSink, getSink, sinkRequests, updateSink, UpdateSinkSchema } from '$lib/server/sinks';
import type { RequestHandler } from './$types';

const notFound = () => apiError(404, 'not_found', 'No such sink.');

/** A sink and the requests it received, newest first. */
export const GET: RequestHandler = async ({ params }) => {
	const ctx = serverContext();
	const sink = await getSink(ctx, params.key);
	if (!sink) return notFound();
	return json({
		sink,
		requests: await sinkRequests(ctx, sink.key)
	} satisfies SinkWithRequests);
};

/** Renames a sink or changes what it answers. */
export const PUT: RequestHandler = async (event) => {
	const body = await readJson(event, UpdateSinkSchema);
	if (!body.ok) return body.response;
	const sink = await updateSink(serverContext(), event.params.key, body.data);
	return sink ? json({ sink } satisfies SinkOne) : notFound();
};

/** Deletes a sink and what it recorded; its address answers 404 from then on. */
export const DELETE: RequestHandler = async (event) => {
	const user = requireUser(event);
	const actor = { id: user.id, email: user.email, ip: clientIp(event) };
	const deleted = await deleteSink(serverContext(), actor, event.params.key);
	return deleted ? new Response(null, { status: 204 }) : notFound();
};
