import { error } from '@sveltejs/kit';
import { findService, servicesByCaller } from '$lib/core/catalogue';
import { GALLERY } from '$lib/core/catalogue/gallery';
import { galleryFor } from '$lib/core/profile/gallery';
import { serverContext } from '$lib/server/platform/context';
import { getProfile } from '$lib/server/profiles';
import { listSandboxes } from '$lib/server/push/sandboxes';
import { declaredAccountKeys } from '$lib/core/xml/account';
import { PUSH_PAGE } from './push';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params, locals, url }) => {
	const service = params.service === PUSH_PAGE ? null : findService(params.service);
	if (params.service !== PUSH_PAGE && (!service || service.kind !== 'template')) {
		error(404, `There is no provider web service "${params.service}".`);
	}
	const ctx = serverContext();
	const profile = await getProfile(ctx, params.id);
	if (!profile || profile.deletedAt !== null) error(404, 'There is no such profile.');
	return {
		serviceId: service?.id ?? PUSH_PAGE,
		profile: {
			id: profile.id,
			name: profile.name,
			revision: profile.revision,
			author: profile.author,
			savedAt: profile.savedAt,
			document: profile.document,
			// Read here: the page loads the XML reader only if its draft's kept XML changes.
			accountKeys: declaredAccountKeys(profile.document.preservedXml)
		},
		profiles: (await ctx.store.profiles.list({ deleted: false })).map((p) => ({
			id: p.id,
			name: p.name
		})),
		// The services list, from the whole catalogue: the page's own code holds the contract's
		// services only, and the others' entries load when it needs them.
		groups: servicesByCaller().map((g) => ({
			id: g.id,
			caller: g.caller,
			label: g.label,
			services: g.services.map((s) => ({ id: s.id, title: s.title, kind: s.kind }))
		})),
		canWrite: locals.user?.role === 'editor' || locals.user?.role === 'admin',
		// The gallery's shell shows its count at once; its templates load with its contents.
		galleryCount: service ? galleryFor(GALLERY, service.id).length : 0,
		// The push settings page offers the team's sandboxes as gateway URLs.
		sandboxes:
			service === null
				? (await listSandboxes(ctx, url.origin)).map((s) => ({
						id: s.id,
						name: s.name,
						pushUrl: s.pushUrl
					}))
				: [],
		origin: url.origin
	};
};
