import { announceNews, onNews, onPoll } from '../platform/cluster';
import type { Store } from '../store/types';

/**
 * News that a user's access may have changed: a session ended, a token revoked, the account
 * deactivated, its role changed or its second factor removed. Open streams of that user hear of
 * it and check their caller again. The news comes from the store itself ({@link withAccessNews}),
 * so every way of ending access sends it, including ones written later; every instance that
 * listens hears of it once, this one included (see `announceNews`).
 */

const topic = (userId: number) => `access:${userId}`;

/** Tells every watcher of `userId`, here and on every instance, that their access changed. */
export function accessChanged(userId: number): void {
	announceNews(topic(userId));
}

/**
 * Calls `changed` whenever the access of `userId` may have changed, and `poll` every second or so
 * while this instance polls, when news from the other instances cannot reach it (a check that is
 * no longer fresh is then due); returns the unsubscribe.
 */
export function onAccessChange(userId: number, changed: () => void, poll: () => void): () => void {
	const unnews = onNews(topic(userId), changed);
	const unpoll = onPoll(poll);
	return () => {
		unnews();
		unpoll?.();
	};
}

/**
 * The store, telling {@link accessChanged} after each write that can end a user's access: a
 * session deleted, a token revoked, a second factor removed, a role or the active flag changed.
 */
export function withAccessNews(store: Store): Store {
	const { sessions, tokens, totp, users } = store;
	return {
		...store,
		sessions: {
			...sessions,
			async delete(tokenHash) {
				const session = await sessions.find(tokenHash);
				await sessions.delete(tokenHash);
				if (session) accessChanged(session.userId);
			},
			async deleteForUser(userId) {
				await sessions.deleteForUser(userId);
				accessChanged(userId);
			}
		},
		tokens: {
			...tokens,
			async revoke(id, userId, at) {
				const done = await tokens.revoke(id, userId, at);
				if (done) accessChanged(userId);
				return done;
			},
			async revokeForUser(userId, at) {
				const count = await tokens.revokeForUser(userId, at);
				if (count > 0) accessChanged(userId);
				return count;
			}
		},
		// Without it, REQUIRE_2FA holds a session back.
		totp: {
			...totp,
			async remove(userId) {
				const removed = await totp.remove(userId);
				if (removed) accessChanged(userId);
				return removed;
			}
		},
		users: {
			...users,
			async update(id, changes) {
				const updated = await users.update(id, changes);
				const changed = typeof updated === 'object';
				if (changed && (changes.role !== undefined || changes.active !== undefined)) {
					accessChanged(id);
				}
				return updated;
			}
		}
	};
}
