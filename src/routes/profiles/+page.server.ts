import { fail, redirect } from '@sveltejs/kit';
import type { Issue } from '$lib/core/issues';
import { newDocument } from '$lib/core/profile';
import { decodeXmlBytes } from '$lib/core/xml';
import { recordAudit } from '$lib/server/audit';
import type { AuthUser } from '$lib/server/auth/auth-user';
import { serverContext } from '$lib/server/platform/context';
import { clientIp, requireUser } from '$lib/server/http/body';
import {
	checkNewName,
	createReviewed,
	reviewNewProfile,
	sourceOf,
	type NewProfileSource
} from '$lib/server/profiles/new-profile';
import { ProfileNameSchema } from '$lib/server/profiles/api';
import type { Review } from '$lib/server/profiles/io';
import { createProfile, headSource } from '$lib/server/profiles';
import { choicesOf, decodeJsonBytes, submitted } from '$lib/server/profiles/review-form';
import type { Actions, PageServerLoad, RequestEvent } from './$types';

function text(value: FormDataEntryValue | null): string {
	return typeof value === 'string' ? value : '';
}

/** A profile name, or the message to show next to the field. */
function checkName(name: string): { ok: true; name: string } | { ok: false; message: string } {
	const parsed = ProfileNameSchema.safeParse(name);
	if (parsed.success) return { ok: true, name: parsed.data };
	const tooLong = parsed.error.issues.some((issue) => issue.code === 'too_big');
	return { ok: false, message: tooLong ? 'Use at most 200 characters.' : 'Enter a name.' };
}

function actor(event: RequestEvent, user: AuthUser) {
	return { id: user.id, email: user.email, ip: clientIp(event) };
}

/** What the new-profile form answers: a review to show, or what is wrong and where. */
interface NewProfileResult {
	form: 'create';
	source: NewProfileSource;
	name: string;
	text?: string;
	review?: Review;
	nameError?: string;
	error?: string;
	issues?: Issue[];
}

const WHAT = { xml: 'XML', backup: 'backup' } as const;

function refused(status: number, result: Omit<NewProfileResult, 'form'>) {
	return fail(status, { form: 'create', ...result } as NewProfileResult);
}

export const load: PageServerLoad = async ({ locals }) => {
	const store = serverContext().store;
	return {
		profiles: await store.profiles.list({ deleted: false }),
		deleted: await store.profiles.list({ deleted: true }),
		canWrite: locals.user?.role === 'admin' || locals.user?.role === 'editor'
	};
};

