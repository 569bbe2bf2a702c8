import { readJson } from '$lib/server/http/body';
import { ExportXmlWithSecretsSchema } from '$lib/server/profiles/api';
import { xmlDownload } from '$lib/server/profiles/xml-download';
import type { RequestHandler } from './$types';

/**
 * The head revision as XML with the credentials of its kept XML (`<password>` of an imported
 * account document) in clear: admins only, recorded as `profile.exported_with_secrets`.
 */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, ExportXmlWithSecretsSchema);
	if (!body.ok) return body.response;
	return xmlDownload(event, body.data.form, true);
};
