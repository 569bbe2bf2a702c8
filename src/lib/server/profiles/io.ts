import { error } from '@sveltejs/kit';
import { settingLabel, type XmlForm } from '$lib/core/catalogue';
import type { Issue } from '$lib/core/issues';
import {
	diffDocuments,
	documentPathLabel,
	makeBackup,
	parseBackup,
	ProfileDocumentSchema,
	type FieldChange,
	type ProfileBackup,
	type ProfileDocument
} from '$lib/core/profile';
import {
	applyImport,
	conflictId,
	exportXml,
	importXml,
	portalSheet,
	type ConflictChoices,
	type ImportConflict,
	type ImportForm
} from '$lib/core/xml';
import { recordAudit } from '../audit';
import type { AuthUser } from '../auth/auth-user';
import type { ServerContext } from '../platform/context';
import { documentWithSecrets, getProfile, saveProfile, type SaveOutcome } from './';

/**
 * Profiles in and out: XML export, the portal field sheet, XML import and backups. A review
 * computes what would change against one revision and saves nothing; applying saves a new
 * revision based on that revision, so a stale review meets the ordinary 409.
 */

/** Who acts, for the audit log. */
export interface Acting {
	user: AuthUser;
	ip: string | null;
}

/** What a review shows: the changes field by field, the issues, and what must be chosen. */
export interface Review {
	baseRevision: number;
	changes: FieldChange[];
	issues: Issue[];
	conflicts: ImportConflict[];
	/** Only for XML: the shape it had. */
	form?: ImportForm;
}

/** A review, or why the input cannot be read. */
export type ReviewOutcome =
	| {
			ok: true;
			review: Review;
			/** What applying saves; null while conflicts are unresolved. */
			document: ProfileDocument | null;
			/** While conflicts are unresolved: the rest of the changes, to review meanwhile. */
			preview?: { document: ProfileDocument; pending: string[] };
	  }
	| { ok: false; reason: 'not_found' }
	| { ok: false; reason: 'invalid'; issues: Issue[] };

function actor(acting: Acting) {
	return { id: acting.user.id, email: acting.user.email, ip: acting.ip };
}

/**
 * The head revision's XML in one form (or the issues that prevent it), recorded as an export.
 * Credentials of the kept XML are left out unless `withSecrets` (an admin's explicit choice,
 * recorded as `profile.exported_with_secrets`).
 */
export async function exportProfileXml(
	ctx: ServerContext,
	acting: Acting | null,
	id: string,
	form: XmlForm,
	withSecrets = false
) {
	const profile = await getProfile(ctx, id);
	if (!profile) return undefined;
	let document = profile.document;
	if (withSecrets) {
		const row = await ctx.store.profiles.revision(id, profile.revision);
		if (!row) return undefined;
		document = documentWithSecrets(ctx, row);
	}
	const credentials = withSecrets ? 'include' : 'leave_out';
	const exported = exportXml(document, form, { credentials });
	if (exported.ok && acting) {
		const action = withSecrets ? 'profile.exported_with_secrets' : 'profile.exported';
		await recordAudit(ctx.store, actor(acting), action, id, {
			form,
			revision: profile.revision
		});
	}
	return { profile, exported };
}

/** The head revision's portal fields. */
export async function profilePortalSheet(ctx: ServerContext, id: string) {
	const profile = await getProfile(ctx, id);
	return profile && { profile, fields: portalSheet(profile.document) };
}

/** A backup of the head revision; with secrets only for an admin who confirmed (audited). */
export async function backupProfile(
	ctx: ServerContext,
	acting: Acting,
	id: string,
	withSecrets: boolean
): Promise<ProfileBackup | undefined> {
	const profile = await getProfile(ctx, id);
	if (!profile) return undefined;
	let document = profile.document;
	if (withSecrets) {
		const row = await ctx.store.profiles.revision(id, profile.revision);
		if (!row) return undefined;
		document = documentWithSecrets(ctx, row);
	}
	await recordAudit(
		ctx.store,
		actor(acting),
		withSecrets ? 'profile.backup_with_secrets' : 'profile.exported',
		id,
		{ form: 'backup', revision: profile.revision }
	);
	return makeBackup(profile, document, withSecrets ? 'included' : 'left_out', new Date());
}

async function review(
	ctx: ServerContext,
	id: string,
	baseRevision: number | undefined,
	propose: (current: ProfileDocument) => ReviewOutcome
): Promise<ReviewOutcome> {
	const profile = await getProfile(ctx, id, baseRevision);
	if (!profile || profile.deletedAt !== null) return { ok: false, reason: 'not_found' };
	return withChanges(profile.document, profile.revision, propose(profile.document));
}

/** A proposal with its changes from `current` (the document at `baseRevision`) filled in. */
export function withChanges(
	current: ProfileDocument,
	baseRevision: number,
	outcome: ReviewOutcome
): ReviewOutcome {
	if (!outcome.ok) return outcome;
	const target = outcome.document ?? outcome.preview?.document ?? null;
	const pending = new Set(outcome.preview?.pending ?? []);
	const changes = target ? diffDocuments(current, target).filter((c) => !pending.has(c.path)) : [];
	return { ...outcome, review: { ...outcome.review, baseRevision, changes } };
}

/** What importing `xml` into the profile (at `baseRevision`, else the head) would change. */
export function reviewXmlImport(
	ctx: ServerContext,
	id: string,
	xml: string,
	choices: ConflictChoices = {},
	baseRevision?: number
): Promise<ReviewOutcome> {
	return review(ctx, id, baseRevision, (current) => proposeXmlImport(current, xml, choices));
}

