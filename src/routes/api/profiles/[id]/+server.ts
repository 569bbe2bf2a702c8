import { json } from '@sveltejs/kit';
import { recordAudit } from '$lib/server/audit';
import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, readJson, requireUser } from '$lib/server/http/body';
import { PatchProfileSchema, SaveProfileSchema, saveResponse } from '$lib/server/profiles/api';
import { getProfile, saveProfile } from '$lib/server/profiles';
import type { RequestHandler } from './$types';

const notFound = () => apiError(404, 'not_found', 'No such profile.');

/** The profile at its head revision (secrets masked). */
export const GET: RequestHandler = async ({ params }) => {
	const profile = await getProfile(serverContext(), params.id);
	return profile ? json({ profile }) : notFound();
};

/**
 * Saves a new revision on top of `baseRevision`, merged field by field with any newer head; 409
 * with both versions and the conflicting fields when both changed the same field.
 */
export const PUT: RequestHandler = async (event) => {
	const body = await readJson(event, SaveProfileSchema);
	if (!body.ok) return body.response;
	const outcome = await saveProfile(
		serverContext(),
		requireUser(event),
		clientIp(event),
		event.params.id,
		body.data
	);
	return saveResponse(outcome);
};

/** Renames a profile, or restores a deleted one (`{ "deleted": false }`). */
export const PATCH: RequestHandler = async (event) => {
	const body = await readJson(event, PatchProfileSchema);
	if (!body.ok) return body.response;
	const ctx = serverContext();
	const user = requireUser(event);
	const actor = { id: user.id, email: user.email, ip: clientIp(event) };
	const id = event.params.id;
	if (!(await ctx.store.profiles.get(id))) return notFound();
	if (body.data.name !== undefined) {
		await ctx.store.profiles.rename(id, body.data.name, Date.now());
		await recordAudit(ctx.store, actor, 'profile.renamed', id, { name: body.data.name });
	}
	if (body.data.deleted === false) {
		await ctx.store.profiles.setDeleted(id, null);
		await recordAudit(ctx.store, actor, 'profile.undeleted', id);
	}
	const profile = await getProfile(ctx, id);
	return profile ? json({ profile }) : notFound();
};

/** Deletes a profile (restorable with PATCH `{ "deleted": false }`). */
export const DELETE: RequestHandler = async (event) => {
	const ctx = serverContext();
	const user = requireUser(event);
	const id = event.params.id;
	const profile = await ctx.store.profiles.get(id);
	if (!profile || profile.deletedAt !== null) return notFound();
	await ctx.store.profiles.setDeleted(id, Date.now());
	await recordAudit(
		ctx.store,
		{ id: user.id, email: user.email, ip: clientIp(event) },
		'profile.deleted',
		id
	);
	return new Response(null, { status: 204 });
};
