import { answerRun } from '$lib/server/flows/answer';
import { readJson } from '$lib/server/http/body';
import { MessagingInputSchema, runMessaging } from '$lib/server/phones';
import type { RequestHandler } from './$types';

/** The virtual phones' journey, whose values are accounts. */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, MessagingInputSchema);
	if (!body.ok) return body.response;
	return answerRun(event, 'messaging', (c) => runMessaging(c.ctx, c.actor, body.data, c.origins));
};
