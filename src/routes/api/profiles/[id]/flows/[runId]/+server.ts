import { json } from '@sveltejs/kit';
import type { FlowRunRecordBody } from '$lib/api-schemas/calls';
import { serverContext } from '$lib/server/platform/context';
import { flowRunOf } from '$lib/server/flows';
import { apiError } from '$lib/server/http/body';
import type { RequestHandler } from './$types';

/** One run of a flow on a profile, with every step as it was answered. */
export const GET: RequestHandler = async (event) => {
	const id = Number(event.params.runId);
	const run = Number.isSafeInteger(id)
		? await flowRunOf(serverContext(), event.params.id, id)
		: undefined;
	if (!run) return apiError(404, 'not_found', 'No such flow run.');
	return json({ run } satisfies FlowRunRecordBody);
};
