import { json, type RequestEvent } from '@sveltejs/kit';
import type { FlowRunBody } from '$lib/api-schemas/calls';
import { recordAudit } from '../audit';
import { apiError, clientIp, requireUser } from '../http/body';
import { serverContext } from '../platform/context';
import { TooManyCallsError } from '../test-calls';
import { FlowInputError } from './index';

/** Who runs a flow, and the origins of the app they reach it through. */
export type FlowCaller = {
	ctx: ReturnType<typeof serverContext>;
	actor: { id: number; email: string; ip: string | null };
	origins: string[];
};

/** A run answered, or why it did not start (audited as a refused test call). */
export async function answerRun(
	event: RequestEvent,
	name: string,
	run: (caller: FlowCaller) => Promise<FlowRunBody>
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
