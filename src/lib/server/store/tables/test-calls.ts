import type { Selectable } from 'kysely';
import type { TestCallsTable } from '../schema';
import type { TestCallRow, TestCallStore } from '../types';
import { num, type AuditEntryWriter, type Queries } from './shared';

/** A test call as listed: everything but its record. */
function testCallEntry(
	row: Omit<Selectable<TestCallsTable>, 'record'>
): Omit<TestCallRow, 'record'> {
	return {
		id: num(row.id),
		userId: num(row.user_id),
		service: row.service,
		profileId: row.profile_id ?? null,
		scenario: row.scenario ?? null,
		at: num(row.at),
		summary: row.summary
	};
}

function testCall(row: Selectable<TestCallsTable>): TestCallRow {
	return { ...testCallEntry(row), record: row.record };
}

/** The test calls (`test_calls`), with the audit entries of their requests in the same write. */
export function testCallStore(
	{ db, compiled, relaxedWrites }: Queries,
	auditEntries: AuditEntryWriter
): TestCallStore {
	return {
		testCalls: {
			async add(row, audit = []) {
				const values = {
					user_id: row.userId,
					service: row.service,
					profile_id: row.profileId,
					scenario: row.scenario,
					at: row.at,
					summary: row.summary,
					record: row.record
				};
				// Compiled once (see `first`): a test call's write is on the way to its answer.
				const params = Object.values(values);
				const writes = [
					{
						query: compiled('test_call', params, () =>
							db.insertInto('test_calls').values(values).returning('id')
						),
						params
					},
					...auditEntries.writes(audit)
				];
				const inserted = (await relaxedWrites(writes)) as { id: number | bigint } | undefined;
				if (!inserted) throw new Error('The test call was not stored.');
				auditEntries.written(audit);
				return num(inserted.id);
			},
			async trim(userId, service, keep) {
				const params = [userId, service, userId, service, 1, keep];
				await relaxedWrites([
					{
						query: compiled('test_call.trim', params, () =>
							db
								.deleteFrom('test_calls')
								.where('user_id', '=', userId)
								.where('service', '=', service)
								// The newest call past those kept, found on the index; none: nothing to remove.
								.where('id', '<=', (eb) =>
									eb
										.selectFrom('test_calls')
										.select('id')
										.where('user_id', '=', userId)
										.where('service', '=', service)
										.orderBy('id', 'desc')
										.limit(1)
										.offset(keep)
								)
						),
						params
					}
				]);
			},
			async list(userId, service, profileId, limit) {
				const rows = await db
					.selectFrom('test_calls')
					.select(['id', 'user_id', 'service', 'profile_id', 'scenario', 'at', 'summary'])
					.where('user_id', '=', userId)
					.where('service', '=', service)
					.where('profile_id', profileId === null ? 'is' : '=', profileId)
					.orderBy('id', 'desc')
					.limit(limit)
					.execute();
				return rows.map(testCallEntry);
			},
			async get(id, userId) {
				const row = await db
					.selectFrom('test_calls')
					.selectAll()
					.where('id', '=', id)
					.where('user_id', '=', userId)
					.executeTakeFirst();
				return row ? testCall(row) : undefined;
			},
			async latestOfProfile(profileId) {
				// The newest id of each service, found on the (profile, service, id) index.
				const rows = await db
					.selectFrom('test_calls as t')
					.leftJoin('users as u', 'u.id', 't.user_id')
					.select([
						't.id',
						't.user_id',
						't.service',
						't.profile_id',
						't.scenario',
						't.at',
						't.summary',
						'u.name as user_name',
						'u.email as user_email'
					])
					.where('t.id', 'in', (eb) =>
						eb
							.selectFrom('test_calls')
							.select((e) => e.fn.max('id').as('id'))
							.where('profile_id', '=', profileId)
							.groupBy('service')
					)
					.execute();
				return rows.map((r) => ({
					...testCallEntry(r),
					userName: r.user_name ?? null,
					userEmail: r.user_email ?? null
				}));
			}
		}
	};
}
