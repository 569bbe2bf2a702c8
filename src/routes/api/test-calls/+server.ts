import { json } from '@sveltejs/kit';
import { recordAudit } from '$lib/server/audit';
import { serverContext } from '$lib/server/context';
import { apiError, clientIp, readJson, requireUser } from '$lib/server/http';
import {
	CallInputError,
	keepInHistory,
	listHistory,
	resolveCall,
	runTestCall,
	TestCallInputSchema,
	TooManyCallsError,
	trimHistory,
	writeAudits,
	type AuditSink
} from '$lib/server/test-calls';
import type { RequestHandler } from './$types';

/**
 * Sends the request(s) the preview shows and answers each response with its interpretation.
 * The requests' audit entries are written with the history row, in one write before the answer;
 * the history is trimmed after it.
 */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, TestCallInputSchema);
	if (!body.ok) return body.response;
	const ctx = serverContext();
	const user = requireUser(event);
	const actor = { id: user.id, email: user.email, ip: clientIp(event) };
	const audits: AuditSink = [];
	let kept = false;
	try {
		const call = await resolveCall(ctx, body.data);
		const origins = [event.url.origin, ctx.config.origin].filter((o): o is string => !!o);
		const answer = await runTestCall(ctx, actor, call, origins, body.data.callId, audits);
		kept = true;
		const id = await keepInHistory(ctx, user.id, call, answer, audits);
		// After the answer is written: the trim's write does not hold it up.
		setImmediate(() => void trimHistory(ctx, user.id, call.build.service));
		return json({ id, ...answer });
	} catch (error) {
		// The requests that were sent before a failure are audited all the same.
		if (!kept) await writeAudits(ctx, audits);
		// A refused call is audited too: who tried to send what, and why it was refused.
		const refused = (code: string) =>
			recordAudit(ctx.store, actor, 'test_call', body.data.service, { refused: code });
		if (error instanceof TooManyCallsError) {
			await refused('too_many_calls');
			return apiError(429, 'too_many_calls', error.message);
		}
		if (error instanceof CallInputError) {
			await refused(error.code);
			return apiError(error.status, error.code, error.message);
		}
		throw error;
	}
};

/** The signed-in user's test calls of a service (`?service=…&profileId=…`), newest first. */
export const GET: RequestHandler = async (event) => {
	const service = event.url.searchParams.get('service');
	if (!service) return apiError(400, 'invalid_input', 'Name the service: ?service=sendMessage.');
	const profileId = event.url.searchParams.get('profileId') || null;
	const calls = await listHistory(serverContext(), requireUser(event).id, service, profileId);
	return json({ calls });
};
