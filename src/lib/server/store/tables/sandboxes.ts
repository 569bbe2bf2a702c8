import type { Selectable } from 'kysely';
import type { SandboxesTable, SandboxPushesTable } from '../schema';
import type { SandboxPushRow, SandboxRow, SandboxStore } from '../types';
import { num, numOrNull, type Queries } from './shared';

function sandbox(row: Selectable<SandboxesTable> | undefined): SandboxRow | undefined {
	if (!row) return undefined;
	return {
		id: row.id,
		key: row.key,
		keyHash: row.key_hash,
		name: row.name,
		ownerId: numOrNull(row.owner_id),
		createdAt: num(row.created_at),
		updatedAt: num(row.updated_at),
		settings: row.settings
	};
}

function sandboxPush(row: Selectable<SandboxPushesTable>): SandboxPushRow {
	return { id: num(row.id), sandboxId: row.sandbox_id, at: num(row.at), record: row.record };
}

/** Push sandboxes (`sandboxes`) and the pushes they recorded (`sandbox_pushes`). */
export function sandboxStore({ db, relaxed }: Queries): SandboxStore {
	return {
		sandboxes: {
			async create(row) {
				const created = await db
					.insertInto('sandboxes')
					.values({
						id: row.id,
						key: row.key,
						key_hash: row.keyHash,
						name: row.name,
						owner_id: row.ownerId,
						created_at: row.createdAt,
						updated_at: row.updatedAt,
						settings: row.settings
					})
					.returningAll()
					.executeTakeFirstOrThrow();
				return sandbox(created)!;
			},
			async list() {
				const rows = await db
					.selectFrom('sandboxes')
					.selectAll()
					.orderBy('created_at', 'desc')
					.orderBy('id')
					.execute();
				return rows.map((r) => sandbox(r)!);
			},
			async get(id) {
				return sandbox(
					await db.selectFrom('sandboxes').selectAll().where('id', '=', id).executeTakeFirst()
				);
			},
			async byKeyHash(keyHash) {
				return sandbox(
					await db
						.selectFrom('sandboxes')
						.selectAll()
						.where('key_hash', '=', keyHash)
						.executeTakeFirst()
				);
			},
			async update(id, changes, at) {
				const result = await db
					.updateTable('sandboxes')
					.set({
						updated_at: at,
						...(changes.name !== undefined && { name: changes.name }),
						...(changes.settings !== undefined && { settings: changes.settings }),
						...(changes.key !== undefined && { key: changes.key }),
						...(changes.keyHash !== undefined && { key_hash: changes.keyHash })
					})
					.where('id', '=', id)
					.executeTakeFirst();
				return Number(result.numUpdatedRows) === 1;
			},
			async delete(id) {
				const result = await db.deleteFrom('sandboxes').where('id', '=', id).executeTakeFirst();
				return Number(result.numDeletedRows) === 1;
			},
			// Pruning seeks the `keep`-th newest push in the index, so a batch costs the same however
			// many were dropped before.
			async addPushes(pushes, keep) {
				return relaxed(async (trx) => {
					const ids: (number | null)[] = [];
					const touched = new Set<string>();
					for (const push of pushes) {
						const inserted = await trx
							.insertInto('sandbox_pushes')
							.columns(['sandbox_id', 'at', 'record'])
							.expression((eb) =>
								eb
									.selectFrom('sandboxes')
									.select(['id', eb.val(push.at).as('at'), eb.val(push.record).as('record')])
									.where('id', '=', push.sandboxId)
							)
							.returning('id')
							.executeTakeFirst();
						ids.push(inserted ? num(inserted.id) : null);
						if (inserted) touched.add(push.sandboxId);
					}
					for (const sandboxId of touched) {
						await trx
							.deleteFrom('sandbox_pushes')
							.where('sandbox_id', '=', sandboxId)
							.where('id', '<=', (eb) =>
								eb
									.selectFrom('sandbox_pushes')
									.select('id')
									.where('sandbox_id', '=', sandboxId)
									.orderBy('id', 'desc')
									.limit(1)
									.offset(keep)
							)
							.execute();
					}
					return ids;
				});
			},
			async pushes(sandboxId, afterId, limit) {
				const rows = await db
					.selectFrom('sandbox_pushes')
					.selectAll()
					.where('sandbox_id', '=', sandboxId)
					.where('id', '>', afterId)
					.orderBy('id', 'desc')
					.limit(limit)
					.execute();
				return rows.map(sandboxPush);
			}
		}
	};
}
