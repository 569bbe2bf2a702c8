import { json } from '@sveltejs/kit';
import type { SandboxOne } from '$lib/api-schemas/calls';
import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, readJson, requireUser } from '$lib/server/http/body';
import {
	deleteSandbox,
	getSandbox,
	updateSandbox,
	UpdateSandboxSchema
} from '$lib/server/push/sandboxes';
import type { RequestHandler } from './$types';

const notFound = () => apiError(404, 'not_found', 'No such sandbox.');

/** One push sandbox. */
export const GET: RequestHandler = async ({ params, url }) => {
	const sandbox = await getSandbox(serverContext(), params.id, url.origin);
	return sandbox ? json({ sandbox } satisfies SandboxOne) : notFound();
};

/** Renames a sandbox or changes its simulated upstream (any of the settings). */
export const PATCH: RequestHandler = async (event) => {
	const body = await readJson(event, UpdateSandboxSchema);
	if (!body.ok) return body.response;
	const sandbox = await updateSandbox(
		serverContext(),
		event.params.id,
		body.data,
		event.url.origin
	);
	return sandbox ? json({ sandbox } satisfies SandboxOne) : notFound();
};

/** Deletes a sandbox and its pushes; its address answers 404 from then on. */
export const DELETE: RequestHandler = async (event) => {
	const user = requireUser(event);
	const actor = { id: user.id, email: user.email, ip: clientIp(event) };
	const deleted = await deleteSandbox(serverContext(), actor, event.params.id);
	return deleted ? new Response(null, { status: 204 }) : notFound();
};
