import { json } from '@sveltejs/kit';
import type { SandboxOne } from '$lib/api-schemas/calls';
import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, requireUser } from '$lib/server/http/body';
import { rotateSandboxKey } from '$lib/server/push/sandboxes';
import type { RequestHandler } from './$types';

/** Gives the sandbox a new key and so a new `pushUrl`; the old one answers 404 from then on. */
export const POST: RequestHandler = async (event) => {
	const user = requireUser(event);
	const actor = { id: user.id, email: user.email, ip: clientIp(event) };
	const sandbox = await rotateSandboxKey(serverContext(), actor, event.params.id, event.url.origin);
	return sandbox
		? json({ sandbox } satisfies SandboxOne)
		: apiError(404, 'not_found', 'No such sandbox.');
};
