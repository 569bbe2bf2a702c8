import { recordAudit } from '$lib/server/audit';
import { auditExport, EXPORT_FORMATS, type ExportFormat } from '$lib/server/audit/export';
import { serverContext } from '$lib/server/platform/context';
import { badRequest, clientIp, requireUser } from '$lib/server/http/body';
import type { RequestHandler } from './$types';

/** A filter's time, or `undefined` when not given; null when given and not a time. */
function time(value: string | null): number | null | undefined {
	if (!value) return undefined;
	const at = Date.parse(value);
	return Number.isNaN(at) ? null : at;
}

const TYPES: Record<ExportFormat, string> = {
	jsonl: 'application/jsonl; charset=utf-8',
	csv: 'text/csv; charset=utf-8; header=present'
};

/**
 * The audit log as a file (admins): `?format=jsonl|csv` with the audit list's filters (`action`
 * prefix, `actor`, `since`, `until`), oldest first, streamed. The export itself is audited.
 */
export const GET: RequestHandler = async (event) => {
	const p = event.url.searchParams;
	const format = p.get('format') ?? 'jsonl';
	if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
		return badRequest([
			{
				code: 'invalid_value',
				path: ['format'],
				message: `format is jsonl or csv, not "${format}".`
			}
		]);
	}
	const since = time(p.get('since'));
	const until = time(p.get('until'));
	for (const [name, value] of [
		['since', since],
		['until', until]
	] as const) {
		if (value === null) {
			return badRequest([
				{
					code: 'invalid_value',
					path: [name],
					message: `${name} is not a date or time: use e.g. 2026-11-01 or 2026-11-01T09:30:00Z.`
				}
			]);
		}
	}
	const filter = {
		action: p.get('action') || undefined,
		actor: p.get('actor') || undefined,
		since: since ?? undefined,
		until: until ?? undefined
	};
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
	return new Response(auditExport(ctx.store, filter, format as ExportFormat), {
		headers: {
			'content-type': TYPES[format as ExportFormat],
			'content-disposition': `attachment; filename="audit-${day}.${format}"`,
			'cache-control': 'no-store'
		}
	});
};
