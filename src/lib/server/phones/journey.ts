import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { PhoneStateSchema } from '$lib/api-schemas/calls';
import { JOURNEYS, type FlowRowId } from '$lib/core/catalogue/flows';
import { step, type Decision, type FlowStep } from '$lib/core/flows';
import {
	checkRound,
	JOURNEY_LIMITS,
	messageProblem,
	type MessagingFinding,
	type ObservedPush,
	type PhoneState,
	type RoundFetch
} from '$lib/core/phones';
import type { ProfileDocument } from '$lib/core/profile';
import { buildRequests, maskSecretsIn, secretForms, type Values } from '$lib/core/request';
import type { Actor } from '../audit';
import {
	documentOf,
	FlowInputError,
	keepRun,
	oneDocument,
	RUN_DOCUMENT_FIELDS,
	stepSender,
	stepView,
	valuesOf,
	type FlowRunView,
	type FlowRunRecord,
	type FlowStepView,
	type StepRecord
} from '../flows';
import type { ServerContext } from '../platform/context';
import { listSandboxes, sandboxPlatform, type SandboxView } from '../push/sandboxes';
import { acquireSlot } from '../test-calls';
import { phoneIdentity, VirtualPhone, type PhoneEvent } from './engine';
import { pushKey, SandboxWatch } from './watch';

/**
 * The messaging journey, headless: both phones start, the sender sends to the recipient, the
 * journey waits for the provider's push at the profile's sandbox, the recipient fetches, then
 * fetches again as on coming to the foreground, and the sender's second device syncs. Each step
 * as the other flows give it, one verdict, the round's findings; kept with the flow runs.
 */

/** How long the journey waits for the provider's push by default, and at most. */
export const PUSH_TIMEOUT_MS = 10_000;
export const MAX_PUSH_TIMEOUT_MS = 60_000;

/** Bytes of a response body a kept step holds (a fetch of thousands of messages is cut). */
export const KEPT_BODY_BYTES = 64 * 1024;

/** What a page sends as the key of a run it follows live (see `live.ts`). */
export const LIVE_KEY = /^[A-Za-z0-9_-]{16,64}$/;

/** The application id the phones report when the profile's push settings give none. */
export const DEFAULT_APP_ID = 'com.provisioning-studio.phone';

/** What a journey's disposition notification asks for when the caller gives none. */
const GENERATED_DISPOSITION = 'positive-delivery,display';

const Account = z.strictObject({
	username: z.string().trim().min(1).max(JOURNEY_LIMITS.username),
	password: z.string().min(1).max(JOURNEY_LIMITS.password),
	displayName: z.string().trim().max(JOURNEY_LIMITS.displayName).optional()
});

/** `POST /api/flows/messaging`. */
export const MessagingInputSchema = oneDocument(
	z.object({
		...RUN_DOCUMENT_FIELDS,
		sandboxId: z.string().min(1).max(100).optional().meta({
			description:
				'The sandbox the provider pushes to; by default the one the profile’s push gateway URL names.'
		}),
		continueFrom: z.number().int().min(1).optional().meta({
			description:
				'A kept messaging run of yours in this profile and sandbox: its phones go on from it (ids, conversation, ticks).'
		}),
		live: z.string().regex(LIVE_KEY).optional().meta({
			description:
				'A key of yours (16 to 64 of `A-Za-z0-9_-`): the run is also streamed at `GET /api/flows/messaging/live/{key}`.'
		}),
		values: z
			.strictObject({
				sender: Account,
				recipient: Account,
				sms_body: z.string().min(1).max(JOURNEY_LIMITS.body),
				content_type: z.string().max(200).default('text/plain').meta({
					description:
						'`text/plain` by default; a media (`application/x-<vendor>-filetransfer+json`, with a file-transfer JSON body) or disposition-notification message by its type.'
				}),
				disposition_notification: z.string().max(300).optional().meta({
					description:
						'`<identifier>:<kinds>` (kinds `positive-delivery`, `display`), empty for none; by default a new identifier asking for both kinds.'
				}),
				/** The sender's second device on the same account fetches what the first one sent. */
				secondDevice: z.boolean().default(false),
				/** Every phone signs out at the end (the Account Removal Reporter). */
				signOut: z.boolean().default(false),
				pushTimeoutMs: z
					.number()
					.int()
					.min(100)
					.max(MAX_PUSH_TIMEOUT_MS)
					.default(PUSH_TIMEOUT_MS)
					.meta({ description: 'How long to wait for the provider’s push to the recipient.' })
			})
			.superRefine((v, ctx) => {
				const problem = messageProblem({
					body: v.sms_body,
					contentType: v.content_type,
					dispositionNotification: v.disposition_notification ?? null
				});
				if (problem)
					ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
			})
	})
);
export type MessagingInput = z.infer<typeof MessagingInputSchema>;

