import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, downloadHeaders, readJson, requireUser } from '$lib/server/http/body';
import { BackupWithSecretsSchema } from '$lib/server/profiles/api';
import { backupProfile } from '$lib/server/profiles/io';
import type { RequestHandler } from './$types';

/** A backup with the secret values themselves (admins only; recorded in the audit log). */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, BackupWithSecretsSchema);
	if (!body.ok) return body.response;
	const acting = { user: requireUser(event), ip: clientIp(event) };
	const backup = await backupProfile(serverContext(), acting, event.params.id, true);
	if (!backup) return apiError(404, 'not_found', 'No such profile.');
	return new Response(JSON.stringify(backup, null, 2), {
		headers: downloadHeaders(backup.profile.name, '-backup-with-secrets.json', 'application/json')
	});
};
