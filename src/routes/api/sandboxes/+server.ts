import { json } from '@sveltejs/kit';
import type { SandboxList, SandboxOne } from '$lib/api-schemas/calls';
import { serverContext } from '$lib/server/platform/context';
import { clientIp, readJson, requireUser } from '$lib/server/http/body';
import { createSandbox, CreateSandboxSchema, listSandboxes } from '$lib/server/push/sandboxes';
import type { RequestHandler } from './$types';

/** Every push sandbox of the team, newest first. */
export const GET: RequestHandler = async ({ url }) =>
	json({
		sandboxes: await listSandboxes(serverContext(), url.origin)
	} satisfies SandboxList);

/** Creates a push sandbox with a new secret key; its `pushUrl` is absolute. */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, CreateSandboxSchema);
	if (!body.ok) return body.response;
	const user = requireUser(event);
	const sandbox = await createSandbox(
		serverContext(),
		{ id: user.id, email: user.email, ip: clientIp(event) },
		body.data,
		event.url.origin
	);
	return json({ sandbox } satisfies SandboxOne, { status: 201 });
};