/** What a run's `result` holds. */
export interface MessagingResult {
	verdict: string;
	findings: MessagingFinding[];
	phones: PhoneState[];
	sandbox: { id: string; name: string };
	smsId: string | null;
	/** Push elements the sandbox answered during the round (the first ones are checked). */
	pushes: { seen: number; omitted: number };
}

/** The sandbox the provider pushes to: the one given, else the profile's push gateway URL's. */
async function sandboxOf(
	ctx: ServerContext,
	input: MessagingInput,
	document: ProfileDocument,
	appOrigins: string[]
): Promise<SandboxView> {
	const sandboxes = await listSandboxes(ctx, appOrigins[0] ?? '');
	if (input.sandboxId) {
		const found = sandboxes.find((s) => s.id === input.sandboxId);
		if (!found) throw new FlowInputError(404, 'not_found', 'No such sandbox.');
		return found;
	}
	const url = document.push.gatewayUrl.trim().replace(/\/+$/, '');
	const key = /\/sandbox\/([A-Za-z0-9_-]{32})$/.exec(url)?.[1];
	const origin = key ? url.slice(0, -`/sandbox/${key}`.length) : '';
	const found =
		key && appOrigins.includes(origin)
			? sandboxes.find((s) => s.pushUrl.endsWith(`/sandbox/${key}`))
			: undefined;
	if (found) return found;
	throw new FlowInputError(
		400,
		'missing_values',
		url === ''
			? "The messaging journey waits for the provider's push at a sandbox: set the profile's push gateway URL to a sandbox's push URL, or give sandboxId (one of GET /api/sandboxes)."
			: `The profile's push gateway URL is not one of this app's sandboxes (a sandbox's push URL is ${appOrigins[0] ?? ''}/sandbox/<key>): the journey cannot see the provider's pushes. Point it at a sandbox, or give sandboxId.`,
		{ missing: [{ name: 'sandboxId', service: null }] }
	);
}

/**
 * The phones a kept run left, when the input continues one: only a messaging run of the
 * caller's, kept with this profile (or the draft's) and watching this sandbox.
 */
async function phonesToContinue(
	ctx: ServerContext,
	actor: Actor & { id: number },
	input: MessagingInput,
	sandboxId: string
): Promise<PhoneState[]> {
	const id = input.continueFrom;
	if (id === undefined) return [];
	const row = await ctx.store.flowRuns.get(id);
	const profileId = input.profileId ?? input.draftOf?.profileId ?? null;
	const own =
		row?.flow === 'messaging' &&
		row.userId === actor.id &&
		profileId &&
		row.profileId === profileId;
	const kept = own ? (JSON.parse(row.record) as FlowRunRecord).result : undefined;
	const phones =
		(kept?.sandbox as { id?: unknown } | undefined)?.id === sandboxId
			? z.array(PhoneStateSchema).safeParse(kept?.phones)
			: undefined;
	if (phones?.success) return phones.data;
	throw new FlowInputError(
		404,
		'not_found',
		`No messaging run ${id} of yours in this profile and sandbox to continue from: give one of your runs' ids, or leave continueFrom out for new phones.`
	);
}

/** What a phone fills in the reporters' templates. */
const REPORTED = [
	'selector',
	'pushToken',
	'pushTokenOther',
	'pushTokenIncomingCall',
	'pushappid',
	'pushappid_other',
	'pushappid_incoming_call'
];

/** The placeholders the phones' templates use that neither the phones nor the profile give. */
function checkPlaceholders(document: ProfileDocument, base: Values): void {
	const given: Values = {
		...base,
		'account[username]': 'x',
		'account[password]': 'x',
		username: 'x',
		password: 'x'
	};
	const fills: Record<string, string[]> = {
		pushTokenReporter: REPORTED,
		sendMessage: ['sms_to', 'sms_body', 'content_type', 'disposition_notification'],
		accountRemovalReporter: REPORTED,
		fetchMessages: ['last_known_sms_id', 'last_known_sent_sms_id']
	};
	const missing: { name: string; service: string }[] = [];
	for (const [service, names] of Object.entries(fills)) {
		const values = { ...given, ...Object.fromEntries(names.map((n) => [n, 'x'])) };
		const settings = document.services[service] ?? {};
		for (const issue of buildRequests({ service, settings, values }).issues) {
			const name = issue.code === 'missing_value' ? /^%(.+?)% /.exec(issue.message)?.[1] : null;
			if (name && !missing.some((m) => m.name === name)) missing.push({ name, service });
		}
	}
	if (!missing.length) return;
	throw new FlowInputError(
		400,
		'missing_values',
		`${JOURNEYS.messaging.title} needs values for: ${missing.map((m) => `%${m.name}%`).join(', ')}.`,
		{ missing }
	);
}

