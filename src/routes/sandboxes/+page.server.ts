import { serverContext } from '$lib/server/platform/context';
import { listSandboxes } from '$lib/server/push/sandboxes';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ url }) => ({
	sandboxes: await listSandboxes(serverContext(), url.origin)
});
