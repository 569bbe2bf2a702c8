import { z } from 'zod';
import {
	FLOW_NAMES,
	FLOWS,
	type ContractRow,
	type FlowName,
	type RunFlowName
} from '$lib/core/catalogue/flows';
import {
	APP_START_PUSHES,
	appStartPushOf,
	missingInputs,
	runAppStart,
	runFlow,
	unsetPlaceholders,
	type SendPush,
	type CoreFlowName,
	type Decision,
	type FlowRun,
	type FlowStep,
	type SendStep,
	type StepOutcome
} from '$lib/core/flows';
import {
	isSecretKey,
	ProfileDocumentSchema,
	ScenarioValueSchema,
	SECRET_MASK,
	type ProfileDocument
} from '$lib/core/profile';
import type { ObservedPush } from '$lib/core/phones';
import type { PushHttpRequest } from '$lib/core/push';
import { maskSecretsIn, secretForms, type Values } from '$lib/core/request';
import { ownAccountValues } from '$lib/core/flows/inputs';
import { readAccountTags } from '$lib/core/response';
import type { Interpretation } from '$lib/core/response';
import { declaredAccountKeys } from '$lib/core/xml/account';
import type { Actor } from '../audit';
import type { ServerContext } from '../platform/context';
import type { PreviewRequest } from '../profiles/preview';
import { headDocument } from '../profiles';
import { PushSendError, sendComposedPush, type PushSendAnswer } from '../push/send';
import {
	acquireSlot,
	CallInputError,
	sendBuild,
	type CallResult,
	type ResponseEnvelope
} from '../test-calls';

/**
 * Running a flow: the core decides each step, and each step's request goes out through the test
 * call's path (the same builder, secret masking, outbound policy, time limits and sinks). Runs
 * are kept per profile: who ran which flow, when, and every step as answered.
 */

/** Runs kept per profile, its drafts' included (and for other unsaved documents together). */
export const FLOW_RUNS_KEEP = 100;

/** What a run runs over: a saved profile, or an unsaved document (a draft of one, maybe). */
export const RUN_DOCUMENT_FIELDS = {
	profileId: z.string().uuid().optional(),
	document: ProfileDocumentSchema.optional(),
	/**
	 * With `document`: the saved profile the document is an unsaved draft of (and the revision
	 * the draft started from). The run is kept and listed with that profile, marked as a draft.
	 */
	draftOf: z
		.object({
			profileId: z.string().uuid(),
			baseRevision: z.number().int().min(1).optional()
		})
		.optional()
		.meta({
			description:
				'Only with `document`: keeps the run with that saved profile, marked as a draft (`404` without such a profile).'
		})
};

type RunDocument = { profileId?: string; document?: unknown; draftOf?: unknown };

/** A run's input schema with the rules of {@link RUN_DOCUMENT_FIELDS}: one document, a draft's. */
export function oneDocument<T extends z.ZodType<RunDocument>>(schema: T) {
	return schema
		.refine((input) => (input.profileId === undefined) !== (input.document === undefined), {
			message: 'Give either profileId (a saved profile) or document (an unsaved one), not both.'
		})
		.refine((input) => input.draftOf === undefined || input.document !== undefined, {
			message: 'draftOf goes with document (the unsaved draft of that profile).',
			path: ['draftOf']
		});
}

/** `POST /api/flows/<name>`: a saved profile or an unsaved document, and the scenario's values. */
export const FlowInputSchema = oneDocument(
	z.object({
		...RUN_DOCUMENT_FIELDS,
		values: z.record(z.string().min(1).max(200), ScenarioValueSchema).default({}).meta({
			description:
				'The scenario: the flow’s inputs (see the flow). A saved profile’s non-secret account values are added; stored secrets are not used (type them).'
		}),
		sandboxId: z
			.string()
			.min(1)
			.max(100)
			.optional()
			.meta({ description: '`app-start`: the push sandbox its push is sent to.' })
	})
);
export type FlowInput = z.infer<typeof FlowInputSchema>;

