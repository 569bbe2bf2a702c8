import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, downloadHeaders, requireUser } from '$lib/server/http/body';
import { backupProfile } from '$lib/server/profiles/io';
import type { RequestHandler } from './$types';

/** A backup of the head revision as JSON, secret values left out. */
export const GET: RequestHandler = async (event) => {
	const acting = { user: requireUser(event), ip: clientIp(event) };
	const backup = await backupProfile(serverContext(), acting, event.params.id, false);
	if (!backup) return apiError(404, 'not_found', 'No such profile.');
	return new Response(JSON.stringify(backup, null, 2), {
		headers: downloadHeaders(backup.profile.name, '-backup.json', 'application/json')
	});
};
