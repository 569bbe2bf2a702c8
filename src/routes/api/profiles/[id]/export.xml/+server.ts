import { apiError } from '$lib/server/http/body';
import { ExportXmlQuerySchema } from '$lib/server/profiles/api';
import { xmlDownload } from '$lib/server/profiles/xml-download';
import type { RequestHandler } from './$types';

/** The head revision as XML: `?form=provisioning` (the default) or `?form=account`. */
export const GET: RequestHandler = async (event) => {
	const query = ExportXmlQuerySchema.safeParse({
		form: event.url.searchParams.get('form') ?? undefined
	});
	if (!query.success) {
		return apiError(400, 'invalid_input', 'Choose ?form=provisioning or ?form=account.');
	}
	return xmlDownload(event, query.data.form, false);
};
