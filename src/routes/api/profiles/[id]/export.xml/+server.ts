import { XML_FORMS, type XmlForm } from '$lib/core/catalogue';
import { serverContext } from '$lib/server/context';
import { apiError, clientIp, downloadHeaders, requireUser } from '$lib/server/http';
import { exportProfileXml } from '$lib/server/profile-io';
import type { RequestHandler } from './$types';

/** The head revision as XML: `?form=provisioning` (the default) or `?form=account`. */
export const GET: RequestHandler = async (event) => {
	const form = event.url.searchParams.get('form') ?? 'provisioning';
	if (!Object.hasOwn(XML_FORMS, form)) {
		return apiError(400, 'invalid_input', 'Choose ?form=provisioning or ?form=account.');
	}
	const acting = { user: requireUser(event), ip: clientIp(event) };
	const result = await exportProfileXml(serverContext(), acting, event.params.id, form as XmlForm);
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
			form === 'account' ? '-account.xml' : '-provisioning.xml',
			'application/xml; charset=utf-8'
		)
	});
};
