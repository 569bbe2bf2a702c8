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
	mergeDocuments,
	SECRET_MASK,
	isSecretKey,
	mapSecretSettings,
	SETTING_SECRETS,
	type MergeChoices,
	type MergeConflict,
	type SecretOrigins,
	type SecretValues
} from '$lib/core/profile';
import type { Merged, Profile, SaveConflict } from '$lib/api-schemas/profiles';
import { urlOrigins } from '$lib/core/request';
import { recordAudit, type Actor, type AuditAction } from '../audit';
import type { AuthUser } from '../auth/auth-user';
import type { ServerContext } from '../platform/context';
import { seal, unseal } from '../platform/secrets';
import type { ProfileRow, RevisionRow } from '../store/types';

/**
 * Profiles as the API and pages see them: documents validated on the way in, secrets sealed at
 * rest and masked on the way out, every save a revision, and saves on a stale revision refused
 * with both versions.
 */

/**
 * A profile at one revision, as sent to the browser (secrets masked): the API's `Profile`, so
 * what the server builds is what the document describes.
 */
export type ProfileView = Profile;

/**
 * A save refused because someone saved first and changed some of the same fields: the head as it
 * is now (`current`), what was sent (`yours`), and the fields both changed differently.
 */
export type Conflict = SaveConflict;

/**
 * A save made on an older revision, merged with the revisions saved since: the revision it was
 * based on (`base`), the head it was merged with (`theirs`), the fields that took the head's
 * value because only the head changed them (`fromTheirs`), and the conflicting fields settled by
 * the save's choices (`chosen`).
 */
export type { Merged };

/** The outcome of a save. */
export type SaveOutcome =
	| { ok: true; profile: ProfileView; merged?: Merged }
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
		/** What the document was read from, when not made here (for the audit log). */
		from?: 'xml' | 'backup';
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
		duplicateOf: input.duplicateOf ?? null,
		...(input.from ? { from: input.from } : {})
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

/** What a save writes: a document on top of `baseRevision`, masked secrets taken from `secretsFrom`. */
interface Write {
	baseRevision: number;
	document: ProfileDocument;
	secretsFrom: SealedSecrets;
}

/** The merge of a save on an older revision with the head: what to write, or the conflicts. */
async function mergeWithHead(
	ctx: ServerContext,
	id: string,
	head: number,
	input: { baseRevision: number; document: ProfileDocument; secretsFrom?: SealedSecrets },
	choices: MergeChoices
): Promise<
	| { ok: true; write: Write; merged: Merged }
	| { ok: false; headRow: RevisionRow | undefined; conflicts: MergeConflict[] }
> {
	const [baseRow, headRow] = await Promise.all([
		ctx.store.profiles.revision(id, input.baseRevision),
		ctx.store.profiles.revision(id, head)
	]);
	if (!baseRow || !headRow) return { ok: false, headRow, conflicts: [] };
	const baseSecrets = openSealed(ctx, baseRow.secrets);
	const headSecrets = openSealed(ctx, headRow.secrets);
	// Compared with their values: a secret someone else changed is a change, although both
	// sides read it as the mask.
	const base = joinSecrets(readDocument(baseRow), baseSecrets.values, 'values');
	const theirs = joinSecrets(readDocument(headRow), headSecrets.values, 'values');
	// Masked secrets (scenario values and credentials of kept XML) read as the values they stand
	// for: those of the revision the save was made from.
	const split = splitSecrets(input.document);
	const mine = joinSecrets(
		split.document,
		keepMaskedSecrets(split.secrets, (input.secretsFrom ?? baseSecrets).values),
		'values'
	);
	const result = mergeDocuments(base, mine, theirs, choices);
	if (result.unresolved.length) return { ok: false, headRow, conflicts: result.conflicts };
	return {
		ok: true,
		// The head's secrets go back as the mask, so they keep the head's values and bindings;
		// secrets typed in this save are bound like any typed secret.
		write: {
			baseRevision: head,
			document: remask(result.document, headSecrets.values),
			secretsFrom: headSecrets
		},
		merged: {
			base: input.baseRevision,
			theirs: head,
			fromTheirs: result.fromTheirs,
			chosen: result.conflicts.map((c) => c.path)
		}
	};
}

/** The document with each secret equal to its value in `secrets` written as the mask. */
function remask(document: ProfileDocument, secrets: SecretValues): ProfileDocument {
	return mapSecrets(document, (scenario, key, value) =>
		value !== '' && value === ownValue(ownValue(secrets, scenario), key) ? SECRET_MASK : value
	);
}

