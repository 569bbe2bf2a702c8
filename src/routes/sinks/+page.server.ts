import { serverContext } from '$lib/server/platform/context';
import { listSinks } from '$lib/server/sinks';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ url }) => ({
	sinks: await listSinks(serverContext()),
	origin: url.origin
});
