import { serverContext } from '$lib/server/platform/context';
import { listSandboxes } from '$lib/server/push/sandboxes';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ url }) => ({
	sandboxes: (await listSandboxes(serverContext(), url.origin)).map((s) => ({
		id: s.id,
		name: s.name,
		pushUrl: s.pushUrl
	}))
});
