import type { Selectable } from 'kysely';
import type { SinkRequestsTable, SinksTable } from '../schema';
import type { SinkRequestRow, SinkRow, SinkStore } from '../types';
import { num, numOrNull, type Queries } from './shared';

function sink(row: Selectable<SinksTable> | undefined): SinkRow | undefined {
	if (!row) return undefined;
	return {
		key: row.key,
		name: row.name,
		createdBy: numOrNull(row.created_by),
		createdAt: num(row.created_at),
		answer: row.answer
	};
}

function sinkRequest(row: Selectable<SinkRequestsTable>): SinkRequestRow {
	return { id: num(row.id), sinkKey: row.sink_key, at: num(row.at), record: row.record };
}

/** Echo sinks (`sinks`) and the requests they received (`sink_requests`). */
export function sinkStore({ db, relaxed }: Queries): SinkStore {
	const sinks: SinkStore['sinks'] = {
		async create(row) {
			const created = await db
				.insertInto('sinks')
				.values({
					key: row.key,
					name: row.name,
					created_by: row.createdBy,
					created_at: row.createdAt,
					answer: row.answer
				})
				.returningAll()
				.executeTakeFirstOrThrow();
			return sink(created)!;
		},
		async list() {
			const rows = await db.selectFrom('sinks').selectAll().orderBy('created_at', 'desc').execute();
			return rows.map((r) => sink(r)!);
		},
		async get(key) {
			return sink(
				await db.selectFrom('sinks').selectAll().where('key', '=', key).executeTakeFirst()
			);
		},
		async update(key, changes) {
			const set = {
				...(changes.name !== undefined && { name: changes.name }),
				...(changes.answer !== undefined && { answer: changes.answer })
			};
			if (!Object.keys(set).length) return (await sinks.get(key)) !== undefined;
			const result = await db
				.updateTable('sinks')
				.set(set)
				.where('key', '=', key)
				.executeTakeFirst();
			return Number(result.numUpdatedRows) === 1;
		},
		async delete(key) {
			const result = await db.deleteFrom('sinks').where('key', '=', key).executeTakeFirst();
			return Number(result.numDeletedRows) === 1;
		},
		async addRequest(sinkKey, at, record, keep) {
			return relaxed(async (trx) => {
				const row = await trx
					.insertInto('sink_requests')
					.values({ sink_key: sinkKey, at, record })
					.returningAll()
					.executeTakeFirstOrThrow();
				await trx
					.deleteFrom('sink_requests')
					.where('sink_key', '=', sinkKey)
					.where('id', 'not in', (eb) =>
						eb
							.selectFrom('sink_requests')
							.select('id')
							.where('sink_key', '=', sinkKey)
							.orderBy('id', 'desc')
							.limit(keep)
					)
					.execute();
				return sinkRequest(row);
			});
		},
		async requests(sinkKey, afterId, limit) {
			const rows = await db
				.selectFrom('sink_requests')
				.selectAll()
				.where('sink_key', '=', sinkKey)
				.where('id', '>', afterId)
				.orderBy('id', 'desc')
				.limit(limit)
				.execute();
			return rows.map(sinkRequest);
		},
		async clearRequests(sinkKey) {
			await db.deleteFrom('sink_requests').where('sink_key', '=', sinkKey).execute();
		}
	};
	return { sinks };
}
