import { randomUUID } from 'node:crypto';
import {
	diffDocuments,
	joinSecrets,
	keepMaskedSecrets,
	ProfileDocumentSchema,
	splitSecrets,
	type FieldChange,
	type ProfileDocument,
	bindSecrets,
	type SecretOrigins,
	type SecretValues
} from '$lib/core/profile';
import { urlOrigins } from '$lib/core/request';
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

/** What a revision keeps sealed: the secret values, and where each may be sent. */
export interface SealedSecrets {
	v: 2;
	values: SecretValues;
	origins: SecretOrigins;
}

function sealSecrets(ctx: ServerContext, secrets: SecretValues, origins: SecretOrigins) {
	if (!Object.keys(secrets).length) return null;
	const sealed: SealedSecrets = { v: 2, values: secrets, origins };
	return seal(ctx.secretKey, JSON.stringify(sealed));
}

function openSealed(ctx: ServerContext, sealed: string | null): SealedSecrets {
	if (!sealed) return { v: 2, values: {}, origins: {} };
	const parsed = JSON.parse(unseal(ctx.secretKey, sealed)) as SealedSecrets | SecretValues;
	if (typeof parsed.v === 'number' && parsed.v === 2) return parsed as SealedSecrets;
	// Sealed before bindings were kept: the secrets may be sent nowhere until typed again.
	return { v: 2, values: parsed as SecretValues, origins: {} };
}

function openSecrets(ctx: ServerContext, sealed: string | null): SecretValues {
	return openSealed(ctx, sealed).values;
}

/** Where the head revision's stored secrets may be sent (see `SecretOrigins`). */
export async function headSecretOrigins(ctx: ServerContext, id: string): Promise<SecretOrigins> {
	const profile = await ctx.store.profiles.get(id);
	if (!profile) return {};
	const head = await ctx.store.profiles.revision(id, profile.headRevision);
	return head ? openSealed(ctx, head.secrets).origins : {};
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

/** A revision as the source of a new save: its document masked, and its sealed secrets. */
function sourceOf(ctx: ServerContext, row: RevisionRow) {
	const secretsFrom = openSealed(ctx, row.secrets);
	return { document: joinSecrets(readDocument(row), secretsFrom.values, 'mask'), secretsFrom };
}

/** The head of a profile as the source of a copy (see {@link sourceOf}); undefined if gone. */
export async function headSource(ctx: ServerContext, id: string) {
	const profile = await ctx.store.profiles.get(id);
	if (!profile || profile.deletedAt !== null) return undefined;
	const row = await ctx.store.profiles.revision(id, profile.headRevision);
	return row ? sourceOf(ctx, row) : undefined;
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
	input: {
		name: string;
		document: ProfileDocument;
		message?: string | null;
		duplicateOf?: string;
		/** Where masked secrets of the document come from, with their bindings (a duplicate). */
		secretsFrom?: SealedSecrets;
	}
): Promise<ProfileView> {
	const split = splitSecrets(input.document);
	const from = input.secretsFrom ?? openSealed(ctx, null);
	const document = split.document;
	const secrets = keepMaskedSecrets(split.secrets, from.values);
	const bound = bindSecrets(split.secrets, secrets, from.origins, urlOrigins(document.services));
	const { profile, revision } = await ctx.store.profiles.create({
		id: randomUUID(),
		name: input.name,
		document: JSON.stringify(document),
		secrets: sealSecrets(ctx, secrets, bound),
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
	input: {
		baseRevision: number;
		document: ProfileDocument;
		message?: string | null;
		/** Where masked secrets come from instead of the base revision (a restore). */
		secretsFrom?: SealedSecrets;
	},
	action: Extract<
		AuditAction,
		'profile.saved' | 'profile.restored' | 'profile.imported' | 'profile.backup_restored'
	> = 'profile.saved'
): Promise<SaveOutcome> {
	const profile = await ctx.store.profiles.get(id);
	if (!profile || profile.deletedAt !== null) return { ok: false, reason: 'not_found' };
	const base = await ctx.store.profiles.revision(id, input.baseRevision);
	const previous = input.secretsFrom ?? openSealed(ctx, base?.secrets ?? null);
	const split = splitSecrets(input.document);
	const secrets = keepMaskedSecrets(split.secrets, previous.values);
	const bound = bindSecrets(
		split.secrets,
		secrets,
		previous.origins,
		urlOrigins(split.document.services)
	);
	const result = await ctx.store.profiles.save({
		profileId: id,
		baseRevision: input.baseRevision,
		document: JSON.stringify(split.document),
		secrets: sealSecrets(ctx, secrets, bound),
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
			// Masked, with the revision's own secrets and bindings: a restore never rebinds a
			// stored secret to the URLs it happens to sit beside.
			...sourceOf(ctx, row),
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
