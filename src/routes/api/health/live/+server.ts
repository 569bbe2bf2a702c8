import { json } from '@sveltejs/kit';
import { eventLoopDelay } from '$lib/server/platform/lifecycle';
import type { RequestHandler } from './$types';

/**
 * Liveness: the process answers, and its event loop is not stuck. Never asks the database: an
 * orchestrator restarting an instance because its database is down would restart every healthy
 * instance at once. A loop that was blocked for longer than `STUCK_MS` within the last minute
 * answers 503 (a loop stuck for good answers nothing, which the probe's timeout catches).
 */
export const GET: RequestHandler = () => {
	const delay = eventLoopDelay();
	return json(
		{ ok: !delay.stuck, uptimeSeconds: Math.round(process.uptime()), eventLoop: delay },
		{ status: delay.stuck ? 503 : 200 }
	);
};
