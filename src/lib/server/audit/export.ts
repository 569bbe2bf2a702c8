import type { AuditEntry, AuditFilter, Store } from '../store/types';

/**
 * The audit log as a file: JSON Lines (one entry a line, as the API shows entries) or CSV (RFC
 * 4180: a header row, CRLF, fields quoted where they must be, UTF-8). Streamed oldest first, a
 * page of entries at a time, read only as the client takes the bytes: a million entries take
 * the memory of one page.
 */

export const EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Entries read from the database at a time. */
const PAGE = 1000;

/** The CSV's columns, in order. */
const COLUMNS = ['id', 'time', 'actor_id', 'actor', 'action', 'target', 'ip', 'details'] as const;

/**
 * One CSV field. A text a spreadsheet would run as a formula (it begins with `=`, `+`, `-`, `@`,
 * a tab or a carriage return) gets a leading `'`, which spreadsheets show as text; a field with
 * a comma, a quote or a line break is quoted, its quotes doubled.
 */
export function csvField(value: string): string {
	const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
	return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One entry as a CSV record (CRLF-terminated). */
export function csvRecord(entry: AuditEntry): string {
	const cells = [
		String(entry.id),
		new Date(entry.at).toISOString(),
		entry.actorId === null ? '' : String(entry.actorId),
		entry.actor ?? '',
		entry.action,
		entry.target ?? '',
		entry.ip ?? '',
		entry.details ? JSON.stringify(entry.details) : ''
	];
	return cells.map(csvField).join(',') + '\r\n';
}

/** One entry as a JSON Lines line, with its time also as ISO 8601. */
export function jsonLine(entry: AuditEntry): string {
	return JSON.stringify({ ...entry, time: new Date(entry.at).toISOString() }) + '\n';
}

/** The export as a stream of bytes; `filter`'s paging fields are the export's own. */
export function auditExport(
	store: Store,
	filter: Omit<AuditFilter, 'limit' | 'beforeId' | 'afterId' | 'oldestFirst'>,
	format: ExportFormat
): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	let afterId = 0;
	let started = false;
	return new ReadableStream<Uint8Array>(
		{
			async pull(controller) {
				const parts: string[] = [];
				if (!started && format === 'csv') parts.push(COLUMNS.join(',') + '\r\n');
				started = true;
				const page = await store.audit.list({ ...filter, afterId, oldestFirst: true, limit: PAGE });
				for (const entry of page) parts.push(format === 'csv' ? csvRecord(entry) : jsonLine(entry));
				if (parts.length) controller.enqueue(encoder.encode(parts.join('')));
				if (page.length < PAGE) controller.close();
				else afterId = page[page.length - 1].id;
			}
		},
		// One page at a time: the next is read only once the client has taken this one.
		{ highWaterMark: 1 }
	);
}
