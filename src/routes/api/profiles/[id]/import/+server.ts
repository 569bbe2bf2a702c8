import { serverContext } from '$lib/server/platform/context';
import { clientIp, readJson, requireUser } from '$lib/server/http/body';
import { ImportXmlSchema, saveResponse, unreadable } from '$lib/server/profiles/api';
import { applyReviewed, reviewXmlImport } from '$lib/server/profiles/io';
import type { RequestHandler } from './$types';

/** Imports XML as a new revision on top of `baseRevision` (409 when stale). */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, ImportXmlSchema);
	if (!body.ok) return body.response;
	const ctx = serverContext();
	const { id } = event.params;
	const { baseRevision, xml, choices } = body.data;
	const reviewed = await reviewXmlImport(ctx, id, xml, choices, baseRevision);
	const acting = { user: requireUser(event), ip: clientIp(event) };
	const outcome = await applyReviewed(ctx, acting, id, baseRevision, reviewed, 'import');
	if (!outcome.ok && outcome.reason === 'invalid') {
		const tooLarge = outcome.issues.some((i) => i.code === 'document_invalid');
		const code = tooLarge ? 'not_storable' : reviewed.ok ? 'unresolved_conflicts' : 'invalid_xml';
		return unreadable(code, outcome.issues);
	}
	return saveResponse(outcome);
};
