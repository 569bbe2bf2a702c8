import { error } from '@sveltejs/kit';
import { serverContext } from '$lib/server/platform/context';
import { getSandbox, sandboxPushes } from '$lib/server/push/sandboxes';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params, url }) => {
	const ctx = serverContext();
	const sandbox = await getSandbox(ctx, params.id, url.origin);
	if (!sandbox)
		error(404, { message: 'There is no such push sandbox (it may have been deleted).' });
	return { sandbox, pushes: await sandboxPushes(ctx, sandbox.id) };
};
