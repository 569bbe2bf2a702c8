import { sql, type Kysely, type Selectable } from 'kysely';
import type { AuditLogTable, Tables } from '../schema';
import type { AuditEntry, AuditStore, AuditStreamState } from '../types';
import { num, numOrNull, type AuditEntryWriter, type Queries } from './shared';

/** Audit actions recorded as often as test calls are made (see `Backend.relaxed`). */
const RELAXED_ACTIONS = new Set(['test_call', 'push.sent']);

/** The row of an audit entry. */
function auditRow(entry: Omit<AuditEntry, 'id'>) {
	return {
		at: entry.at,
		actor_id: entry.actorId,
		actor: entry.actor,
		action: entry.action,
		target: entry.target,
		ip: entry.ip,
		details: entry.details ? JSON.stringify(entry.details) : null
	};
}

function audit(row: Selectable<AuditLogTable>): AuditEntry {
	return {
		id: num(row.id),
		at: num(row.at),
		actorId: numOrNull(row.actor_id),
		actor: row.actor ?? null,
		action: row.action,
		target: row.target ?? null,
		ip: row.ip ?? null,
		details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null
	};
}

/**
 * The outbox row of the audit entry inserted just before, on the same connection and in the
 * same transaction: its id is the connection's last one (SQLite's rowid, PostgreSQL's last
 * sequence value, which the audit log's identity column just took).
 */
const outboxRow = (pg: boolean, at: number) => ({
	audit_id: pg ? sql<number>`lastval()` : sql<number>`last_insert_rowid()`,
	available_at: at
});

/** Audit entries written in another group's relaxed write, compiled once (see `queries`). */
export function auditEntryWriter({ db, pg, compiled, options }: Queries): AuditEntryWriter {
	const outbox = options.auditOutbox === true;
	return {
		writes: (entries) =>
			entries.flatMap((entry) => {
				const values = auditRow(entry);
				const params = Object.values(values);
				const query = compiled('audit', params, () => db.insertInto('audit_log').values(values));
				if (!outbox) return [{ query, params }];
				const next = [entry.at];
				const queued = compiled('audit_outbox', next, () =>
					db.insertInto('audit_outbox').values(outboxRow(pg, entry.at))
				);
				return [
					{ query, params },
					{ query: queued, params: next }
				];
			}),
		written(entries) {
			if (outbox && entries.length) options.onAudit?.();
		}
	};
}

/** The audit log (`audit_log`) and its stream's `audit_outbox` and `audit_stream`. */
export function auditStore({ db, pg, relaxed, options }: Queries): AuditStore {
	const outbox = options.auditOutbox === true;
	return {
		audit: {
			async append(entry) {
				const write = async (q: Kysely<Tables>) => {
					await q.insertInto('audit_log').values(auditRow(entry)).execute();
					if (outbox) await q.insertInto('audit_outbox').values(outboxRow(pg, entry.at)).execute();
				};
				if (RELAXED_ACTIONS.has(entry.action)) await relaxed(write);
				else if (outbox) await db.transaction().execute(write);
				else await write(db);
				if (outbox) options.onAudit?.();
			},
			async list(filter) {
				const limit = Math.min(Math.max(filter.limit ?? 100, 1), 1000);
				// SQLite's LIKE ignores the case of ASCII letters; PostgreSQL's ILIKE does the same.
				const like = pg ? 'ilike' : 'like';
				let query = db.selectFrom('audit_log').selectAll();
				if (filter.action) query = query.where('action', like, `${filter.action}%`);
				if (filter.actor) query = query.where('actor', like, `%${filter.actor}%`);
				if (filter.since !== undefined) query = query.where('at', '>=', filter.since);
				if (filter.until !== undefined) query = query.where('at', '<', filter.until);
				if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
				if (filter.afterId !== undefined) query = query.where('id', '>', filter.afterId);
				const order = filter.oldestFirst ? 'asc' : 'desc';
				const rows = await query.orderBy('id', order).limit(limit).execute();
				return rows.map(audit);
			}
		},
		auditOutbox: {
			async claim(owner, now, leaseMs, limit) {
				return db.transaction().execute(async (trx) => {
					// An entry waiting for its next attempt holds back every newer one: the receiver
					// gets them in order once it answers again.
					let due = trx
						.selectFrom('audit_outbox')
						.select('audit_id')
						.where('available_at', '<=', now)
						.where(
							sql<boolean>`audit_id < COALESCE((SELECT MIN(w.audit_id) FROM audit_outbox w
								WHERE w.claimed_by IS NULL AND w.available_at > ${now}), ${Number.MAX_SAFE_INTEGER})`
						)
						.orderBy('audit_id')
						.limit(limit);
					// Another instance's claim under way is skipped, not waited for.
					if (pg) due = due.forUpdate().skipLocked();
					const ids = (await due.execute()).map((r) => num(r.audit_id));
					if (!ids.length) return [];
					await trx
						.updateTable('audit_outbox')
						.set({ claimed_by: owner, available_at: now + leaseMs })
						.where('audit_id', 'in', ids)
						.execute();
					const rows = await trx
						.selectFrom('audit_outbox as o')
						.innerJoin('audit_log as a', 'a.id', 'o.audit_id')
						.selectAll('a')
						.select('o.attempts')
						.where('o.audit_id', 'in', ids)
						.orderBy('o.audit_id')
						.execute();
					return rows.map((r) => ({ entry: audit(r), attempts: num(r.attempts) }));
				});
			},
			async delivered(auditId, at) {
				await db.transaction().execute(async (trx) => {
					await trx.deleteFrom('audit_outbox').where('audit_id', '=', auditId).execute();
					await trx
						.updateTable('audit_stream')
						.set({ delivered_at: at, delivered_id: auditId })
						.where('id', '=', 1)
						.execute();
				});
			},
			async failed(auditIds, error, at, retryAt) {
				if (!auditIds.length) return;
				await db.transaction().execute(async (trx) => {
					await trx
						.updateTable('audit_outbox')
						.set({ claimed_by: null, available_at: retryAt })
						.where('audit_id', 'in', auditIds)
						.execute();
					await trx
						.updateTable('audit_outbox')
						.set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: error }))
						.where('audit_id', '=', auditIds[0])
						.execute();
					await trx
						.updateTable('audit_stream')
						.set({ error, error_at: at })
						.where('id', '=', 1)
						.execute();
				});
			},
			async release(owner, now) {
				const result = await db
					.updateTable('audit_outbox')
					.set({ claimed_by: null, available_at: now })
					.where('claimed_by', owner === null ? 'is not' : '=', owner)
					.executeTakeFirst();
				return Number(result.numUpdatedRows);
			},
			async state(): Promise<AuditStreamState> {
				const count = await db
					.selectFrom('audit_outbox')
					.select((eb) => eb.fn.countAll().as('n'))
					.executeTakeFirstOrThrow();
				const row = await db
					.selectFrom('audit_stream')
					.selectAll()
					.where('id', '=', 1)
					.executeTakeFirst();
				return {
					backlog: Number(count.n),
					lastDeliveredAt: numOrNull(row?.delivered_at),
					lastDeliveredId: numOrNull(row?.delivered_id),
					lastError: row?.error ?? null,
					lastErrorAt: numOrNull(row?.error_at)
				};
			}
		}
	};
}
