import { portalSheetMarkdown } from '$lib/core/xml';
import { serverContext } from '$lib/server/platform/context';
import { apiError, downloadHeaders } from '$lib/server/http/body';
import { profilePortalSheet } from '$lib/server/profiles/io';
import type { RequestHandler } from './$types';

/** The portal field sheet of the head revision, as Markdown. */
export const GET: RequestHandler = async ({ params }) => {
	const sheet = await profilePortalSheet(serverContext(), params.id);
	if (!sheet) return apiError(404, 'not_found', 'No such profile.');
	const { profile, fields } = sheet;
	return new Response(portalSheetMarkdown(profile.name, profile.revision, fields), {
		headers: downloadHeaders(profile.name, '-portal-fields.md', 'text/markdown; charset=utf-8')
	});
};
