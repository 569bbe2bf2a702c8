import { error } from '@sveltejs/kit';
import { SERVICES } from '$lib/core/catalogue';
import { serverContext } from '$lib/server/platform/context';
import { getSink, sinkRequests } from '$lib/server/sinks';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params, url }) => {
	const ctx = serverContext();
	const sink = await getSink(ctx, params.key);
	if (!sink) error(404, { message: 'There is no such echo sink (it may have been deleted).' });
	return {
		sink,
		requests: await sinkRequests(ctx, sink.key),
		// The app's own origin, as the browser reached it: https: behind a TLS proxy.
		origin: url.origin,
		/** The services the catalogue allows only https: URLs for. */
		httpsOnly: SERVICES.filter((s) => s.limits.httpsOnly).map((s) => s.title)
	};
};
