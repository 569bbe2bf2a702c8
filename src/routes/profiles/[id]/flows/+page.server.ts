import { error } from '@sveltejs/kit';
import { FLOW_NAMES, FLOWS } from '$lib/core/catalogue/flows';
import { flowFields } from '$lib/core/flows/inputs';
import { serverContext } from '$lib/server/platform/context';
import { flowRunOf, listFlowRuns, valuesOf, type FlowRunView } from '$lib/server/flows';
import { profileSummary } from '$lib/server/profiles/io';
import { headDocument } from '$lib/server/profiles';
import { listSandboxes } from '$lib/server/push/sandboxes';
import type { PageServerLoad } from './$types';

/** The flows of a profile: each flow's form, the sandboxes app start can use, the past runs. */
export const load: PageServerLoad = async ({ params, locals, url }) => {
	const ctx = serverContext();
	const summary = await profileSummary(ctx, params.id, locals.user);
	const document = await headDocument(ctx, params.id);
	if (!document) error(404, 'There is no such profile.');
	const known = valuesOf(document, {});
	const flows = FLOW_NAMES.map((name) => ({
		name,
		title: FLOWS[name].title,
		purpose: FLOWS[name].purpose,
		fields: flowFields(name, document.services, known)
	}));
	const sandboxes = (await listSandboxes(ctx, url.origin)).map((s) => ({ id: s.id, name: s.name }));
	const runs = await listFlowRuns(ctx, params.id);
	const runParam = url.searchParams.get('run');
	let opened: (Omit<FlowRunView, 'id'> & { id: number; at: number; by: string | null }) | null =
		null;
	if (runParam !== null) {
		const id = Number(runParam);
		const run = Number.isSafeInteger(id) ? await flowRunOf(ctx, params.id, id) : undefined;
		if (!run) error(404, 'There is no such run of a flow on this profile.');
		const record = run.record as Pick<FlowRunView, 'steps' | 'result'>;
		opened = {
			id: run.id,
			flow: run.flow as FlowRunView['flow'],
			ok: run.ok,
			at: run.at,
			by: run.by,
			draft: run.draft,
			steps: record.steps,
			result: record.result
		};
	}
	return { ...summary, flows, sandboxes, runs, opened };
};
