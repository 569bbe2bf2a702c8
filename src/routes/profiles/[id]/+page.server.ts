import { error, fail } from '@sveltejs/kit';
import { serverContext } from '$lib/server/platform/context';
import { clientIp, requireUser } from '$lib/server/http/body';
import { profileGlance } from '$lib/server/profiles/glance';
import { diffRevisions, getProfile, restoreRevision } from '$lib/server/profiles';
import type { Actions, PageServerLoad } from './$types';

function revisionNumber(value: string | null): number | null {
	if (value === null || !/^\d+$/.test(value)) return null;
	return Number(value);
}

/** How long the page waits for its glance before sending the page without it. */
const GLANCE_WAIT_MS = 100;

function createdFrom(value: string | null): 'empty' | 'xml' | 'backup' | null {
	if (value === null) return null;
	return value === 'xml' || value === 'backup' ? value : 'empty';
}

export const load: PageServerLoad = async ({ params, url, locals }) => {
	const ctx = serverContext();
	const profile = await ctx.store.profiles.get(params.id);
	if (!profile) error(404, 'There is no such profile.');
	const revisions = await ctx.store.profiles.revisions(params.id);
	// In the page when it is read at once (a revision already built, or an ordinary one); else
	// streamed after it, since a revision with megabyte bodies takes a while to build the first
	// time it is shown.
	const reading = profileGlance(ctx, params.id, profile.headRevision, url.origin);
	const waited = await Promise.race([
		// A failure is streamed too: the page says so where the glance would be.
		reading.then((value) => ({ value })).catch(() => null),
		new Promise<null>((resolve) => setTimeout(() => resolve(null), GLANCE_WAIT_MS))
	]);
	const glance = waited ? waited.value : reading;

	// One revision's document, as readable JSON (secrets masked).
	let shown = null;
	const rev = url.searchParams.get('rev');
	if (rev !== null) {
		const number = revisionNumber(rev);
		const view = number === null ? undefined : await getProfile(ctx, params.id, number);
		if (!view) error(404, `This profile has no revision ${rev}.`);
		shown = {
			revision: view.revision,
			author: view.author,
			savedAt: view.savedAt,
			message: view.message,
			json: JSON.stringify(view.document, null, 2)
		};
	}

	// The field-by-field changes between two revisions.
	let diff = null;
	const fromParam = url.searchParams.get('from');
	const toParam = url.searchParams.get('to');
	if (fromParam !== null || toParam !== null) {
		const from = revisionNumber(fromParam);
		const to = revisionNumber(toParam);
		const changes =
			from !== null && to !== null ? await diffRevisions(ctx, params.id, from, to) : undefined;
		if (!changes) error(404, 'Choose two revisions of this profile to compare.');
		diff = { from: from!, to: to!, changes };
	}

	return {
		profile: {
			id: profile.id,
			name: profile.name,
			headRevision: profile.headRevision,
			updatedAt: profile.updatedAt,
			deletedAt: profile.deletedAt
		},
		revisions,
		/** Just created (empty, or from `xml` or a `backup`): the page says so. */
		created: createdFrom(url.searchParams.get('created')),
		glance,
		shown,
		diff,
		canWrite:
			profile.deletedAt === null &&
			(locals.user?.role === 'admin' || locals.user?.role === 'editor')
	};
};

export const actions: Actions = {
	/** Saves an older revision's document as a new revision on top of the head. */
	restore: async (event) => {
		const data = await event.request.formData();
		const revision = revisionNumber(
			typeof data.get('revision') === 'string' ? (data.get('revision') as string) : null
		);
		if (revision === null) return fail(400, { error: 'Choose a revision to restore.' });
		const outcome = await restoreRevision(
			serverContext(),
			requireUser(event),
			clientIp(event),
			event.params.id,
			revision
		);
		if (!outcome.ok) {
			const message =
				outcome.reason === 'not_found'
					? 'That revision, or the profile, is gone (a deleted profile must be restored first).'
					: `Someone saved revision ${outcome.conflict.current.revision} first; nothing was overwritten. Try again.`;
			return fail(outcome.reason === 'not_found' ? 404 : 409, { error: message });
		}
		return {
			done: `Restored revision ${revision} as revision ${outcome.profile.revision}.`,
			revision: outcome.profile.revision
		};
	}
};