export const actions: Actions = {
	/**
	 * Creates an empty profile (revision 1) with the standard scenarios and opens it; or, from
	 * XML or a backup, answers the review of what the new profile would hold (nothing is saved).
	 */
	create: async (event) => {
		const data = await event.request.formData();
		const name = text(data.get('name'));
		const source = sourceOf(data.get('source'));
		const ctx = serverContext();
		const input =
			source === 'empty'
				? { ok: true as const, text: '' }
				: await submitted(data, source === 'xml' ? decodeXmlBytes : decodeJsonBytes);
		const kept = { source, name, text: input.ok ? input.text : '' };
		const checked = await checkNewName(ctx, name);
		if (!checked.ok) return refused(400, { ...kept, nameError: checked.message });
		if (source === 'empty') {
			const profile = await createProfile(ctx, requireUser(event), clientIp(event), {
				name: checked.name,
				document: newDocument(),
				message: 'Created'
			});
			redirect(303, `/profiles/${encodeURIComponent(profile.id)}?created`);
		}
		const what = WHAT[source];
		if (!input.ok) {
			return refused(400, { ...kept, error: `The ${what} cannot be read.`, issues: input.issues });
		}
		if (input.text.trim() === '') {
			return refused(400, { ...kept, error: `Paste the ${what} or choose a file.` });
		}
		const outcome = reviewNewProfile(source, input.text, choicesOf(data));
		if (!outcome.ok) {
			const issues = outcome.reason === 'invalid' ? outcome.issues : [];
			return refused(400, { ...kept, error: `The ${what} cannot be read.`, issues });
		}
		return { form: 'create', ...kept, review: outcome.review } as NewProfileResult;
	},

	/** Creates the reviewed profile: its first revision holds the reviewed document. */
	apply: async (event) => {
		const data = await event.request.formData();
		const name = text(data.get('name'));
		const source = sourceOf(data.get('source'));
		const body = text(data.get('text'));
		if (source === 'empty') return refused(400, { source, name, error: 'Review again.' });
		const ctx = serverContext();
		const outcome = reviewNewProfile(source, body, choicesOf(data));
		const review = outcome.ok ? outcome.review : undefined;
		const kept = { source, name, text: body, review };
		const checked = await checkNewName(ctx, name);
		if (!checked.ok) {
			// The review is gone with the name: the form comes back to choose another.
			return refused(400, { ...kept, review: undefined, nameError: checked.message });
		}
		const acting = { user: requireUser(event), ip: clientIp(event) };
		const created = await createReviewed(ctx, acting, checked.name, source, outcome);
		if (!created.ok) {
			const error = `The ${WHAT[source]} cannot be applied; no profile was created.`;
			return refused(400, { ...kept, error, issues: created.issues });
		}
		redirect(303, `/profiles/${encodeURIComponent(created.profile.id)}?created=${source}`);
	},

	/** Copies a profile's head, secrets included, as a new profile. */
	duplicate: async (event) => {
		const data = await event.request.formData();
		const id = text(data.get('id'));
		const ctx = serverContext();
		const source = await ctx.store.profiles.get(id);
		const copied = source && (await headSource(ctx, id));
		if (!source || !copied || source.deletedAt !== null) {
			return fail(404, { form: 'row' as const, id, error: 'That profile no longer exists.' });
		}
		const name = `${source.name} (copy)`.slice(0, 200);
		const profile = await createProfile(ctx, requireUser(event), clientIp(event), {
			name,
			...copied,
			message: 'Duplicated',
			duplicateOf: id
		});
		return { form: 'row' as const, id: profile.id, done: `Created “${profile.name}”.` };
	},

	/** Renames a profile (not a revision; audited). */
	rename: async (event) => {
		const data = await event.request.formData();
		const id = text(data.get('id'));
		const name = text(data.get('name'));
		const ctx = serverContext();
		const profile = await ctx.store.profiles.get(id);
		if (!profile)
			return fail(404, { form: 'rename' as const, id, name, error: 'No such profile.' });
		const checked = checkName(name);
		if (!checked.ok)
			return fail(400, { form: 'rename' as const, id, name, error: checked.message });
		await ctx.store.profiles.rename(id, checked.name, Date.now());
		await recordAudit(ctx.store, actor(event, requireUser(event)), 'profile.renamed', id, {
			name: checked.name
		});
		return { form: 'row' as const, id, done: `Renamed “${profile.name}” to “${checked.name}”.` };
	},

	/** Deletes a profile; it stays restorable under "Deleted profiles". */
	delete: async (event) => {
		const data = await event.request.formData();
		const id = text(data.get('id'));
		const ctx = serverContext();
		const profile = await ctx.store.profiles.get(id);
		if (!profile || profile.deletedAt !== null) {
			return fail(404, { form: 'row' as const, id, error: 'That profile is already deleted.' });
		}
		await ctx.store.profiles.setDeleted(id, Date.now());
		await recordAudit(ctx.store, actor(event, requireUser(event)), 'profile.deleted', id);
		return {
			form: 'row' as const,
			id,
			done: `Deleted “${profile.name}”. It can be restored from Deleted profiles below.`
		};
	},

	/** Brings a deleted profile back. */
	restore: async (event) => {
		const data = await event.request.formData();
		const id = text(data.get('id'));
		const ctx = serverContext();
		const profile = await ctx.store.profiles.get(id);
		if (!profile || profile.deletedAt === null) {
			return fail(404, { form: 'row' as const, id, error: 'That profile is not deleted.' });
		}
		await ctx.store.profiles.setDeleted(id, null);
		await recordAudit(ctx.store, actor(event, requireUser(event)), 'profile.undeleted', id);
		return { form: 'row' as const, id, done: `Restored “${profile.name}”.` };
	}
};
