import { randomUUID } from 'node:crypto';
import {
	diffDocuments,
	joinSecrets,
	keepMaskedSecrets,
	ProfileDocumentSchema,
	splitSecrets,
	type FieldChange,
	type ProfileDocument,
	type SecretValues
} from '$lib/core/profile';
import { recordAudit, type Actor, type AuditAction } from './audit';
import type { AuthUser } from './auth/session';
import type { ServerContext } from './context';
import { seal, unseal } from './secrets';
import type { ProfileRow, RevisionRow } from './store/types';

/**
 * Profiles as the API and pages see them: documents validated on the way in, secrets sealed at
 * rest and masked on the way out, every save a revision, and saves on a stale revision refused
 * with both versions.
 */

/** A profile at one revision, as sent to the browser (secrets masked). */
export interface ProfileView {
	id: string;
	name: string;
	revision: number;
	headRevision: number;
	createdAt: number;
	updatedAt: number;
	deletedAt: number | null;
	author: string | null;
	message: string | null;
	savedAt: number;
	document: ProfileDocument;
}

/** A save refused because someone saved first: the head as it is now, and what was sent. */
export interface Conflict {
	current: ProfileView;
	yours: ProfileDocument;
}

/** The outcome of a save. */
export type SaveOutcome =
	| { ok: true; profile: ProfileView }
	| { ok: false; reason: 'not_found' }
	| { ok: false; reason: 'conflict'; conflict: Conflict };

function actorOf(user: AuthUser, ip: string | null): Actor {
	return { id: user.id, email: user.email, ip };
}

function sealSecrets(ctx: ServerContext, secrets: SecretValues): string | null {
	return Object.keys(secrets).length ? seal(ctx.secretKey, JSON.stringify(secrets)) : null;
}

function openSecrets(ctx: ServerContext, sealed: string | null): SecretValues {
	return sealed ? (JSON.parse(unseal(ctx.secretKey, sealed)) as SecretValues) : {};
}

function readDocument(row: RevisionRow): ProfileDocument {
	return ProfileDocumentSchema.parse(JSON.parse(row.document));
}

function view(profile: ProfileRow, row: RevisionRow, ctx: ServerContext): ProfileView {
	const document = joinSecrets(readDocument(row), openSecrets(ctx, row.secrets), 'mask');
	return {
		id: profile.id,
		name: profile.name,
		revision: row.revision,
		headRevision: profile.headRevision,
		createdAt: profile.createdAt,
		updatedAt: profile.updatedAt,
		deletedAt: profile.deletedAt,
		author: row.authorName,
		message: row.message,
		savedAt: row.createdAt,
		document
	};
}

/** A document with its secrets in plain text, for server-side use (expansion, diff). */
export function documentWithSecrets(ctx: ServerContext, row: RevisionRow): ProfileDocument {
	return joinSecrets(readDocument(row), openSecrets(ctx, row.secrets), 'values');
}

/** The profile at its head (or at `revision`), or undefined. */
export async function getProfile(
	ctx: ServerContext,
	id: string,
	revision?: number
): Promise<ProfileView | undefined> {
	const profile = await ctx.store.profiles.get(id);
	if (!profile) return undefined;
	const row = await ctx.store.profiles.revision(id, revision ?? profile.headRevision);
	return row ? view(profile, row, ctx) : undefined;
}

/** Creates a profile (revision 1). */
export async function createProfile(
	ctx: ServerContext,
	user: AuthUser,
	ip: string | null,
	input: { name: string; document: ProfileDocument; message?: string | null; duplicateOf?: string }
): Promise<ProfileView> {
	const { document, secrets } = splitSecrets(input.document);
	const { profile, revision } = await ctx.store.profiles.create({
		id: randomUUID(),
		name: input.name,
		document: JSON.stringify(document),
		secrets: sealSecrets(ctx, secrets),
		authorId: user.id,
		message: input.message ?? null,
		at: Date.now()
	});
	await recordAudit(ctx.store, actorOf(user, ip), 'profile.created', profile.id, {
		name: profile.name,
		duplicateOf: input.duplicateOf ?? null
	});
	return view(profile, revision, ctx);
}

/** The document of a profile with its secrets, for duplication. */
export async function headDocument(
	ctx: ServerContext,
	id: string
): Promise<ProfileDocument | undefined> {
	const profile = await ctx.store.profiles.get(id);
	if (!profile || profile.deletedAt !== null) return undefined;
	const row = await ctx.store.profiles.revision(id, profile.headRevision);
	return row ? documentWithSecrets(ctx, row) : undefined;
}

/**
 * Saves a document as the next revision when `baseRevision` is still the head. A secret sent
 * back as the mask keeps the value stored at the base revision.
 */
export async function saveProfile(
	ctx: ServerContext,
	user: AuthUser,
	ip: string | null,
	id: string,
	input: { baseRevision: number; document: ProfileDocument; message?: string | null },
	action: Extract<
		AuditAction,
		'profile.saved' | 'profile.restored' | 'profile.imported' | 'profile.backup_restored'
	> = 'profile.saved'
): Promise<SaveOutcome> {
	const profile = await ctx.store.profiles.get(id);
	if (!profile || profile.deletedAt !== null) return { ok: false, reason: 'not_found' };
	const base = await ctx.store.profiles.revision(id, input.baseRevision);
	const previous = base ? openSecrets(ctx, base.secrets) : {};
	const split = splitSecrets(input.document);
	const secrets = keepMaskedSecrets(split.secrets, previous);
	const result = await ctx.store.profiles.save({
		profileId: id,
		baseRevision: input.baseRevision,
		document: JSON.stringify(split.document),
		secrets: sealSecrets(ctx, secrets),
		authorId: user.id,
		message: input.message ?? null,
		at: Date.now()
	});
	if (!result.ok) {
		if (result.reason === 'not_found') return result;
		const current = view((await ctx.store.profiles.get(id))!, result.head, ctx);
		// The submitted document goes back with its secrets masked: secrets are write-only.
		const yours = joinSecrets(split.document, split.secrets, 'mask');
		return { ok: false, reason: 'conflict', conflict: { current, yours } };
	}
	await recordAudit(ctx.store, actorOf(user, ip), action, id, {
		revision: result.revision.revision,
		base: input.baseRevision
	});
	const updated = (await ctx.store.profiles.get(id))!;
	return { ok: true, profile: view(updated, result.revision, ctx) };
}

/** Restores an older revision as a new revision on top of the head. */
export async function restoreRevision(
	ctx: ServerContext,
	user: AuthUser,
	ip: string | null,
	id: string,
	revision: number
): Promise<SaveOutcome> {
	const profile = await ctx.store.profiles.get(id);
	const row = profile && (await ctx.store.profiles.revision(id, revision));
	if (!profile || !row) return { ok: false, reason: 'not_found' };
	return saveProfile(
		ctx,
		user,
		ip,
		id,
		{
			baseRevision: profile.headRevision,
			document: documentWithSecrets(ctx, row),
			message: `Restored revision ${revision}`
		},
		'profile.restored'
	);
}

/** The field-by-field differences between two revisions (secret values masked). */
export async function diffRevisions(
	ctx: ServerContext,
	id: string,
	from: number,
	to: number
): Promise<FieldChange[] | undefined> {
	const [a, b] = await Promise.all([
		ctx.store.profiles.revision(id, from),
		ctx.store.profiles.revision(id, to)
	]);
	if (!a || !b) return undefined;
	return diffDocuments(documentWithSecrets(ctx, a), documentWithSecrets(ctx, b));
}
