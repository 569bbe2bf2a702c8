import { error } from '@sveltejs/kit';
import { findService } from '$lib/core/catalogue';
import { serverContext } from '$lib/server/context';
import { getProfile } from '$lib/server/profiles';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params, locals }) => {
	const service = findService(params.service);
	if (!service || service.kind !== 'template') {
		error(404, `There is no provider web service "${params.service}".`);
	}
	const ctx = serverContext();
	const profile = await getProfile(ctx, params.id);
	if (!profile || profile.deletedAt !== null) error(404, 'There is no such profile.');
	return {
		serviceId: service.id,
		profile: {
			id: profile.id,
			name: profile.name,
			revision: profile.revision,
			author: profile.author,
			savedAt: profile.savedAt,
			document: profile.document
		},
		profiles: (await ctx.store.profiles.list({ deleted: false })).map((p) => ({
			id: p.id,
			name: p.name
		})),
		canWrite: locals.user?.role === 'editor' || locals.user?.role === 'admin'
	};
};
