import { settingLabel } from '$lib/core/catalogue';
import type { Issue } from '$lib/core/issues';
import { newDocument } from '$lib/core/profile';
import type { ConflictChoices } from '$lib/core/xml';
import type { ServerContext } from '../platform/context';
import { ProfileNameSchema } from './api';
import {
	documentIssues,
	proposeBackupRestore,
	proposeXmlImport,
	withChanges,
	type Acting,
	type ReviewOutcome
} from './io';
import { createProfile, type ProfileView } from './';

/**
 * A new profile from a provider's provisioning XML or from a JSON backup: the same review as an
 * import into an existing profile, against the document an empty profile starts with (revision
 * 0), and the profile created only when the review is applied, its first revision holding the
 * reviewed document. Nothing is written before that.
 */

/** What a new profile starts from. */
export type NewProfileSource = 'empty' | 'xml' | 'backup';

/** Reads the source field of the new-profile form; anything unknown is an empty profile. */
export function sourceOf(value: unknown): NewProfileSource {
	return value === 'xml' || value === 'backup' ? value : 'empty';
}

/**
 * A profile name, or the message to show next to the field: empty, too long, or the name of a
 * profile that is not deleted (compared without regard to case), since the list of profiles is
 * how people tell them apart.
 */
export async function checkNewName(
	ctx: ServerContext,
	name: string
): Promise<{ ok: true; name: string } | { ok: false; message: string }> {
	const parsed = ProfileNameSchema.safeParse(name);
	if (!parsed.success) {
		const tooLong = parsed.error.issues.some((issue) => issue.code === 'too_big');
		return { ok: false, message: tooLong ? 'Use at most 200 characters.' : 'Enter a name.' };
	}
	const wanted = parsed.data.toLocaleLowerCase();
	const profiles = await ctx.store.profiles.list({ deleted: false });
	const taken = profiles.find((p) => p.name.toLocaleLowerCase() === wanted);
	if (taken) {
		return {
			ok: false,
			message: `A profile named “${taken.name}” exists already: choose another name.`
		};
	}
	return { ok: true, name: parsed.data };
}

/** What a new profile made from `text` would hold, as changes from an empty profile. */
export function reviewNewProfile(
	source: Exclude<NewProfileSource, 'empty'>,
	text: string,
	choices: ConflictChoices = {}
): ReviewOutcome {
	const empty = newDocument();
	const proposal =
		source === 'xml' ? proposeXmlImport(empty, text, choices) : proposeBackupRestore(text, null);
	return withChanges(empty, 0, proposal);
}

/** Creates the reviewed profile (revision 1), or says why it cannot be. */
export async function createReviewed(
	ctx: ServerContext,
	acting: Acting,
	name: string,
	source: Exclude<NewProfileSource, 'empty'>,
	outcome: ReviewOutcome
): Promise<{ ok: true; profile: ProfileView } | { ok: false; issues: Issue[] }> {
	if (!outcome.ok) return { ok: false, issues: outcome.reason === 'invalid' ? outcome.issues : [] };
	if (!outcome.document) {
		const issues = outcome.review.conflicts.map<Issue>((c) => ({
			code: 'setting_conflict_unresolved',
			severity: 'error',
			message: `Choose a value for ${settingLabel(c.service, c.key)} (${c.candidates.length} were given).`,
			field: c.key
		}));
		return { ok: false, issues };
	}
	const unfit = documentIssues(outcome.document);
	if (unfit.length) return { ok: false, issues: unfit };
	const profile = await createProfile(ctx, acting.user, acting.ip, {
		name,
		document: outcome.document,
		message: source === 'xml' ? 'Imported XML' : 'Restored from a backup',
		from: source
	});
	return { ok: true, profile };
}
