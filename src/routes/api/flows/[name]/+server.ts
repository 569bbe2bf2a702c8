import { FLOW_NAMES } from '$lib/core/catalogue/flows';
import { FlowInputSchema, isFlowName, runFlowRequest } from '$lib/server/flows';
import { answerRun } from '$lib/server/flows/answer';
import { apiError, readJson } from '$lib/server/http/body';
import type { RequestHandler } from './$types';

/** Runs a flow over a saved profile or an unsaved document and answers every step. */
export const POST: RequestHandler = async (event) => {
	const name = event.params.name;
	if (!isFlowName(name)) {
		return apiError(
			404,
			'not_found',
			`No flow "${name}"; use one of ${[...FLOW_NAMES, 'messaging'].join(', ')}.`
		);
	}
	const body = await readJson(event, FlowInputSchema);
	if (!body.ok) return body.response;
	return answerRun(event, name, (c) => runFlowRequest(c.ctx, c.actor, name, body.data, c.origins));
};