/** What importing `xml` into `current` proposes, its changes not yet computed. */
export function proposeXmlImport(
	current: ProfileDocument,
	xml: string,
	choices: ConflictChoices
): ReviewOutcome {
	const imported = importXml(xml);
	if (!imported.ok) return { ok: false, reason: 'invalid', issues: imported.issues };
	const { conflicts, form } = imported.value;
	const applied = applyImport(current, imported.value, choices);
	const unfit = applied.ok ? documentIssues(applied.value) : [];
	if (unfit.length) return { ok: false, reason: 'invalid', issues: unfit };
	const base = { baseRevision: 0, changes: [], conflicts, form };
	// Unresolved conflicts: the other changes are shown meanwhile (the conflicting settings
	// are left out of them until a value is chosen).
	let preview: { document: ProfileDocument; pending: string[] } | undefined;
	if (!applied.ok && conflicts.length) {
		const unresolved = conflicts.filter((c) => choices[conflictId(c)] === undefined);
		const first = Object.fromEntries(unresolved.map((c) => [conflictId(c), 0]));
		const tried = applyImport(current, imported.value, { ...choices, ...first });
		const pending = unresolved.map((c) => `services.${conflictId(c)}`);
		if (tried.ok) preview = { document: tried.value, pending };
	}
	return {
		ok: true,
		review: { ...base, issues: imported.issues },
		document: applied.ok ? applied.value : null,
		preview
	};
}

/**
 * What keeps a document from being saved as a profile (a setting over 2 MB, too many kept
 * elements, …): checked before the review is shown and again before anything is written.
 */
export function documentIssues(document: ProfileDocument): Issue[] {
	const parsed = ProfileDocumentSchema.safeParse(document);
	if (parsed.success) return [];
	return parsed.error.issues.map((issue) => ({
		code: 'document_invalid',
		severity: 'error',
		message: `${documentPathLabel(issue.path, document)}: ${issue.message} The profile cannot hold this; nothing was saved.`,
		field: typeof issue.path.at(-1) === 'string' ? (issue.path.at(-1) as string) : undefined
	}));
}

/** What restoring a backup's text into the profile would change. */
export function reviewBackupRestore(
	ctx: ServerContext,
	id: string,
	text: string,
	baseRevision?: number
): Promise<ReviewOutcome> {
	return review(ctx, id, baseRevision, () => proposeBackupRestore(text, id));
}

/**
 * What restoring a backup's text proposes, its changes not yet computed: into the profile `id`,
 * or into a new profile when `id` is null.
 */
export function proposeBackupRestore(text: string, id: string | null): ReviewOutcome {
	const backup = parseBackup(text);
	if (!backup.ok) return { ok: false, reason: 'invalid', issues: backup.issues };
	const issues: Issue[] = [...backup.issues];
	if (id !== null && backup.value.profile.id !== id) {
		issues.push({
			code: 'backup_other_profile',
			severity: 'warning',
			message: `This backup was made of another profile ("${backup.value.profile.name}"); its document replaces this one's.`
		});
	}
	if (backup.value.secrets === 'left_out') {
		issues.push({
			code: 'backup_secrets_left_out',
			severity: 'info',
			message:
				id === null
					? 'Secret values were left out of this backup: enter them again in the new profile.'
					: 'Secret values were left out of this backup: the values this profile has stored under the same scenario names are kept.'
		});
	}
	const review = { baseRevision: 0, changes: [], conflicts: [], issues };
	return { ok: true, review, document: backup.value.document };
}

/** Saves a reviewed document as a new revision on top of `baseRevision`. */
export async function applyReviewed(
	ctx: ServerContext,
	acting: Acting,
	id: string,
	baseRevision: number,
	outcome: ReviewOutcome,
	kind: 'import' | 'backup'
): Promise<SaveOutcome | { ok: false; reason: 'invalid'; issues: Issue[] }> {
	if (!outcome.ok) return outcome;
	if (!outcome.document) {
		const issues = outcome.review.conflicts.map<Issue>((c) => ({
			code: 'setting_conflict_unresolved',
			severity: 'error',
			message: `Choose a value for ${settingLabel(c.service, c.key)} (${c.candidates.length} were given).`,
			field: c.key
		}));
		return { ok: false, reason: 'invalid', issues };
	}
	const unfit = documentIssues(outcome.document);
	if (unfit.length) return { ok: false, reason: 'invalid', issues: unfit };
	const message = kind === 'import' ? 'Imported XML' : 'Restored from a backup';
	return saveProfile(
		ctx,
		acting.user,
		acting.ip,
		id,
		{ baseRevision, document: outcome.document, message },
		kind === 'import' ? 'profile.imported' : 'profile.backup_restored'
	);
}

/** What the profile's export, import, sheet and backup pages show of it, and who may write. */
export async function profileSummary(
	ctx: ServerContext,
	id: string,
	user: AuthUser | null
): Promise<{
	profile: { id: string; name: string; revision: number; deleted: boolean };
	canWrite: boolean;
	isAdmin: boolean;
}> {
	const profile = await getProfile(ctx, id);
	if (!profile) error(404, 'There is no such profile.');
	return {
		profile: {
			id: profile.id,
			name: profile.name,
			revision: profile.revision,
			deleted: profile.deletedAt !== null
		},
		canWrite: profile.deletedAt === null && (user?.role === 'admin' || user?.role === 'editor'),
		isAdmin: user?.role === 'admin'
	};
}
