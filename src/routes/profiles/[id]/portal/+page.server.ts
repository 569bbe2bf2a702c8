import { serverContext } from '$lib/server/platform/context';
import { profilePortalSheet, profileSummary } from '$lib/server/profiles/io';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params, locals }) => {
	const ctx = serverContext();
	const summary = await profileSummary(ctx, params.id, locals.user);
	const sheet = (await profilePortalSheet(ctx, params.id))!;
	const steps = [...new Set(sheet.fields.map((f) => f.step))];
	return {
		...summary,
		steps: steps.map((step) => ({ step, fields: sheet.fields.filter((f) => f.step === step) }))
	};
};
