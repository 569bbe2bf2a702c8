import { SERVICES, sampleValues } from '$lib/core/catalogue';
import { runTitle } from '$lib/core/catalogue/flows';
import type { Source } from '$lib/core/catalogue/schema';
import { sourceOf } from '$lib/core/catalogue/sources';
import type { Decision } from '$lib/core/flows/model';
import { checkPushSettings, hasPushSettings, type ProfileDocument } from '$lib/core/profile';
import { buildRequests, countIssues, worstOf, type Values } from '$lib/core/request';
import { declaredAccountKeys } from '$lib/core/xml';
import type { ServerContext } from '../platform/context';
import { listFlowRuns, type FlowRunSummary } from '../flows';
import { getProfile } from './';
import { listSandboxes } from '../push/sandboxes';
import type { HistorySummary } from '../test-calls/history';

/**
 * A profile at a glance: every template service of the contract with its state (not set, or
 * its problems as the editor counts them), its last test call and its last step in a flow run,
 * the push settings' state and the last flow run. Read from what the server keeps (the head
 * revision, the newest test call of each service, the kept flow runs): nothing is sent.
 */

/** The state of a service or of the push settings, as the editor's list of services says it. */
export interface SettingsState {
	state: 'unset' | 'ok' | 'warning' | 'error';
	errors: number;
	warnings: number;
}

/** The newest test call of a service, whoever made it. */
export interface LastCall {
	at: number;
	by: string | null;
	/** Every request the caller sent was answered as a success. */
	ok: boolean;
	/** "Succeeded (200)", "Failed (500)", "No answer (connect_refused)". */
	verdict: string;
}

/** The newest flow run with a step of a service, and how that step ended. */
export interface LastFlowStep {
	at: number;
	flow: string;
	title: string;
	status: Decision['status'];
}

/** One template service of a profile at a glance. */
export interface ServiceGlance extends SettingsState {
	id: string;
	title: string;
	/** Where the service comes from: the contract, or (beyond it) the docs or providers. */
	source: Source;
	lastCall: LastCall | null;
	lastFlow: LastFlowStep | null;
}

/** The whole profile at a glance. */
export interface ProfileGlance {
	services: ServiceGlance[];
	push: SettingsState;
	lastRun: { at: number; flow: string; title: string; ok: boolean; by: string | null } | null;
}

/** A test call as the glance reads it: the history's summary and who made it. */
export type CallSeen = Pick<HistorySummary, 'at' | 'service' | 'outcomes'> & { by: string | null };

const TEMPLATE_SERVICES = SERVICES.filter((s) => s.kind === 'template');

/**
 * A service's state, built as its editor's preview is when the profile opens: the first
 * scenario's values over the catalogue's samples, the profile's account keys and switch.
 */
export function serviceState(document: ProfileDocument, serviceId: string): SettingsState {
	const service = TEMPLATE_SERVICES.find((s) => s.id === serviceId);
	const settings = (document.services as Record<string, Record<string, string>>)[serviceId] ?? {};
	if (!service || Object.keys(settings).length === 0) {
		return { state: 'unset', errors: 0, warnings: 0 };
	}
	const accountKeys = declaredAccountKeys(document.preservedXml);
	const values = {
		...(sampleValues(service, accountKeys) as Values),
		...((document.scenarios[0]?.values ?? {}) as Values)
	};
	const built = buildRequests({
		service,
		settings,
		values,
		rawSubstitution: document.rawSubstitution,
		accountKeys
	});
	const counts = countIssues(built.issues);
	return { state: worstOf(counts), ...counts };
}

/** What a test call's answer was, in words. */
export function verdictOf(outcomes: CallSeen['outcomes']): Pick<LastCall, 'ok' | 'verdict'> {
	const failed = outcomes.find((o) => o.error);
	if (failed) return { ok: false, verdict: `No answer (${failed.error})` };
	const sent = outcomes.filter((o) => o.status !== undefined);
	if (sent.length === 0) return { ok: false, verdict: 'Nothing sent' };
	const statuses = sent.map((o) => o.status).join(', ');
	const ok = outcomes.length > 0 && outcomes.every((o) => o.success);
	return { ok, verdict: `${ok ? 'Succeeded' : 'Failed'} (${statuses})` };
}

/** The push settings' state: not set, or the problems their form shows. */
export function pushState(
	push: ProfileDocument['push'],
	gateways?: Parameters<typeof checkPushSettings>[1]
): SettingsState {
	if (!hasPushSettings(push)) return { state: 'unset', errors: 0, warnings: 0 };
	const counts = countIssues(checkPushSettings(push, gateways));
	return { state: worstOf(counts), ...counts };
}

