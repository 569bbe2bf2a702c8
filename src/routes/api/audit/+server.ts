import { json } from '@sveltejs/kit';
import { serverContext } from '$lib/server/platform/context';
import type { RequestHandler } from './$types';

function time(value: string | null): number | undefined {
	if (!value) return undefined;
	const at = Date.parse(value);
	return Number.isNaN(at) ? undefined : at;
}

/** The audit log, newest first, filtered by action prefix, actor, time range; paged by id. */
export const GET: RequestHandler = async ({ url }) => {
	const p = url.searchParams;
	const before = Number(p.get('before'));
	const entries = await serverContext().store.audit.list({
		action: p.get('action') || undefined,
		actor: p.get('actor') || undefined,
		since: time(p.get('since')),
		until: time(p.get('until')),
		limit: Math.min(Math.max(Math.trunc(Number(p.get('limit')) || 100), 1), 1000),
		beforeId: Number.isInteger(before) && before > 0 ? before : undefined
	});
	return json({ entries });
};
