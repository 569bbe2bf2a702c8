import { json } from '@sveltejs/kit';
import type { AuditEntries } from '$lib/api-schemas/account';
import { AuditListQuerySchema, queryObject } from '$lib/server/audit/query';
import { serverContext } from '$lib/server/platform/context';
import type { RequestHandler } from './$types';

/** The audit log, newest first, filtered by action prefix, actor, time range; paged by id. */
export const GET: RequestHandler = async ({ url }) => {
	// Every parameter is optional and lenient: one that cannot be read is no filter.
	const query = AuditListQuerySchema.parse(queryObject(url.searchParams));
	const entries = await serverContext().store.audit.list({
		action: query.action,
		actor: query.actor,
		since: query.since,
		until: query.until,
		limit: query.limit,
		beforeId: query.before
	});
	return json({ entries } satisfies AuditEntries);
};