function mapSecrets(
	document: ProfileDocument,
	map: (scenario: string, key: string, value: string) => string
): ProfileDocument {
	const scenarios = document.scenarios.map((scenario) => {
		const values = { ...scenario.values };
		for (const [key, value] of Object.entries(values)) {
			if (isSecretKey(key) && typeof value === 'string')
				values[key] = map(scenario.name, key, value);
		}
		return { ...scenario, values };
	});
	const services = mapSecretSettings(document.services, (slot, value) =>
		map(SETTING_SECRETS, slot, value)
	);
	return { ...document, services, scenarios };
}

function ownValue<T>(record: Record<string, T> | undefined, key: string): T | undefined {
	return record && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** How many times a save is merged again when another save lands between read and write. */
const MERGE_ATTEMPTS = 3;

/**
 * Saves a document as the next revision. A secret sent back as the mask keeps the value stored
 * at the base revision. When `baseRevision` is no longer the head, the save is merged with the
 * head field by field (base, this document, head): fields only the head changed keep the head's
 * value, and only fields both changed differently are a conflict, answered with those fields
 * and nothing written. `choices` settles them, when given for the head they were shown with.
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
		/** Which side each conflicting field takes, for conflicts shown with `theirsRevision`. */
		choices?: MergeChoices;
		theirsRevision?: number;
	},
	action: Extract<
		AuditAction,
		'profile.saved' | 'profile.restored' | 'profile.imported' | 'profile.backup_restored'
	> = 'profile.saved'
): Promise<SaveOutcome> {
	for (let attempt = 1; ; attempt++) {
		const profile = await ctx.store.profiles.get(id);
		if (!profile || profile.deletedAt !== null) return { ok: false, reason: 'not_found' };
		const head = profile.headRevision;
		let write: Write;
		let merged: Merged | undefined;
		if (head === input.baseRevision) {
			const base = await ctx.store.profiles.revision(id, input.baseRevision);
			const secretsFrom = input.secretsFrom ?? openSealed(ctx, base?.secrets ?? null);
			write = { baseRevision: input.baseRevision, document: input.document, secretsFrom };
		} else {
			const choices = input.theirsRevision === head ? (input.choices ?? {}) : {};
			const merge = await mergeWithHead(ctx, id, head, input, choices);
			if (!merge.ok) {
				return conflictOutcome(ctx, id, merge.headRow, input.document, merge.conflicts);
			}
			({ write, merged } = merge);
		}
		const split = splitSecrets(write.document);
		const secrets = keepMaskedSecrets(split.secrets, write.secretsFrom.values);
		const bound = bindSecrets(
			split.secrets,
			secrets,
			write.secretsFrom.origins,
			urlOrigins(split.document.services)
		);
		const result = await ctx.store.profiles.save({
			profileId: id,
			baseRevision: write.baseRevision,
			document: JSON.stringify(split.document),
			secrets: sealSecrets(ctx, secrets, bound),
			authorId: user.id,
			message: input.message ?? null,
			at: Date.now()
		});
		if (result.ok) {
			await recordAudit(ctx.store, actorOf(user, ip), action, id, {
				revision: result.revision.revision,
				base: input.baseRevision,
				...(merged ? { mergedWith: merged.theirs } : {})
			});
			const updated = (await ctx.store.profiles.get(id))!;
			return { ok: true, profile: view(updated, result.revision, ctx), merged };
		}
		if (result.reason === 'not_found') return result;
		// Another save landed between reading the head and writing: merge with that one.
		if (attempt >= MERGE_ATTEMPTS) {
			return conflictOutcome(ctx, id, result.head, input.document, []);
		}
	}
}

async function conflictOutcome(
	ctx: ServerContext,
	id: string,
	headRow: RevisionRow | undefined,
	document: ProfileDocument,
	conflicts: MergeConflict[]
): Promise<SaveOutcome> {
	const profile = await ctx.store.profiles.get(id);
	const row = headRow ?? (profile && (await ctx.store.profiles.revision(id, profile.headRevision)));
	if (!profile || !row) return { ok: false, reason: 'not_found' };
	// The submitted document goes back with its secrets masked: secrets are write-only.
	const split = splitSecrets(document);
	const yours = joinSecrets(split.document, split.secrets, 'mask');
	return {
		ok: false,
		reason: 'conflict',
		conflict: { current: view(profile, row, ctx), yours, conflicts }
	};
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
