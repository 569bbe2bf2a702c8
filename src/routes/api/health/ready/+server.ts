import { json } from '@sveltejs/kit';
import { serverContext } from '$lib/server/platform/context';
import { databaseLatency } from '$lib/server/platform/health';
import { isDraining } from '$lib/server/platform/lifecycle';
import type { RequestHandler } from './$types';
import { logger } from '$lib/server/platform/logger';

/** How long the database may take to answer (and be migrated) before the instance is not ready. */
const READY_TIMEOUT_MS = 1000;

/**
 * Readiness: whether this instance should get traffic. 200 when the database answers within a
 * second and its migrations are applied; 503 during a database outage, and from the moment a
 * stop begins (SIGTERM), so a load balancer sends nothing new to an instance that is finishing
 * its requests. `/api/health` stays as it was; this one answers in a second at most.
 */
export const GET: RequestHandler = async () => {
	if (isDraining()) {
		return json(
			{ ok: false, reason: 'stopping', message: 'The instance is stopping.' },
			{ status: 503, headers: { 'Retry-After': '5' } }
		);
	}
	const { store } = serverContext();
	let latencyMs: number;
	try {
		// Migrated (`ready`) and answering now (`ping`), within the second.
		latencyMs = await databaseLatency(store, READY_TIMEOUT_MS, { migrated: true });
	} catch (error) {
		logger().warn(
			{ backend: store.backend, reason: String(error) },
			'Readiness: the database is not ready.'
		);
		return json(
			{
				ok: false,
				reason: 'database',
				message: 'The database does not answer, or its migrations are not applied.',
				database: { backend: store.backend, ok: false }
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
		}
	});
};
