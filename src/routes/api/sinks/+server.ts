import { json } from '@sveltejs/kit';
import type { SinkList, SinkOne } from '$lib/api-schemas/calls';
import { serverContext } from '$lib/server/platform/context';
import { clientIp, readJson, requireUser } from '$lib/server/http/body';
import { createSink, CreateSinkSchema, listSinks } from '$lib/server/sinks';
import type { RequestHandler } from './$types';

/** Every echo sink. */
export const GET: RequestHandler = async () =>
	json({ sinks: await listSinks(serverContext()) } satisfies SinkList);

/** Creates an echo sink with a new secret key. */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, CreateSinkSchema);
	if (!body.ok) return body.response;
	const user = requireUser(event);
	const sink = await createSink(
		serverContext(),
		{ id: user.id, email: user.email, ip: clientIp(event) },
		body.data
	);
	return json({ sink } satisfies SinkOne, { status: 201 });
};