/** What a revision says of its services and push settings; a revision never changes. */
export interface RevisionStates {
	services: Record<string, SettingsState>;
	push: ProfileDocument['push'];
}

/** The states of every template service of a document. */
export function statesOf(document: ProfileDocument): RevisionStates {
	const services = Object.fromEntries(
		TEMPLATE_SERVICES.map((s) => [s.id, serviceState(document, s.id)])
	);
	return { services, push: document.push };
}

/** As {@link statesOf}, letting other requests in between services (a megabyte body takes a while). */
async function statesBetweenRequests(document: ProfileDocument): Promise<RevisionStates> {
	const services: Record<string, SettingsState> = {};
	for (const service of TEMPLATE_SERVICES) {
		await new Promise((resolve) => setImmediate(resolve));
		services[service.id] = serviceState(document, service.id);
	}
	return { services, push: document.push };
}

/** The glance of a revision's states, given the newest calls of its services and its flow runs (newest first). */
export function glanceOf(
	states: RevisionStates,
	calls: readonly CallSeen[],
	runs: readonly FlowRunSummary[],
	push: SettingsState = pushState(states.push)
): ProfileGlance {
	const services = TEMPLATE_SERVICES.map((service) => {
		const call = calls.find((c) => c.service === service.id);
		const run = runs.find((r) => r.steps.some((s) => s.service === service.id));
		// A flow may call a service more than once (a retry): its last step says how it ended.
		const step = run?.steps.findLast((s) => s.service === service.id);
		return {
			id: service.id,
			title: service.title,
			source: sourceOf(service),
			...(states.services[service.id] ?? { state: 'unset' as const, errors: 0, warnings: 0 }),
			lastCall: call ? { at: call.at, by: call.by, ...verdictOf(call.outcomes) } : null,
			lastFlow:
				run && step
					? { at: run.at, flow: run.flow, title: runTitle(run.flow), status: step.status }
					: null
		};
	});
	const last = runs[0];
	const lastRun = last
		? { at: last.at, flow: last.flow, title: runTitle(last.flow), ok: last.ok, by: last.by }
		: null;
	return { services, push, lastRun };
}

/** Revisions whose states are kept, per server: the most recently shown. */
const KEPT_REVISIONS = 500;
const keptStates = new WeakMap<ServerContext, Map<string, Promise<RevisionStates | undefined>>>();

/**
 * A revision's states, built once per server and kept: a revision never changes, so the page
 * reads and builds a document only when it shows a revision for the first time. Loads of the
 * same revision at once share one build.
 */
export function revisionStates(
	ctx: ServerContext,
	id: string,
	revision: number
): Promise<RevisionStates | undefined> {
	let kept = keptStates.get(ctx);
	if (!kept) keptStates.set(ctx, (kept = new Map()));
	const key = `${id}@${revision}`;
	const found = kept.get(key);
	if (found) {
		// Most recently shown last, so the oldest goes first.
		kept.delete(key);
		kept.set(key, found);
		return found;
	}
	const built = getProfile(ctx, id, revision).then((profile) =>
		profile ? statesBetweenRequests(profile.document) : undefined
	);
	kept.set(key, built);
	built.then(
		(states) => {
			if (!states) kept.delete(key);
		},
		() => kept.delete(key)
	);
	if (kept.size > KEPT_REVISIONS) kept.delete(kept.keys().next().value!);
	return built;
}

/**
 * A profile's revision at a glance, or undefined when there is no such revision. A bounded
 * number of reads whatever the number of services: the revision's states (read and built once,
 * see {@link revisionStates}), the newest call of each service (one query), the kept flow runs,
 * and the team's sandboxes only when a gateway URL is set.
 */
export async function profileGlance(
	ctx: ServerContext,
	id: string,
	revision: number,
	origin: string
): Promise<ProfileGlance | undefined> {
	const [states, rows, runs] = await Promise.all([
		revisionStates(ctx, id, revision),
		ctx.store.testCalls.latestOfProfile(id),
		listFlowRuns(ctx, id)
	]);
	if (!states) return undefined;
	const calls = rows.map((row) => ({
		at: row.at,
		service: row.service,
		by: row.userName || row.userEmail,
		outcomes: (JSON.parse(row.summary) as Pick<HistorySummary, 'outcomes'>).outcomes ?? []
	}));
	let gateways;
	if (states.push.gatewayUrl !== '') {
		const sandboxes = await listSandboxes(ctx, origin);
		gateways = { sandboxes, origin };
	}
	return glanceOf(states, calls, runs, pushState(states.push, gateways));
}