/** One step as the API answers it. */
export interface FlowStepView {
	service: string;
	/** The request as sent, secrets masked; null when none was sent. */
	request: PreviewRequest | PushHttpRequest | null;
	/** The response as received (secrets masked); null when none came. */
	response: ResponseEnvelope | PushSendAnswer['response'];
	/** A push's verdict per element (app start's push step). */
	verdicts?: PushSendAnswer['verdicts'];
	/** The push a virtual phone received at the sandbox (a messaging journey's wait). */
	received?: ObservedPush | null;
	interpretation: Interpretation | null;
	/** Why no response came (unreachable, refused by the policy, timed out, not sendable). */
	error: { code: string; message: string } | null;
	/** The values the flow filled in for this step, secrets masked. */
	filled: Record<string, string>;
	decision: Decision;
	contractRow: ContractRow;
}

/** What a run of an unsaved draft ran: the revision the draft started from, when given. */
export interface FlowRunDraft {
	baseRevision: number | null;
}

/** A run as the API answers it. */
export interface FlowRunView {
	id: number;
	flow: RunFlowName;
	ok: boolean;
	/** Set when the run was of a profile's unsaved draft (null for a saved revision). */
	draft: FlowRunDraft | null;
	steps: FlowStepView[];
	result: Record<string, unknown>;
}

/** What a kept run holds: its steps and result as the run answered them. */
export type FlowRunRecord = Pick<FlowRunView, 'steps' | 'result'>;

/** A line of a profile's list of runs. */
export interface FlowRunSummary {
	id: number;
	flow: string;
	at: number;
	ok: boolean;
	by: string | null;
	/** Set when the run was of the profile's unsaved draft. */
	draft: FlowRunDraft | null;
	/** Each step's service and how it ended. */
	steps: { service: string; status: Decision['status'] }[];
}

/** Why a flow does not start (answered 400 or 404 before anything is sent). */
export class FlowInputError extends Error {
	constructor(
		readonly status: 400 | 404,
		readonly code: string,
		message: string,
		readonly extra: object = {}
	) {
		super(message);
	}
}

/** True when `name` is a flow of the API. */
export function isFlowName(name: string): name is FlowName {
	return (FLOW_NAMES as readonly string[]).includes(name);
}

/** What a step's sender keeps of a request: as sent, as answered, or why it was not sent. */
export type StepRecord = {
	request: PreviewRequest | PushHttpRequest | null;
	result: CallResult | null;
	error?: string;
	push?: PushSendAnswer;
};

function outcomeOf(result: CallResult): StepOutcome {
	if ('error' in result) {
		return { kind: 'failed', code: result.error.code, message: result.error.message };
	}
	return {
		kind: 'answered',
		status: result.response.status,
		body: result.response.bodyEncoding === 'text' ? result.response.body : '',
		interpretation: result.interpretation
	};
}

/** Masks in the values a step filled what would be masked in a request (the secret names). */
function maskFilled(filled: Record<string, string>): Record<string, string> {
	return Object.fromEntries(
		Object.entries(filled).map(([key, value]) => [key, isSecretKey(key) ? SECRET_MASK : value])
	);
}

/** A step as the API answers it (its values masked where they are secret). */
export function stepView(s: FlowStep<StepRecord>): FlowStepView {
	const result = s.record?.result ?? null;
	const refused = s.record && !result ? s.record : null;
	const pushed = s.record?.push;
	return {
		service: s.service,
		request: s.record?.request ?? null,
		response: pushed ? pushed.response : result && 'response' in result ? result.response : null,
		...(pushed ? { verdicts: pushed.verdicts } : {}),
		interpretation: result && 'interpretation' in result ? result.interpretation : null,
		error: pushed?.error
			? { code: pushed.error.code, message: pushed.error.message }
			: result && 'error' in result
				? { code: result.error.code, message: result.error.message }
				: refused?.error
					? { code: refused.error, message: s.decision.text }
					: null,
		filled: maskFilled(s.filled),
		decision: s.decision,
		contractRow: s.contractRow
	};
}

export async function documentOf(
	ctx: ServerContext,
	input: Pick<FlowInput, 'profileId' | 'document' | 'draftOf'>
): Promise<ProfileDocument> {
	if (input.draftOf && !(await headDocument(ctx, input.draftOf.profileId))) {
		throw new FlowInputError(404, 'not_found', 'No such profile (draftOf).');
	}
	if (input.document) return input.document;
	const document = await headDocument(ctx, input.profileId!);
	if (!document) throw new FlowInputError(404, 'not_found', 'No such profile.');
	return document;
}

/** The values of a run: the profile's own account values (not its secrets), then the given ones. */
export function valuesOf(document: ProfileDocument, given: Values): Values {
	return { ...ownAccountValues(document.preservedXml), ...given };
}

