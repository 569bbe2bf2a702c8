import { z } from 'zod';
import { XML_FORMS, type XmlForm } from '$lib/core/catalogue';
import { readJson } from '$lib/server/http/body';
import { xmlDownload } from '$lib/server/profiles/xml-download';
import type { RequestHandler } from './$types';

const ExportSchema = z.object({
	form: z
		.string()
		.default('provisioning')
		.refine((form) => Object.hasOwn(XML_FORMS, form), {
			message: 'Choose "provisioning" or "account".'
		}),
	confirm: z.literal(true, { message: 'Send { "confirm": true } to include secret values.' })
});

/**
 * The head revision as XML with the credentials of its kept XML (`<password>` of an imported
 * account document) in clear: admins only, recorded as `profile.exported_with_secrets`.
 */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, ExportSchema);
	if (!body.ok) return body.response;
	return xmlDownload(event, body.data.form as XmlForm, true);
};
