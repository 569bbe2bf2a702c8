import { sql, type Kysely, type Selectable } from 'kysely';
import type { ProfilesTable, Tables } from '../schema';
import type { ProfileRow, ProfileStore, RevisionRow, SaveInput } from '../types';
import { num, numOrNull, type Queries } from './shared';

function profile(row: Selectable<ProfilesTable> | undefined): ProfileRow | undefined {
	if (!row) return undefined;
	return {
		id: row.id,
		name: row.name,
		createdAt: num(row.created_at),
		createdBy: numOrNull(row.created_by),
		deletedAt: numOrNull(row.deleted_at),
		headRevision: num(row.head_revision),
		updatedAt: num(row.updated_at)
	};
}

interface RevisionSelect {
	profile_id: string;
	revision: number;
	document?: string;
	secrets?: string | null;
	author_id: number | null;
	author_name: string | null;
	created_at: number;
	message: string | null;
}

function revision(row: RevisionSelect | undefined): RevisionRow | undefined {
	if (!row) return undefined;
	return {
		profileId: row.profile_id,
		revision: num(row.revision),
		document: row.document ?? '',
		secrets: row.secrets ?? null,
		authorId: numOrNull(row.author_id),
		authorName: row.author_name ?? null,
		createdAt: num(row.created_at),
		message: row.message ?? null
	};
}

/** The row of a profile's revision `revision`, as a creation or a save writes it. */
function revisionValues(
	profileId: string,
	revision: number,
	input: Pick<SaveInput, 'document' | 'secrets' | 'authorId' | 'at' | 'message'>
) {
	return {
		profile_id: profileId,
		revision,
		document: input.document,
		secrets: input.secrets,
		author_id: input.authorId,
		created_at: input.at,
		message: input.message
	};
}

/** A revision with its author's name. */
function revisionQuery(db: Kysely<Tables>) {
	return db
		.selectFrom('revisions as r')
		.leftJoin('users as u', 'u.id', 'r.author_id')
		.selectAll('r')
		.select('u.name as author_name');
}

/** Profiles (`profiles`) and their revisions (`revisions`). */
export function profileStore({ db, first }: Queries): ProfileStore {
	const getRevision = (q: Kysely<Tables>, id: string, rev: number) =>
		first(q, 'revision', [id, rev], () =>
			revisionQuery(q).where('r.profile_id', '=', id).where('r.revision', '=', rev)
		);

	const getProfile = async (q: Kysely<Tables>, id: string) =>
		profile(
			await first(q, 'profile', [id], () =>
				q.selectFrom('profiles').selectAll().where('id', '=', id)
			)
		);

	return {
		profiles: {
			async list({ deleted }) {
				const rows = await db
					.selectFrom('profiles')
					.selectAll()
					.where('deleted_at', deleted ? 'is not' : 'is', null)
					.orderBy(sql`lower(name)`)
					.orderBy('id')
					.execute();
				return rows.map((r) => profile(r)!);
			},
			async get(id) {
				return getProfile(db, id);
			},
			async create(input) {
				return db.transaction().execute(async (trx) => {
					await trx
						.insertInto('profiles')
						.values({
							id: input.id,
							name: input.name,
							created_at: input.at,
							created_by: input.authorId,
							head_revision: 1,
							updated_at: input.at
						})
						.execute();
					await trx
						.insertInto('revisions')
						.values(revisionValues(input.id, 1, input))
						.execute();
					return {
						profile: (await getProfile(trx, input.id))!,
						revision: revision(await getRevision(trx, input.id, 1))!
					};
				});
			},
			/**
			 * The head moves by a conditional update: of two saves on the same base, in this process
			 * or another, the second waits for the first's row lock, then finds the head moved and
			 * updates nothing. Only the save that moved the head writes its revision.
			 */
			async save(input) {
				return db.transaction().execute(async (trx) => {
					const next = input.baseRevision + 1;
					const moved = await trx
						.updateTable('profiles')
						.set({ head_revision: next, updated_at: input.at })
						.where('id', '=', input.profileId)
						.where('head_revision', '=', input.baseRevision)
						.where('deleted_at', 'is', null)
						.executeTakeFirst();
					if (Number(moved.numUpdatedRows) !== 1) {
						const row = await getProfile(trx, input.profileId);
						if (!row || row.deletedAt !== null) {
							return { ok: false as const, reason: 'not_found' as const };
						}
						const head = revision(await getRevision(trx, row.id, row.headRevision))!;
						return { ok: false as const, reason: 'conflict' as const, head };
					}
					await trx
						.insertInto('revisions')
						.values(revisionValues(input.profileId, next, input))
						.execute();
					return {
						ok: true as const,
						revision: revision(await getRevision(trx, input.profileId, next))!
					};
				});
			},
			async rename(id, name, at) {
				const result = await db
					.updateTable('profiles')
					.set({ name, updated_at: at })
					.where('id', '=', id)
					.executeTakeFirst();
				return Number(result.numUpdatedRows) === 1;
			},
			async setDeleted(id, deletedAt) {
				const result = await db
					.updateTable('profiles')
					.set({ deleted_at: deletedAt })
					.where('id', '=', id)
					.executeTakeFirst();
				return Number(result.numUpdatedRows) === 1;
			},
			async revisions(id) {
				const rows = await db
					.selectFrom('revisions as r')
					.leftJoin('users as u', 'u.id', 'r.author_id')
					.select([
						'r.profile_id',
						'r.revision',
						'r.author_id',
						'r.created_at',
						'r.message',
						'u.name as author_name'
					])
					.where('r.profile_id', '=', id)
					.orderBy('r.revision', 'desc')
					.execute();
				return rows.map((r) => {
					const { document: _d, secrets: _s, ...rest } = revision(r)!;
					void _d;
					void _s;
					return rest;
				});
			},
			async revision(id, rev) {
				return revision(await getRevision(db, id, rev));
			}
		}
	};
}
