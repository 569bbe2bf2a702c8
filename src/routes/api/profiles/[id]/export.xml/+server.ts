import { XML_FORMS, type XmlForm } from '$lib/core/catalogue';
import { apiError } from '$lib/server/http/body';
import { xmlDownload } from '$lib/server/profiles/xml-download';
import type { RequestHandler } from './$types';

/** The head revision as XML: `?form=provisioning` (the default) or `?form=account`. */
export const GET: RequestHandler = async (event) => {
	const form = event.url.searchParams.get('form') ?? 'provisioning';
	if (!Object.hasOwn(XML_FORMS, form)) {
		return apiError(400, 'invalid_input', 'Choose ?form=provisioning or ?form=account.');
	}
	return xmlDownload(event, form as XmlForm, false);
};
