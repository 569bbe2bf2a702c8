import type { Transaction } from 'kysely';
import type { Tables } from '../schema';
import type { LiveItemStore, LiveLimits } from '../types';
import { num, type Queries } from './shared';

/**
 * Runs followed live (`live_keys`, `live_items`): each item is numbered within its user's key as
 * it is written, whichever instance writes it, and the limits hold for all instances together.
 */
export function liveItemStore({ db, relaxed }: Queries): LiveItemStore {
	return {
		liveItems: {
			async add(userId, key, item, at, limits) {
				const size = Buffer.byteLength(item);
				return relaxed(async (trx) => {
					// Expired keys go first, so a key written again after its expiry starts afresh.
					await trx
						.deleteFrom('live_keys')
						.where('touched_at', '<', at - limits.ttlMs)
						.execute();
					// The key's row is locked until the write ends: two writers number one after the other.
					const row = await trx
						.insertInto('live_keys')
						.values({ user_id: userId, live_key: key, last_seq: 1, bytes: 0, touched_at: at })
						.onConflict((oc) =>
							oc.columns(['user_id', 'live_key']).doUpdateSet((eb) => ({
								last_seq: eb('live_keys.last_seq', '+', 1),
								touched_at: at
							}))
						)
						.returning(['id', 'last_seq'])
						.executeTakeFirstOrThrow();
					const keyId = num(row.id);
					const seq = num(row.last_seq);
					await trx.insertInto('live_items').values({ key_id: keyId, seq, size, item }).execute();
					const dropped = await trx
						.deleteFrom('live_items')
						.where('key_id', '=', keyId)
						.where('seq', '<=', seq - limits.items)
						.returning('size')
						.execute();
					const freed = dropped.reduce((sum, d) => sum + num(d.size), 0);
					await trx
						.updateTable('live_keys')
						.set((eb) => ({ bytes: eb('bytes', '+', size - freed) }))
						.where('id', '=', keyId)
						.execute();
					if (seq === 1) await holdKeys(trx, userId, limits);
					await holdBytes(trx, limits.bytes);
					return seq;
				});
			},
			async after(userId, key, after, since, limit) {
				const rows = await db
					.selectFrom('live_items')
					.innerJoin('live_keys', 'live_keys.id', 'live_items.key_id')
					.select(['live_items.seq', 'live_items.item'])
					.where('live_keys.user_id', '=', userId)
					.where('live_keys.live_key', '=', key)
					.where('live_keys.touched_at', '>=', since)
					.where('live_items.seq', '>', after)
					.orderBy('live_items.seq', 'desc')
					.limit(limit)
					.execute();
				return rows.map((r) => ({ seq: num(r.seq), item: r.item }));
			}
		}
	};
}

/** Beyond the keys of a user, then the keys in all, the oldest keys go with their items. */
async function holdKeys(trx: Transaction<Tables>, userId: number, limits: LiveLimits) {
	await trx
		.deleteFrom('live_keys')
		.where('user_id', '=', userId)
		.where('id', '<=', (eb) =>
			eb
				.selectFrom('live_keys')
				.select('id')
				.where('user_id', '=', userId)
				.orderBy('id', 'desc')
				.limit(1)
				.offset(limits.keysPerUser)
		)
		.execute();
	await trx
		.deleteFrom('live_keys')
		.where('id', '<=', (eb) =>
			eb.selectFrom('live_keys').select('id').orderBy('id', 'desc').limit(1).offset(limits.keys)
		)
		.execute();
}

/** Beyond the bytes of all keys, the oldest keys' oldest items go (their kept runs hold them). */
async function holdBytes(trx: Transaction<Tables>, bytes: number) {
	const kept = await trx
		.selectFrom('live_keys')
		.select((eb) => eb.fn.sum<number | string | null>('bytes').as('total'))
		.executeTakeFirst();
	let excess = num(kept?.total ?? 0) - bytes;
	if (excess <= 0) return;
	const keys = await trx
		.selectFrom('live_keys')
		.select('id')
		.where('bytes', '>', 0)
		.orderBy('id')
		.execute();
	for (const { id } of keys) {
		const items = await trx
			.selectFrom('live_items')
			.select(['seq', 'size'])
			.where('key_id', '=', id)
			.orderBy('seq')
			.execute();
		let upTo = 0;
		let freed = 0;
		for (const item of items) {
			if (freed >= excess) break;
			upTo = num(item.seq);
			freed += num(item.size);
		}
		await trx.deleteFrom('live_items').where('key_id', '=', id).where('seq', '<=', upTo).execute();
		await trx
			.updateTable('live_keys')
			.set((eb) => ({ bytes: eb('bytes', '-', freed) }))
			.where('id', '=', id)
			.execute();
		excess -= freed;
		if (excess <= 0) return;
	}
}
