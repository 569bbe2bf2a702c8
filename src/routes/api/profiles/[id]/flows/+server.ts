import { json } from '@sveltejs/kit';
import type { FlowRunList } from '$lib/api-schemas/calls';
import { serverContext } from '$lib/server/platform/context';
import { listFlowRuns } from '$lib/server/flows';
import { apiError } from '$lib/server/http/body';
import { headDocument } from '$lib/server/profiles';
import type { RequestHandler } from './$types';

/** The flows run on a profile (who, when, how each step ended), newest first. */
export const GET: RequestHandler = async (event) => {
	const ctx = serverContext();
	if (!(await headDocument(ctx, event.params.id))) {
		return apiError(404, 'not_found', 'No such profile.');
	}
	return json({ runs: await listFlowRuns(ctx, event.params.id) } satisfies FlowRunList);
};
