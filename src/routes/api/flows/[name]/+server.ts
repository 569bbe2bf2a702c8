import { json } from '@sveltejs/kit';
import type { FlowRunBody } from '$lib/api/calls';
import { FLOW_NAMES } from '$lib/core/catalogue/flows';
import { recordAudit } from '$lib/server/audit';
import { serverContext } from '$lib/server/platform/context';
import { FlowInputError, FlowInputSchema, isFlowName, runFlowRequest } from '$lib/server/flows';
import { apiError, clientIp, readJson, requireUser } from '$lib/server/http/body';
import { TooManyCallsError } from '$lib/server/test-calls';
import type { RequestHandler } from './$types';

/** Runs a flow over a saved profile or an unsaved document and answers every step. */
export const POST: RequestHandler = async (event) => {
	const name = event.params.name;
	if (!isFlowName(name)) {
		return apiError(404, 'not_found', `No flow "${name}"; use one of ${FLOW_NAMES.join(', ')}.`);
	}
	const body = await readJson(event, FlowInputSchema);
	if (!body.ok) return body.response;
	const ctx = serverContext();
	const user = requireUser(event);
	const actor = { id: user.id, email: user.email, ip: clientIp(event) };
	const origins = [event.url.origin, ctx.config.origin].filter((o): o is string => !!o);
	try {
		const run = await runFlowRequest(ctx, actor, name, body.data, origins);
		return json(run satisfies FlowRunBody);
	} catch (error) {
		const refused = (code: string) =>
			recordAudit(ctx.store, actor, 'test_call', `flow:${name}`, { refused: code });
		if (error instanceof TooManyCallsError) {
			await refused('too_many_calls');
			return apiError(429, 'too_many_calls', error.message);
		}
		if (error instanceof FlowInputError) {
			await refused(error.code);
			return apiError(error.status, error.code, error.message, error.extra);
		}
		throw error;
	}
};
