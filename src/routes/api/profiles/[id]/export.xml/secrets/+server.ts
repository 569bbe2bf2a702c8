import { z } from 'zod';
import { XML_FORMS, type XmlForm } from '$lib/core/catalogue';
import { serverContext } from '$lib/server/context';
import { apiError, clientIp, downloadHeaders, readJson, requireUser } from '$lib/server/http';
import { exportProfileXml } from '$lib/server/profile-io';
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
	const form = body.data.form as XmlForm;
	const acting = { user: requireUser(event), ip: clientIp(event) };
	const result = await exportProfileXml(serverContext(), acting, event.params.id, form, true);
	if (!result) return apiError(404, 'not_found', 'No such profile.');
	if (!result.exported.ok) {
		return apiError(
			422,
			'not_exportable',
			'The profile cannot be written as XML: fix the settings listed in issues.',
			{ issues: result.exported.issues }
		);
	}
	return new Response(result.exported.value, {
		headers: downloadHeaders(
			result.profile.name,
			form === 'account' ? '-account-with-secrets.xml' : '-provisioning-with-secrets.xml',
			'application/xml; charset=utf-8'
		)
	});
};
