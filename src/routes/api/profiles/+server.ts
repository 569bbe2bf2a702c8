import { json } from '@sveltejs/kit';
import type { ProfileList } from '$lib/api-schemas/profiles';
import { emptyDocument } from '$lib/core/profile';
import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, readJson, requireUser } from '$lib/server/http/body';
import { CreateProfileSchema } from '$lib/server/profiles/api';
import { createProfile, headSource, type SealedSecrets } from '$lib/server/profiles';
import type { RequestHandler } from './$types';

/** The profiles (`?deleted=1`: the deleted ones, restorable). */
export const GET: RequestHandler = async ({ url }) => {
	const deleted = url.searchParams.get('deleted') === '1';
	const profiles = await serverContext().store.profiles.list({ deleted });
	return json({ profiles } satisfies ProfileList);
};

/** Creates a profile, empty, from a document, or as a copy of another (`duplicateOf`). */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, CreateProfileSchema);
	if (!body.ok) return body.response;
	const ctx = serverContext();
	let document = body.data.document ?? emptyDocument();
	let secretsFrom: SealedSecrets | undefined;
	if (body.data.duplicateOf) {
		const source = await headSource(ctx, body.data.duplicateOf);
		if (!source) return apiError(404, 'not_found', 'The profile to duplicate does not exist.');
		({ document, secretsFrom } = source);
	}
	const profile = await createProfile(ctx, requireUser(event), clientIp(event), {
		name: body.data.name,
		document,
		secretsFrom,
		message: body.data.message ?? (body.data.duplicateOf ? 'Duplicated' : 'Created'),
		duplicateOf: body.data.duplicateOf
	});
	return json({ profile }, { status: 201 });
};
