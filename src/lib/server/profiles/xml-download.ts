import type { RequestEvent } from '@sveltejs/kit';
import type { XmlForm } from '$lib/core/catalogue';
import { serverContext } from '../platform/context';
import { apiError, clientIp, downloadHeaders, requireUser } from '../http/body';
import { exportProfileXml } from './io';

/**
 * A profile's head revision as an XML download in `form`; with `withSecrets`, the credentials of
 * its kept XML in clear (the route decides who may ask). 404 for no such profile, 422 with the
 * issues when the profile cannot be written as XML.
 */
export async function xmlDownload(
	event: RequestEvent<{ id: string }>,
	form: XmlForm,
	withSecrets: boolean
): Promise<Response> {
	const acting = { user: requireUser(event), ip: clientIp(event) };
	const ctx = serverContext();
	const result = await exportProfileXml(ctx, acting, event.params.id, form, withSecrets);
	if (!result) return apiError(404, 'not_found', 'No such profile.');
	if (!result.exported.ok) {
		return apiError(
			422,
			'not_exportable',
			'The profile cannot be written as XML: fix the settings listed in issues.',
			{ issues: result.exported.issues }
		);
	}
	const suffix = `-${form}${withSecrets ? '-with-secrets' : ''}.xml`;
	return new Response(result.exported.value, {
		headers: downloadHeaders(result.profile.name, suffix, 'application/xml; charset=utf-8')
	});
}
