import { serverContext } from '$lib/server/platform/context';
import { clientIp, readJson, requireUser } from '$lib/server/http/body';
import { RestoreBackupSchema, saveResponse, unreadable } from '$lib/server/profiles/api';
import { applyReviewed, reviewBackupRestore } from '$lib/server/profiles/io';
import type { RequestHandler } from './$types';

/** Saves a backup's document as a new revision on top of `baseRevision` (409 when stale). */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, RestoreBackupSchema);
	if (!body.ok) return body.response;
	const ctx = serverContext();
	const { id } = event.params;
	const { baseRevision, backup } = body.data;
	const reviewed = await reviewBackupRestore(ctx, id, JSON.stringify(backup ?? null), baseRevision);
	const acting = { user: requireUser(event), ip: clientIp(event) };
	const outcome = await applyReviewed(ctx, acting, id, baseRevision, reviewed, 'backup');
	if (!outcome.ok && outcome.reason === 'invalid')
		return unreadable('invalid_backup', outcome.issues);
	return saveResponse(outcome);
};