/** A kept step's response body, cut at {@link KEPT_BODY_BYTES}. */
export function keptStep(view: FlowStepView): FlowStepView {
	const response = view.response;
	if (!response || !('bodyEncoding' in response) || response.body.length <= KEPT_BODY_BYTES) {
		return view;
	}
	return {
		...view,
		response: { ...response, body: response.body.slice(0, KEPT_BODY_BYTES), truncated: true }
	};
}

function verdictOf(
	findings: MessagingFinding[],
	failed: FlowStep<StepRecord>[],
	who: string
): string {
	const errors = findings.filter((f) => f.severity === 'error');
	const warnings = findings.filter((f) => f.severity === 'warning');
	if (!errors.length && !failed.length) {
		const also = warnings.length
			? ` ${warnings.length} warning${warnings.length === 1 ? '' : 's'}: ${warnings[0].message}`
			: '';
		return `The message went ${who} once, with its content type and disposition notification.${also}`;
	}
	const first = errors[0]?.message ?? failed[0].decision.text;
	const count = errors.length + failed.length;
	return `The round did not go as the contract wants (${count} problem${count === 1 ? '' : 's'}): ${first}`;
}

/**
 * Runs the messaging journey and keeps the run. It holds one of the user's calls in flight from
 * start to end; `listener` follows every step and change of a phone as it happens.
 */
