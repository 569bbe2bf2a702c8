import type { Selectable } from 'kysely';
import type { ApiTokensTable } from '../schema';
import type { ApiToken, TokenStore } from '../types';
import { num, numOrNull, type Queries } from './shared';

function token(row: Selectable<ApiTokensTable> | undefined): ApiToken | undefined {
	if (!row) return undefined;
	return {
		id: num(row.id),
		userId: num(row.user_id),
		name: row.name,
		prefix: row.prefix,
		tokenHash: row.token_hash,
		createdAt: num(row.created_at),
		lastUsedAt: numOrNull(row.last_used_at),
		revokedAt: numOrNull(row.revoked_at)
	};
}

/** API tokens (`api_tokens`). */
export function tokenStore({ db, first }: Queries): TokenStore {
	return {
		tokens: {
			async create(input) {
				const row = await db
					.insertInto('api_tokens')
					.values({
						user_id: input.userId,
						name: input.name,
						prefix: input.prefix,
						token_hash: input.tokenHash,
						created_at: input.createdAt
					})
					.returningAll()
					.executeTakeFirstOrThrow();
				return token(row)!;
			},
			async findByHash(tokenHash) {
				return token(
					await first(db, 'token', [tokenHash], () =>
						db.selectFrom('api_tokens').selectAll().where('token_hash', '=', tokenHash)
					)
				);
			},
			async listForUser(userId) {
				const rows = await db
					.selectFrom('api_tokens')
					.selectAll()
					.where('user_id', '=', userId)
					.orderBy('id', 'desc')
					.execute();
				return rows.map((r) => token(r)!);
			},
			async revoke(id, userId, at) {
				const result = await db
					.updateTable('api_tokens')
					.set({ revoked_at: at })
					.where('id', '=', id)
					.where('user_id', '=', userId)
					.where('revoked_at', 'is', null)
					.executeTakeFirst();
				return Number(result.numUpdatedRows) === 1;
			},
			async revokeForUser(userId, at) {
				const result = await db
					.updateTable('api_tokens')
					.set({ revoked_at: at })
					.where('user_id', '=', userId)
					.where('revoked_at', 'is', null)
					.executeTakeFirst();
				return Number(result.numUpdatedRows);
			},
			async touch(id, at) {
				await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
			}
		}
	};
}
