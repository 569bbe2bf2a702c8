import { json } from '@sveltejs/kit';
import type { TestCallList } from '$lib/api-schemas/calls';
import { serverContext } from '$lib/server/platform/context';
import { clientIp, readJson, requireUser } from '$lib/server/http/body';
import { readQuery } from '$lib/server/http/query';
import {
	answerTestCall,
	listHistory,
	TestCallHistoryQuerySchema,
	TestCallInputSchema
} from '$lib/server/test-calls';
import type { RequestHandler } from './$types';

/**
 * Sends the request(s) the preview shows and answers each response with its interpretation
 * (see `answerTestCall`). The app's start script serves this same endpoint before the kit
 * (`direct-api.ts`); this route answers what that path hands on, and in development.
 */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, TestCallInputSchema);
	if (!body.ok) return body.response;
	const caller = { user: requireUser(event), ip: clientIp(event), origin: event.url.origin };
	const answer = await answerTestCall(serverContext(), caller, body.data);
	return json(answer.body, { status: answer.status });
};

/** The signed-in user's test calls of a service (`?service=…&profileId=…`), newest first. */
export const GET: RequestHandler = async (event) => {
	const query = readQuery(event.url, TestCallHistoryQuerySchema);
	if (!query.ok) return query.response;
	const { service, profileId } = query.data;
	const calls = await listHistory(
		serverContext(),
		requireUser(event).id,
		service,
		profileId || null
	);
	return json({ calls } satisfies TestCallList);
};
