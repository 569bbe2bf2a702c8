import { json } from '@sveltejs/kit';
import { auditStreamStatus } from '$lib/server/audit/stream';
import { serverContext } from '$lib/server/platform/context';
import type { RequestHandler } from './$types';

/**
 * The audit stream's state, as the audit page shows it: configured or not, the receiver's host,
 * the entries waiting, the last delivery and the last error.
 */
export const GET: RequestHandler = async () => {
	const ctx = serverContext();
	return json({ stream: await auditStreamStatus(ctx.store, ctx.auditStream) });
};
