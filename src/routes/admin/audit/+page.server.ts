import { auditStreamStatus } from '$lib/server/audit/stream';
import { serverContext } from '$lib/server/platform/context';
import type { PageServerLoad } from './$types';

/** Entries per page. */
const PAGE_SIZE = 50;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The start of a day (`YYYY-MM-DD`) as milliseconds, in the browser's time zone when the page
 * sent its offset (`tz`, minutes as `Date#getTimezoneOffset` gives them), else in UTC.
 */
function dayStart(value: string, tzOffset: number): number | null {
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
	if (!match) return null;
	const at = Date.UTC(+match[1], +match[2] - 1, +match[3]);
	const date = new Date(at);
	if (Number.isNaN(at) || date.getUTCDate() !== +match[3]) return null;
	return at + tzOffset * 60_000;
}

/** Details as `key=value` text, leaving out empty values. */
function detailsText(details: Record<string, unknown> | null): string {
	if (!details) return '';
	return Object.entries(details)
		.filter(([, value]) => value !== null && value !== undefined)
		.map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
		.join(' ');
}

export const load: PageServerLoad = async ({ url }) => {
	const p = url.searchParams;
	const filters = {
		action: (p.get('action') ?? '').trim(),
		actor: (p.get('actor') ?? '').trim(),
		since: p.get('since') ?? '',
		until: p.get('until') ?? '',
		tz: p.get('tz') ?? ''
	};
	const tz = Number(filters.tz);
	const offset = Number.isInteger(tz) && Math.abs(tz) <= 14 * 60 ? tz : 0;
	const errors: Record<string, string> = {};
	const since = filters.since ? dayStart(filters.since, offset) : undefined;
	const untilStart = filters.until ? dayStart(filters.until, offset) : undefined;
	if (since === null) errors.since = 'Enter a date as YYYY-MM-DD.';
	if (untilStart === null) errors.until = 'Enter a date as YYYY-MM-DD.';
	if (since && untilStart && untilStart < since) errors.until = 'The end is before the start.';

	const before = Number(p.get('before'));
	const beforeId = Number.isInteger(before) && before > 0 ? before : undefined;
	const ctx = serverContext();
	const rows = Object.keys(errors).length
		? []
		: await ctx.store.audit.list({
				action: filters.action || undefined,
				actor: filters.actor || undefined,
				since: since ?? undefined,
				until: untilStart ? untilStart + DAY_MS : undefined,
				beforeId,
				limit: PAGE_SIZE + 1
			});

	// Profile targets are ids: show the profile's name beside them.
	const profiles = [
		...(await ctx.store.profiles.list({ deleted: false })),
		...(await ctx.store.profiles.list({ deleted: true }))
	];
	const names = new Map(profiles.map((profile) => [profile.id, profile.name]));

	const entries = rows.slice(0, PAGE_SIZE).map((entry) => ({
		id: entry.id,
		at: entry.at,
		actor: entry.actor,
		action: entry.action,
		target: entry.target,
		profile:
			entry.action.startsWith('profile.') && entry.target && names.has(entry.target)
				? { id: entry.target, name: names.get(entry.target)! }
				: null,
		ip: entry.ip,
		details: detailsText(entry.details)
	}));

	// Paging keeps the filters: the query strings of the newest and the next older page.
	const query = new URLSearchParams();
	for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
	const newest = beforeId !== undefined ? query.toString() : null;
	let older: string | null = null;
	if (rows.length > PAGE_SIZE) {
		query.set('before', String(entries[entries.length - 1].id));
		older = query.toString();
	}
	// The export takes the same filters, the days turned into the times they start and end.
	const exportQuery = new URLSearchParams();
	if (filters.action) exportQuery.set('action', filters.action);
	if (filters.actor) exportQuery.set('actor', filters.actor);
	if (since) exportQuery.set('since', new Date(since).toISOString());
	if (untilStart) exportQuery.set('until', new Date(untilStart + DAY_MS).toISOString());
	const exports = Object.keys(errors).length
		? null
		: [...exportQuery].map(([k, v]) => `&${k}=${encodeURIComponent(v)}`).join('');
	const stream = await auditStreamStatus(ctx.store, ctx.auditStream);
	return { filters, errors, entries, newest, older, exports, stream };
};