function checkInputs(flow: FlowName, document: ProfileDocument, values: Values): void {
	const masked = Object.keys(values).filter((key) => values[key] === SECRET_MASK);
	if (masked.length) {
		throw new FlowInputError(
			400,
			'missing_values',
			`Type the value of ${masked.map((k) => `%${k}%`).join(', ')}: a flow does not take stored secrets.`,
			{ missing: masked.map((name) => ({ name })) }
		);
	}
	if (flow === 'app-start' && appStartPushOf(values) === null) {
		throw new FlowInputError(
			400,
			'invalid_input',
			`push: one of ${APP_START_PUSHES.join(', ')} (the push the provider sends after the report).`
		);
	}
	const inputs = missingInputs(flow, values).map((name) => ({ name, service: null }));
	// A blank input (an empty list of recipients) would stop the templates' check before their
	// other placeholders: it is left out there, as an absent one is, so all are named at once.
	const given = Object.fromEntries(
		Object.entries(values).filter(([name]) => !inputs.some((i) => i.name === name))
	);
	const unset = unsetPlaceholders(flow, document.services, given).filter(
		(u) => !inputs.some((i) => i.name === u.name)
	);
	const missing = [...inputs, ...unset];
	if (!missing.length) return;
	const names = [...new Set(missing.map((m) => m.name))];
	const meanings = FLOWS[flow].inputs;
	const described = names.map((name) => {
		const meaning = meanings.find((i) => i.name === name)?.meaning;
		return meaning ? `${name} (${meaning})` : `%${name}%`;
	});
	throw new FlowInputError(
		400,
		'missing_values',
		`${FLOWS[flow].title} needs values for: ${described.join('; ')}.`,
		{ missing }
	);
}

/**
 * Sends a step's plan as a test call is (the same builder, secret masking, outbound policy, time
 * limits and sinks); a request that cannot be sent as configured is a refused outcome.
 */
export function stepSender(
	ctx: ServerContext,
	actor: Actor,
	document: ProfileDocument,
	appOrigins: string[],
	signal: AbortSignal
): SendStep<StepRecord> {
	const accountKeys = declaredAccountKeys(document.preservedXml);
	return async (plan) => {
		const build = {
			service: plan.service,
			settings: plan.settings,
			values: plan.values,
			rawSubstitution: document.rawSubstitution,
			accountKeys
		};
		try {
			const answer = await sendBuild(ctx, actor, build, appOrigins, signal);
			return {
				issues: answer.issues,
				results: answer.calls.map((result) => ({
					outcome: outcomeOf(result),
					record: { request: result.request, result }
				}))
			};
		} catch (error) {
			if (!(error instanceof CallInputError)) throw error;
			const outcome: StepOutcome = {
				kind: 'refused',
				code: error.code,
				message: error.message
			};
			return {
				issues: [],
				results: [{ outcome, record: { request: null, result: null, error: error.code } }]
			};
		}
	};
}

/**
 * Runs a flow and keeps the run. Every step is sent as a test call is (audited as one), one at
 * a time; the run holds one of the user's in-flight slots from start to end.
 */
