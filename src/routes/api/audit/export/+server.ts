import { recordAudit } from '$lib/server/audit';
import { auditExport, type ExportFormat } from '$lib/server/audit/export';
import { AuditExportQuerySchema, queryIssues, queryObject } from '$lib/server/audit/query';
import { serverContext } from '$lib/server/platform/context';
import { badRequest, clientIp, requireUser } from '$lib/server/http/body';
import type { RequestHandler } from './$types';

const TYPES: Record<ExportFormat, string> = {
	jsonl: 'application/jsonl; charset=utf-8',
	csv: 'text/csv; charset=utf-8; header=present'
};

/**
 * The audit log as a file (admins): `?format=jsonl|csv` with the audit list's filters (`action`
 * prefix, `actor`, `since`, `until`), oldest first, streamed. The export itself is audited.
 */
export const GET: RequestHandler = async (event) => {
	const query = AuditExportQuerySchema.safeParse(queryObject(event.url.searchParams));
	if (!query.success) return badRequest(queryIssues(query.error));
	const { format, since, until } = query.data;
	const filter = { action: query.data.action, actor: query.data.actor, since, until };
	const ctx = serverContext();
	const user = requireUser(event);
	const actor = { id: user.id, email: user.email, ip: clientIp(event) };
	await recordAudit(ctx.store, actor, 'audit.exported', null, {
		format,
		action: filter.action ?? null,
		actor: filter.actor ?? null,
		since: since ? new Date(since).toISOString() : null,
		until: until ? new Date(until).toISOString() : null
	});
	const day = new Date().toISOString().slice(0, 10);
	return new Response(auditExport(ctx.store, filter, format), {
		headers: {
			'content-type': TYPES[format],
			'content-disposition': `attachment; filename="audit-${day}.${format}"`,
			'cache-control': 'no-store'
		}
	});
};
