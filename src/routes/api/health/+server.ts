import { json } from '@sveltejs/kit';
import { liveUpdatesStatus } from '$lib/server/platform/cluster';
import { serverContext } from '$lib/server/platform/context';
import { databaseLatency } from '$lib/server/platform/health';
import type { RequestHandler } from './$types';
import { logger } from '$lib/server/platform/logger';

/** How long the database may take to answer before the app counts it as gone. */
const DATABASE_TIMEOUT_MS = 2000;

/**
 * Health: the server answers, and so does its database. 200 when both do; 503 when the database
 * does not answer within two seconds (a load balancer takes the instance out of rotation, and
 * back once the database is back: every check asks it again). The database's own error is
 * logged, not shown: this endpoint needs no sign-in. On PostgreSQL it also says how live records
 * of other instances reach this one (`liveUpdates`): polling is no outage, so it stays 200.
 */
export const GET: RequestHandler = async () => {
	const { store } = serverContext();
	const live = liveUpdatesStatus();
	const liveUpdates = live ? { liveUpdates: live } : {};
	let latencyMs: number;
	try {
		latencyMs = await databaseLatency(store, DATABASE_TIMEOUT_MS);
	} catch (error) {
		logger().warn(
			{ backend: store.backend, reason: String(error) },
			`Health: the ${store.backend} database does not answer: ${String(error)}`
		);
		return json(
			{
				ok: false,
				database: {
					backend: store.backend,
					ok: false,
					message: 'The database does not answer.'
				},
				...liveUpdates
			},
			{ status: 503, headers: { 'Retry-After': '5' } }
		);
	}
	return json({
		ok: true,
		database: {
			backend: store.backend,
			ok: true,
			latencyMs
		},
		...liveUpdates
	});
};
