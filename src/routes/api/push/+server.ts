import { json } from '@sveltejs/kit';
import type { PushSendAnswerBody } from '$lib/api-schemas/calls';
import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, readJson, requireUser } from '$lib/server/http/body';
import { PushSendError, PushSendInputSchema, sendComposedPush } from '$lib/server/push/send';
import type { RequestHandler } from './$types';

/**
 * Sends a composed push (`send` or `multisend`) to one of the team's sandboxes or to a real
 * `push_url`, and answers the request as sent, the response as received and each element's
 * verdict. Editors and admins only (the access table).
 */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, PushSendInputSchema);
	if (!body.ok) return body.response;
	const ctx = serverContext();
	const user = requireUser(event);
	const actor = { id: user.id, email: user.email, ip: clientIp(event) };
	const origins = [event.url.origin, ctx.config.origin].filter((o): o is string => !!o);
	try {
		const answer = await sendComposedPush(ctx, actor, body.data, origins, event.url.origin);
		return json(answer satisfies PushSendAnswerBody);
	} catch (error) {
		if (error instanceof PushSendError) return apiError(error.status, error.code, error.message);
		throw error;
	}
};