export async function runMessaging(
	ctx: ServerContext,
	actor: Actor & { id: number },
	input: MessagingInput,
	appOrigins: string[],
	listener: (event: PhoneEvent) => void = () => {}
): Promise<FlowRunView> {
	const document = await documentOf(ctx, input);
	const sandbox = await sandboxOf(ctx, input, document, appOrigins);
	const base = valuesOf(document, {});
	checkPlaceholders(document, base);
	const priors = await phonesToContinue(ctx, actor, input, sandbox.id);
	const v = input.values;
	const release = await acquireSlot(actor.id);
	const controller = new AbortController();
	const steps: FlowStep<StepRecord>[] = [];
	const fetches: RoundFetch[] = [];
	const received = new Map<FlowStep<StepRecord>, ObservedPush | null>();
	let watch: SandboxWatch | undefined;
	let round: Pick<MessagingResult, 'phones' | 'findings' | 'smsId'>;
	try {
		watch = await SandboxWatch.start(ctx, sandbox.id);
		const phoneCtx = {
			services: document.services,
			base,
			send: stepSender(ctx, actor, document, appOrigins, controller.signal),
			emit: listener
		};
		const appId = document.push.appId.trim() || DEFAULT_APP_ID;
		const phone = (label: string, account: typeof v.sender, device: 'main' | 'second') => {
			const identity = phoneIdentity(label, account, device, sandbox.id, appId);
			// The same account's same device: derived alike, its selector and token are equal.
			const prior = priors.find(
				(p) =>
					p.identity.selector === identity.selector && p.identity.pushToken === identity.pushToken
			);
			return new VirtualPhone(identity, account, phoneCtx, prior);
		};
		const recipient = phone('recipient', v.recipient, 'main');
		const sender = phone('sender', v.sender, 'main');
		const second = v.secondDevice ? phone('sender-second', v.sender, 'second') : null;
		for (const p of [recipient, sender, second]) if (p) steps.push(await p.start());
		const dispositionNotification =
			v.disposition_notification ?? `${randomUUID()}:${GENERATED_DISPOSITION}`;
		const contentType = v.content_type;
		const sent = await sender.send(v.recipient.username, v.sms_body, {
			contentType,
			dispositionNotification
		});
		steps.push(sent.step);
		const id = recipient.identity;
		let arrived = false;
		let firstId: unknown;
		if (sent.sent) {
			const push = await watch.waitFor(
				(p) => p.token === id.pushToken && p.push.verb === 'NotifyTextMessage',
				v.pushTimeoutMs
			);
			arrived = push !== null;
			const delivered = push?.status === 200 ? push : null;
			firstId = push?.push.Id;
			if (delivered) recipient.received(delivered);
			const decision: Decision = delivered
				? {
						status: 'ok',
						text: `The provider's NotifyTextMessage reached the sandbox for the recipient's pushToken; the device shows it and fetches.`,
						shownToUser: typeof delivered.push.Message === 'string' ? delivered.push.Message : null
					}
				: {
						status: 'failed',
						text: push
							? `The provider's NotifyTextMessage for the recipient's pushToken reached sandbox “${sandbox.name}”, which answered status ${push.status}: the device never gets it.`
							: `No NotifyTextMessage for the recipient's pushToken reached sandbox “${sandbox.name}” within ${v.pushTimeoutMs / 1000} s.`,
						shownToUser: null
					};
			const waited = step<StepRecord>(
				{ service: 'pushReceived', filled: { DeviceToken: id.pushToken, Selector: id.selector } },
				null,
				decision,
				'incomingMessagePush'
			);
			steps.push(waited);
			received.set(waited, push);
			listener({ kind: 'step', phone: id.label, step: waited });
			const fetchAs = async (
				who: VirtualPhone,
				phone: RoundFetch['phone'],
				moment: RoundFetch['moment'],
				row: FlowRowId
			) => {
				const why =
					moment === 'push' ? 'fetched after the push' : 'fetched on coming to the foreground';
				const f = await who.fetchMessages(row, why);
				steps.push(f.step);
				const failure = f.lists ? null : f.step.decision.text;
				fetches.push({ phone, moment, lists: f.lists, failure, again: f.again });
			};
			if (delivered) await fetchAs(recipient, 'recipient', 'push', 'incomingMessagePush');
			await fetchAs(recipient, 'recipient', 'foreground', 'fetchForeground');
			if (second) await fetchAs(second, 'sender-second', 'foreground', 'fetchSentSync');
		}
		// A NotifyReprovision accepted for a phone's token during the round: it reloads.
		for (const p of [recipient, sender, second]) {
			const reload =
				p &&
				watch.pushes.some(
					(x) =>
						x.token === p.identity.pushToken &&
						x.status === 200 &&
						x.push.verb === 'NotifyReprovision'
				);
			const reloaded = reload ? await p.reprovision() : null;
			if (reloaded) steps.push(reloaded);
		}
		if (v.signOut) {
			for (const p of [recipient, sender, second]) if (p) steps.push(await p.signOut());
		}
		const target = sandboxPlatform(sandbox.settings, id.pushToken);
		round = {
			phones: [recipient, sender, ...(second ? [second] : [])].map((p) => p.state),
			findings: sent.sent
				? checkRound({
						sent: {
							smsId: sent.smsId,
							body: v.sms_body,
							contentType,
							dispositionNotification,
							from: v.sender.username,
							fromDisplayName: sender.identity.displayName,
							to: v.recipient.username
						},
						recipient: id,
						target: target === 'unknown' ? document.push.target : target,
						pushes: watch.pushes,
						pushesOmitted: watch.omitted,
						timesPushed: arrived ? (watch.counts.get(pushKey(id.pushToken, firstId)) ?? 1) : 0,
						unregisteredBefore: watch.unregisteredBefore,
						wait: arrived ? { arrived: true } : { arrived: false, timeoutMs: v.pushTimeoutMs },
						fetches
					})
				: [],
			smsId: sent.smsId
		};
	} finally {
		watch?.stop();
		release();
	}
	const failed = steps.filter((s) => s.decision.status === 'failed');
	const who = `from ${v.sender.username} to ${v.recipient.username}${v.secondDevice ? " and to the sender's second device" : ''}`;
	const result: MessagingResult = {
		verdict: verdictOf(round.findings, failed, who),
		findings: round.findings,
		phones: round.phones,
		sandbox: { id: sandbox.id, name: sandbox.name },
		smsId: round.smsId,
		pushes: { seen: watch!.pushes.length + watch!.omitted, omitted: watch!.omitted }
	};
	const ok = failed.length === 0 && !round.findings.some((f) => f.severity === 'error');
	const secrets = secretForms([v.sender.password, v.recipient.password]);
	const views = steps.map((s) => {
		const view = keptStep(stepView(s));
		return received.has(s) ? { ...view, received: received.get(s) ?? null } : view;
	});
	return keepRun(
		ctx,
		actor,
		input,
		'messaging',
		ok,
		maskSecretsIn(views, secrets),
		maskSecretsIn({ ...result }, secrets)
	);
}
