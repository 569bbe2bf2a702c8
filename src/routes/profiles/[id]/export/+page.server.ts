import { XML_FORMS, xmlKeyNamed, type XmlForm } from '$lib/core/catalogue';
import { serverContext } from '$lib/server/platform/context';
import { exportProfileXml, profileSummary } from '$lib/server/profiles/io';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params, url, locals }) => {
	const ctx = serverContext();
	const summary = await profileSummary(ctx, params.id, locals.user);
	const requested = url.searchParams.get('form') ?? 'provisioning';
	const form: XmlForm = requested === 'account' ? 'account' : 'provisioning';
	// Shown, not downloaded: the download goes through the API, which records the export.
	const { exported } = (await exportProfileXml(ctx, null, params.id, form))!;
	return {
		...summary,
		form,
		forms: Object.values(XML_FORMS).map(({ form, label }) => ({ form, label })),
		xml: exported.ok ? exported.value : null,
		issues: exported.issues.map((issue) => ({
			...issue,
			service: issue.field ? (xmlKeyNamed(issue.field)?.service.id ?? null) : null
		}))
	};
};
