import { json } from '@sveltejs/kit';
import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, readJson, requireUser } from '$lib/server/http/body';
import { answerTestCall, listHistory, TestCallInputSchema } from '$lib/server/test-calls';
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
	const service = event.url.searchParams.get('service');
	if (!service) return apiError(400, 'invalid_input', 'Name the service: ?service=sendMessage.');
	const profileId = event.url.searchParams.get('profileId') || null;
	const calls = await listHistory(serverContext(), requireUser(event).id, service, profileId);
	return json({ calls });
};
