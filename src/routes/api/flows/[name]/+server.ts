import { json } from '@sveltejs/kit';
import type { FlowRunBody } from '$lib/api-schemas/calls';
import { FLOW_NAMES } from '$lib/core/catalogue/flows';
import { recordAudit } from '$lib/server/audit';
import { serverContext } from '$lib/server/platform/context';
import { FlowInputError, FlowInputSchema, isFlowName, runFlowRequest } from '$lib/server/flows';
import { apiError, clientIp, readJson, requireUser } from '$lib/server/http/body';
import { MessagingInputSchema, runMessaging } from '$lib/server/phones';
import { TooManyCallsError } from '$lib/server/test-calls';
import type { RequestEvent, RequestHandler } from './$types';

/**
 * Runs a flow over a saved profile or an unsaved document and answers every step; `messaging`
 * is the virtual phones' journey, whose values are accounts.
 */
export const POST: RequestHandler = async (event) => {
	const name = event.params.name;
	if (name === 'messaging') {
		const body = await readJson(event, MessagingInputSchema);
		if (!body.ok) return body.response;
		return answerRun(event, name, (c) => runMessaging(c.ctx, c.actor, body.data, c.origins));
	}
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

type Caller = {
	ctx: ReturnType<typeof serverContext>;
	actor: { id: number; email: string; ip: string | null };
	origins: string[];
};

/** A run answered, or why it did not start (audited as a refused test call). */
async function answerRun(
	event: RequestEvent,
	name: string,
	run: (caller: Caller) => Promise<FlowRunBody>
): Promise<Response> {
	const ctx = serverContext();
	const user = requireUser(event);
	const actor = { id: user.id, email: user.email, ip: clientIp(event) };
	const origins = [event.url.origin, ctx.config.origin].filter((o): o is string => !!o);
	try {
		return json(await run({ ctx, actor, origins }));
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
}
