import type { SignInFlowStore } from '../types';
import type { Queries } from './shared';

/** The single sign-ons under way (`sign_in_flows`). */
export function signInFlowStore({ db }: Queries): SignInFlowStore {
	return {
		signInFlows: {
			async begin(id, expiresAt, now) {
				await db.deleteFrom('sign_in_flows').where('expires_at', '<=', now).execute();
				await db.insertInto('sign_in_flows').values({ id, expires_at: expiresAt }).execute();
			},
			async finish(id, now) {
				// One statement: of two callbacks at once, on any instances, one deletes the row.
				const result = await db
					.deleteFrom('sign_in_flows')
					.where('id', '=', id)
					.where('expires_at', '>', now)
					.executeTakeFirst();
				return Number(result.numDeletedRows) === 1;
			}
		}
	};
}
