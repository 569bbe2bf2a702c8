import type { Selectable } from 'kysely';
import type { FlowRunsTable } from '../schema';
import type { FlowRunRow, FlowRunStore } from '../types';
import { num, numOrNull, type Queries } from './shared';

function flowRun(
	row: Omit<Selectable<FlowRunsTable>, 'record'> & { record?: string; user_email?: string | null }
): FlowRunRow {
	return {
		id: num(row.id),
		profileId: row.profile_id ?? null,
		flow: row.flow,
		userId: numOrNull(row.user_id),
		userEmail: row.user_email ?? null,
		at: num(row.at),
		ok: num(row.ok) === 1,
		summary: row.summary,
		record: row.record ?? ''
	};
}

/** The runs of flows (`flow_runs`). */
export function flowRunStore({ db, relaxed }: Queries): FlowRunStore {
	return {
		flowRuns: {
			async add(row, keep) {
				return relaxed(async (trx) => {
					const inserted = await trx
						.insertInto('flow_runs')
						.values({
							profile_id: row.profileId,
							flow: row.flow,
							user_id: row.userId,
							at: row.at,
							ok: row.ok ? 1 : 0,
							summary: row.summary,
							record: row.record
						})
						.returningAll()
						.executeTakeFirstOrThrow();
					const sameProfile = row.profileId === null ? 'is' : '=';
					await trx
						.deleteFrom('flow_runs')
						.where('profile_id', sameProfile, row.profileId)
						.where('id', 'not in', (eb) =>
							eb
								.selectFrom('flow_runs')
								.select('id')
								.where('profile_id', sameProfile, row.profileId)
								.orderBy('id', 'desc')
								.limit(keep)
						)
						.execute();
					return flowRun(inserted);
				});
			},
			async list(profileId, limit) {
				const rows = await db
					.selectFrom('flow_runs as f')
					.leftJoin('users as u', 'u.id', 'f.user_id')
					.select([
						'f.id',
						'f.profile_id',
						'f.flow',
						'f.user_id',
						'u.email as user_email',
						'f.at',
						'f.ok',
						'f.summary'
					])
					.where('f.profile_id', '=', profileId)
					.orderBy('f.id', 'desc')
					.limit(limit)
					.execute();
				return rows.map((r) => {
					const { record: _r, ...rest } = flowRun(r);
					void _r;
					return rest;
				});
			},
			async get(id) {
				const row = await db
					.selectFrom('flow_runs as f')
					.leftJoin('users as u', 'u.id', 'f.user_id')
					.selectAll('f')
					.select('u.email as user_email')
					.where('f.id', '=', id)
					.executeTakeFirst();
				return row ? flowRun(row) : undefined;
			}
		}
	};
}
