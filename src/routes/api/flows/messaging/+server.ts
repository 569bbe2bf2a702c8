import { answerRun } from '$lib/server/flows/answer';
import { readJson, requireUser } from '$lib/server/http/body';
import { liveFeed, MessagingInputSchema, runMessaging } from '$lib/server/phones';
import { serverContext } from '$lib/server/platform/context';
import type { RequestHandler } from './$types';

/**
 * The virtual phones' journey, whose values are accounts; with `live`, each step and change of
 * a phone also goes to the caller's streams of that key as it happens.
 */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, MessagingInputSchema);
	if (!body.ok) return body.response;
	const key = body.data.live;
	const live = key ? liveFeed(serverContext(), requireUser(event).id, key, body.data) : undefined;
	return answerRun(event, 'messaging', async (c) => {
		const run = await runMessaging(c.ctx, c.actor, body.data, c.origins, live?.listener);
		// Answered once the key keeps the whole run: a stream opened after the answer gets all of it.
		await live?.done(run);
		return run;
	});
};