export async function runFlowRequest(
	ctx: ServerContext,
	actor: Actor & { id: number },
	flow: FlowName,
	input: FlowInput,
	appOrigins: string[]
): Promise<FlowRunView> {
	const sandbox = input.sandboxId ? await ctx.store.sandboxes.get(input.sandboxId) : undefined;
	if (flow === 'app-start' && !sandbox) {
		throw new FlowInputError(
			input.sandboxId ? 404 : 400,
			input.sandboxId ? 'not_found' : 'missing_values',
			input.sandboxId
				? 'No such sandbox.'
				: 'App start sends its push through a sandbox: give sandboxId (one of GET /api/sandboxes).',
			input.sandboxId ? {} : { missing: [{ name: 'sandboxId', service: null }] }
		);
	}
	const document = await documentOf(ctx, input);
	const values = valuesOf(document, input.values as Values);
	checkInputs(flow, document, values);
	const release = await acquireSlot(actor.id);
	const controller = new AbortController();
	let run: FlowRun<StepRecord>;
	try {
		const send = stepSender(ctx, actor, document, appOrigins, controller.signal);
		const push: SendPush<StepRecord> = async (body) => {
			try {
				const answer = await sendComposedPush(
					ctx,
					actor,
					{ endpoint: 'send', body, target: { kind: 'sandbox', sandboxId: sandbox!.id } },
					appOrigins,
					appOrigins[0]
				);
				const verdict = answer.verdicts?.elements[0];
				return {
					record: { request: answer.request, result: null, push: answer },
					accepted: verdict?.verdict === 'accepted',
					text: answer.error?.message ?? answer.verdicts?.summary ?? 'no answer.'
				};
			} catch (error) {
				if (!(error instanceof PushSendError)) throw error;
				return {
					record: { request: null, result: null, error: error.code },
					accepted: false,
					text: error.message
				};
			}
		};
		run =
			flow === 'app-start'
				? await runAppStart(document.services, values, send, push)
				: await runFlow(flow as CoreFlowName, document.services, values, send);
	} finally {
		release();
	}
	let steps = run.steps.map(stepView);
	// What one step masks another may show: a PIN the verifier echoes, the password an account
	// document answers (sent masked in the next step), a device password.
	const secrets = secretForms([
		...Object.entries(values).flatMap(([key, value]) =>
			(isSecretKey(key) || key === 'pin') && typeof value === 'string' ? [value] : []
		),
		...steps.flatMap((s) => {
			const body = s.interpretation?.action.kind === 'provisioningAccount' ? s.response : null;
			const text = body && 'bodyEncoding' in body ? body.body : '';
			const password = text ? readAccountTags(text, [])?.password : null;
			return password ? [password] : [];
		})
	]);
	steps = maskSecretsIn(steps, secrets);
	const result = maskSecretsIn(run.result, secrets);
	return keepRun(ctx, actor, input, flow, run.ok, steps, result);
}

/** Keeps a run with its profile (its drafts' too) and answers it with its id. */
export async function keepRun(
	ctx: ServerContext,
	actor: Actor & { id: number },
	input: Pick<FlowInput, 'profileId' | 'draftOf'>,
	flow: RunFlowName,
	ok: boolean,
	steps: FlowStepView[],
	result: Record<string, unknown>
): Promise<FlowRunView> {
	const draft: FlowRunDraft | null = input.draftOf
		? { baseRevision: input.draftOf.baseRevision ?? null }
		: null;
	const summary: Omit<FlowRunSummary, 'id' | 'flow' | 'at' | 'ok' | 'by'> = {
		draft,
		steps: steps.map((s) => ({ service: s.service, status: s.decision.status }))
	};
	const row = await ctx.store.flowRuns.add(
		{
			profileId: input.profileId ?? input.draftOf?.profileId ?? null,
			flow,
			userId: actor.id,
			at: Date.now(),
			ok,
			summary: JSON.stringify(summary),
			record: JSON.stringify({ steps, result })
		},
		FLOW_RUNS_KEEP
	);
	return { id: row.id, flow, ok, draft, steps, result };
}

/** A kept summary (runs kept before drafts were listed have no `draft`). */
function summaryOf(text: string): Pick<FlowRunSummary, 'steps' | 'draft'> {
	const kept = JSON.parse(text) as Partial<Pick<FlowRunSummary, 'steps' | 'draft'>>;
	return { steps: kept.steps ?? [], draft: kept.draft ?? null };
}

/** A profile's runs (of its saved revisions and of its drafts), newest first. */
export async function listFlowRuns(
	ctx: ServerContext,
	profileId: string
): Promise<FlowRunSummary[]> {
	const rows = await ctx.store.flowRuns.list(profileId, FLOW_RUNS_KEEP);
	return rows.map((row) => ({
		id: row.id,
		flow: row.flow,
		at: row.at,
		ok: row.ok,
		by: row.userEmail ?? null,
		...summaryOf(row.summary)
	}));
}

/** One run of a profile, with its steps. */
export async function flowRunOf(
	ctx: ServerContext,
	profileId: string,
	id: number
): Promise<(FlowRunSummary & { record: FlowRunRecord }) | undefined> {
	const row = await ctx.store.flowRuns.get(id);
	if (!row || row.profileId !== profileId) return undefined;
	return {
		id: row.id,
		flow: row.flow,
		at: row.at,
		ok: row.ok,
		by: row.userEmail ?? null,
		...summaryOf(row.summary),
		record: JSON.parse(row.record) as FlowRunRecord
	};
}
