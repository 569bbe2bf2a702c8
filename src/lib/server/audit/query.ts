import { z } from 'zod';
import type { ApiIssue } from '../http/body';
import { EXPORT_FORMATS } from './export';

/**
 * The queries of the audit log's list and export: their filters (`action` prefix, `actor`,
 * `since`, `until`), the list's paging and the export's format. The handlers read their queries
 * with these schemas, and the API's document describes the parameters from them.
 */

/** A query's parameters as an object: the first value of each, as `URLSearchParams.get` reads. */
export function queryObject(params: URLSearchParams): Record<string, string> {
	const first = new Map<string, string>();
	for (const [name, value] of params) if (!first.has(name)) first.set(name, value);
	return Object.fromEntries(first);
}

/** What is wrong with a query, as a 400 lists it (each message names its parameter). */
export function queryIssues(error: z.ZodError): ApiIssue[] {
	return error.issues.map((i) => ({
		code: i.code,
		path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
		message: i.message
	}));
}

const TIMES = 'Any date or time `Date.parse` reads, e.g. `2026-11-01` or `2026-11-01T09:30:00Z`';

/** A filter's text; empty is no filter. */
const text = (description: string) =>
	z
		.string()
		.optional()
		.transform((value) => value || undefined)
		.meta({ description });

const action = text('Only actions that begin with this, e.g. `profile.` or `login.failure`.');
const actor = text('Only entries of this actor (the e-mail address the entry names).');

/** A time of the list's filters: empty, or what is not a time, is no filter. */
const listTime = (description: string) =>
	z
		.string()
		.optional()
		.transform((value) => {
			const at = value ? Date.parse(value) : NaN;
			return Number.isNaN(at) ? undefined : at;
		})
		.meta({ description: `${description}. ${TIMES}; what is not a time is no filter.` });

/** `GET /api/audit`: every parameter is optional, and one that cannot be read is left out. */
export const AuditListQuerySchema = z.object({
	action,
	actor,
	since: listTime('Entries at or after this time'),
	until: listTime('Entries before this time'),
	limit: z
		.string()
		.optional()
		.transform((value) => Math.min(Math.max(Math.trunc(Number(value ?? '')) || 100, 1), 1000))
		.meta({ description: 'How many entries: 1 to 1000, 100 when not given.', example: '100' }),
	before: z
		.string()
		.optional()
		.transform((value) => {
			const id = Number(value ?? '');
			return Number.isInteger(id) && id > 0 ? id : undefined;
		})
		.meta({
			description: 'Only entries with a smaller id: the last id of a page asks for the next.',
			example: '812'
		})
});

/** A time of the export's filters: empty is no filter, what is not a time is refused. */
const exportTime = (name: 'since' | 'until', description: string) =>
	z
		.string()
		.optional()
		.transform((value, ctx) => {
			if (!value) return undefined;
			const at = Date.parse(value);
			if (!Number.isNaN(at)) return at;
			ctx.addIssue({
				code: 'invalid_value',
				values: [],
				input: value,
				message: `${name} is not a date or time: use e.g. 2026-11-01 or 2026-11-01T09:30:00Z.`
			});
			return z.NEVER;
		})
		.meta({ description: `${description}. ${TIMES}.` });

/** `GET /api/audit/export`: a wrong `format`, `since` or `until` is refused, naming it. */
export const AuditExportQuerySchema = z.object({
	format: z
		.enum(EXPORT_FORMATS, {
			error: (issue) => `format is jsonl or csv, not "${String(issue.input)}".`
		})
		.default('jsonl')
		.meta({ description: 'JSON Lines (`jsonl`) or CSV (`csv`).' }),
	action,
	actor,
	since: exportTime('since', 'Entries at or after this time'),
	until: exportTime('until', 'Entries before this time')
});
