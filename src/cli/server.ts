import { z } from 'zod';
import {
	FlowRunSchema,
	MessagingRunSchema,
	MissingValuesErrorSchema,
	TestCallAnswerSchema
} from '$lib/api-schemas/calls';
import { ErrorSchema } from '$lib/api-schemas/common';
import { PreviewSchema, ProfileListSchema } from '$lib/api-schemas/profiles';
import { RUN_FLOW_NAMES, type RunFlowName } from '$lib/core/catalogue/flows';
import type { Issue } from '$lib/core/issues';
import { SECRET_MASK } from '$lib/core/profile';
import type { Values } from '$lib/core/request';
import { judgeAnswer, type Expectation } from './expect';
import {
	EXIT,
	type FlowOutcome,
	type Finding,
	type LiveChoice,
	type LiveOutcome,
	type RenderedRequest
} from './model';

/**
 * `check --server <origin> --token <api token>`: the checks asked of a running Provisioning
 * Studio through its HTTP API instead of the program's own core: each service's lint and
 * requests from `POST /api/preview`, and with `--flows`, the flows from `POST /api/flows/<name>`.
 * Only the global `fetch` is used (no bundled network code is loaded).
 */

/** The environment variable the token is read from when `--token` is not given. */
export const TOKEN_ENV = 'PROVISIONING_STUDIO_TOKEN';

/** Where to run the checks, and which flows to run there. */
export interface ServerTarget {
	/** The app's origin, e.g. `https://studio.example.com` (no path). */
	origin: string;
	token: string;
	flows: RunFlowName[];
	/** `--value name=value` for the flows, over the scenario's values. */
	values: Record<string, string | string[]>;
	/** How long one API call may take (ms). */
	timeoutMs: number;
	/**
	 * `--live` (one request per service) or `--live-all`: requests sent as the server's test
	 * calls, judged by these rules.
	 */
	live?: LiveChoice & { expectations: Expectation[] };
}

/** A failure that stops the whole run: the server is unreachable or refuses the token. */
export class ServerFailure extends Error {
	constructor(
		message: string,
		readonly exitCode: number
	) {
		super(message);
	}
}

/** The token as it may be shown: its `pst_` prefix and the mask, never a character of the secret. */
export function maskToken(token: string): string {
	return token.startsWith('pst_') ? `pst_${SECRET_MASK}` : SECRET_MASK;
}

/** `--server` as an origin (`http:` or `https:`, no path, query or credentials); else a message. */
export function parseOrigin(text: string): string | { error: string } {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return {
			error: `--server "${text}" is not a URL; give the app's origin, e.g. https://studio.example.com.`
		};
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return { error: `--server "${text}": use an http: or https: origin.` };
	}
	if (url.username || url.password) {
		return {
			error: `--server: put no credentials in the URL; the API token goes in --token or ${TOKEN_ENV}.`
		};
	}
	if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
		return { error: `--server "${text}": give the origin only (${url.origin}), without a path.` };
	}
	return url.origin;
}

/** `--flows a,b`: flow names, or a message. */
export function parseFlows(text: string): RunFlowName[] | { error: string } {
	const names = text
		.split(',')
		.map((s) => s.trim())
		.filter((s) => s !== '');
	const unknown = names.filter((n) => !(RUN_FLOW_NAMES as readonly string[]).includes(n));
	if (names.length === 0 || unknown.length) {
		return {
			error: `--flows takes a list of ${RUN_FLOW_NAMES.join(', ')}${unknown.length ? `, not "${unknown.join('", "')}"` : ''}.`
		};
	}
	return [...new Set(names)] as RunFlowName[];
}

interface Answer {
	status: number;
	body: Record<string, unknown>;
}

interface Reply extends Answer {
	/** The answer's text as sent (XML for an export, JSON otherwise). */
	text: string;
}

/**
 * One call of the API with the token; what stops the run is thrown as a ServerFailure: no
 * answer (exit 4), a refused token or role, a redirect or no such API (exit 2), a server error
 * (exit 4). Other answers, errors of the API included, are returned.
 */
async function send(
	target: ServerTarget,
	method: 'GET' | 'POST',
	path: string,
	payload?: unknown
): Promise<Reply> {
	const hide = (text: string) => text.split(target.token).join(maskToken(target.token));
	let response: Response;
	try {
		response = await fetch(`${target.origin}${path}`, {
			method,
			headers: {
				authorization: `Bearer ${target.token}`,
				...(payload === undefined ? {} : { 'content-type': 'application/json' }),
				accept: method === 'GET' ? '*/*' : 'application/json'
			},
			...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
			redirect: 'manual',
			signal: AbortSignal.timeout(target.timeoutMs)
		});
	} catch (error) {
		const cause = (error as { cause?: { code?: string; message?: string } }).cause;
		const why =
			(error as Error).name === 'TimeoutError'
				? `no answer within ${target.timeoutMs / 1000} s`
				: (cause?.code ?? cause?.message ?? (error as Error).message);
		throw new ServerFailure(
			`Cannot reach ${target.origin} (${method} ${path}): ${hide(why)}.`,
			EXIT.network
		);
	}
	const text = await response.text().catch(() => '');
	let body: Record<string, unknown> = {};
	if (text.startsWith('{')) {
		try {
			const parsed: unknown = JSON.parse(text);
			if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
		} catch {
			// Not JSON: judged by the status below.
		}
	}
	const error = (body.error ?? {}) as { code?: string; message?: string };
	const said = error.code ? ` ${error.code}: ${hide(error.message ?? '')}` : '';
	if (response.status === 401) {
		throw new ServerFailure(
			`${target.origin} refused the API token ${maskToken(target.token)} (401${said}). Check --token or ${TOKEN_ENV}: the token may be revoked, mistyped or made on another instance (tokens are made under Account › API tokens, or POST /api/tokens).`,
			EXIT.usage
		);
	}
	if (response.status === 403) {
		throw new ServerFailure(
			`${target.origin} refused ${method} ${path} for the API token ${maskToken(target.token)} (403${said}). A token acts with its owner's role: lint and rendering need a viewer, --live and --flows an editor.`,
			EXIT.usage
		);
	}
	if (response.status >= 300 && response.status < 400) {
		throw new ServerFailure(
			`${target.origin} answered ${method} ${path} with a redirect (${response.status}${response.headers.get('location') ? ` to ${response.headers.get('location')}` : ''}): give the app's own origin to --server.`,
			EXIT.usage
		);
	}
	if (response.status === 404 && !error.code) {
		throw new ServerFailure(
			`${target.origin} has no ${method} ${path} (404): is it a Provisioning Studio, of a version with this API?`,
			EXIT.usage
		);
	}
	if (response.status >= 500 || (!error.code && response.status >= 400)) {
		throw new ServerFailure(
			`${target.origin} could not answer ${method} ${path} (HTTP ${response.status}${said}).`,
			EXIT.network
		);
	}
	return { status: response.status, body, text };
}

/** One JSON call of the API (see {@link send}); an answer that is not JSON stops the run. */
async function call(
	target: ServerTarget,
	path: string,
	payload?: unknown,
	method: 'GET' | 'POST' = 'POST'
): Promise<Answer> {
	const reply = await send(target, method, path, payload);
	if (!reply.text.startsWith('{')) {
		throw new ServerFailure(
			`${target.origin} could not answer ${method} ${path} (HTTP ${reply.status}, not JSON).`,
			EXIT.network
		);
	}
	return reply;
}

/**
 * An answer read through the API's own schema of it (the one the published document is made
 * from): an answer of another shape is a server this version cannot work with, said as such.
 */
function read<S extends z.ZodType>(
	target: ServerTarget,
	path: string,
	answer: Answer,
	schema: S
): z.infer<S> {
	const parsed = schema.safeParse(answer.body);
	if (parsed.success) return parsed.data;
	const first = parsed.error.issues[0];
	const where = first?.path.length ? ` at ${first.path.join('.')}` : '';
	throw new ServerFailure(
		`${target.origin} answered ${path} (HTTP ${answer.status}) in a shape this version does not know${where}: ${first?.message ?? 'unreadable'}. Is it a Provisioning Studio of another version?`,
		EXIT.network
	);
}

/** An error answer of the API, with the fields some errors add (a flow's missing values). */
const ErrorAnswer = ErrorSchema.extend({
	missing: MissingValuesErrorSchema.shape.missing.optional()
});

/** A profile stored on the server, as `--profile` names it. */
export interface StoredProfile {
	id: string;
	name: string;
}

/**
 * The profile `--profile` names on the server (`GET /api/profiles`): by its id, else by its exact
 * name. No such profile is unreadable input (exit 3); a name several profiles have is a usage
 * error (exit 2).
 */
export async function findProfile(target: ServerTarget, ref: string): Promise<StoredProfile> {
	const answer = await call(target, '/api/profiles', undefined, 'GET');
	const all = read(target, '/api/profiles', answer, ProfileListSchema).profiles.map((p) => ({
		id: String(p.id),
		name: p.name
	}));
	const byId = all.find((p) => p.id === ref);
	if (byId) return byId;
	const named = all.filter((p) => p.name === ref);
	if (named.length === 1) return named[0];
	if (named.length > 1) {
		throw new ServerFailure(
			`${target.origin} has ${named.length} profiles named "${ref}": give --profile the id of one (${named.map((p) => p.id).join(', ')}).`,
			EXIT.usage
		);
	}
	const some = all.slice(0, 10).map((p) => `${p.id} "${p.name}"`);
	throw new ServerFailure(
		`${target.origin} has no profile with the id or name "${ref}"${some.length ? `; there are ${some.join(', ')}${all.length > some.length ? ', …' : ''}` : ' (it has no profiles)'}. A deleted profile is restored on its page first.`,
		EXIT.unreadable
	);
}

/**
 * A stored profile exported by the server (`GET /api/profiles/:id/export.xml`), as its pages
 * export it: credentials of its kept XML left out. A profile that cannot be written as XML
 * fails with the server's issues (exit 1, as the local export).
 */
export async function serverExport(
	target: ServerTarget,
	profile: StoredProfile,
	form: 'provisioning' | 'account'
): Promise<string> {
	const path = `/api/profiles/${profile.id}/export.xml?form=${form}`;
	const reply = await send(target, 'GET', path);
	if (reply.status === 200) return reply.text;
	const error = reply.body.error as { code?: string; message?: string } | undefined;
	const issues = (reply.body.issues ?? []) as Issue[];
	throw new ServerFailure(
		[
			`${target.origin} could not export profile ${profile.id} "${profile.name}" (${reply.status} ${error?.code ?? ''}): ${error?.message ?? ''}`,
			...issues.map((i) => `${i.severity}: ${i.message} [${i.code}]`)
		].join('\n'),
		reply.status === 422 ? EXIT.findings : EXIT.unreadable
	);
}

/** A stored profile as a backup (`GET /api/profiles/:id/backup`: secret values masked). */
export async function serverBackup(target: ServerTarget, profile: StoredProfile): Promise<string> {
	const reply = await send(target, 'GET', `/api/profiles/${profile.id}/backup`);
	if (reply.status !== 200) {
		throw new ServerFailure(
			`${target.origin} has no profile ${profile.id} "${profile.name}" any more.`,
			EXIT.unreadable
		);
	}
	return reply.text;
}

/** What the server's preview answered for one service and one scenario. */
export interface ServerRendering {
	requests: RenderedRequest[];
	issues: Issue[];
}

/**
 * Lint and requests of one service from the server's preview (the same builder the editor and
 * test calls use there). Requests are as the server built them: the caller masks secrets.
 */
export async function serverPreview(
	target: ServerTarget,
	input: ServiceCall
): Promise<ServerRendering> {
	const answer = await call(target, '/api/preview', input);
	if (answer.status !== 200) {
		const { error } = read(target, '/api/preview', answer, ErrorAnswer);
		return {
			requests: [],
			issues: [
				{
					code: `server_${error.code}`,
					severity: 'error',
					message: `The server refused the preview of ${input.service}: ${error.message}`
				}
			]
		};
	}
	const preview = read(target, '/api/preview', answer, PreviewSchema);
	const requests = preview.requests;
	return {
		requests: requests.map((r) => ({
			method: r.method,
			url: r.url,
			headers: Object.entries(r.headers).map(([name, value]) => ({ name, value })),
			body: r.body,
			...(r.recipient !== undefined ? { recipient: r.recipient } : {})
		})),
		issues: preview.issues
	};
}

/** The body of a preview or a test call: one service of a profile with one scenario's values. */
export interface ServiceCall {
	service: string;
	settings: Record<string, string>;
	values: Values;
	rawSubstitution: boolean;
	preservedXml: unknown[];
}

/** Test call errors where the request was not sent as written (not a network failure). */
const NOT_SENT = new Set(['invalid_header', 'invalid_url']);

/**
 * `--live` through the server: the service's requests sent as the server's test calls (its
 * outbound policy, limits and audit), each answer judged as `--live` judges it here.
 */
export async function serverTestCall(
	target: ServerTarget,
	input: ServiceCall,
	expectations: readonly Expectation[]
): Promise<{
	outcomes: LiveOutcome[];
	findings: Omit<Finding, 'file'>[];
	networkFailure: boolean;
}> {
	const service = input.service;
	const answer = await call(target, '/api/test-calls', input);
	if (answer.status !== 200) {
		const { error } = read(target, '/api/test-calls', answer, ErrorAnswer);
		return {
			outcomes: [],
			findings: [
				{ severity: 'error', code: 'live_refused', message: `Not sent: ${error.message}`, service }
			],
			networkFailure: false
		};
	}
	const calls = read(target, '/api/test-calls', answer, TestCallAnswerSchema).calls;
	const outcomes: LiveOutcome[] = [];
	const findings: Omit<Finding, 'file'>[] = [];
	let networkFailure = false;
	for (const [index, c] of calls.entries()) {
		const sent = { request: index, method: c.request?.method ?? '', url: c.request?.url ?? '' };
		if ('error' in c) {
			const error = c.error;
			const notSent = NOT_SENT.has(error.code);
			if (!notSent) networkFailure = true;
			const what = c.request ? `${c.request.method} ${c.request.url}` : service;
			outcomes.push({ ...sent, error, ms: 0 });
			findings.push({
				severity: 'error',
				code: notSent ? 'live_refused' : 'live_network',
				message: error.message.startsWith(`${c.request?.method} `)
					? error.message
					: `${what}: ${error.message}`,
				service
			});
			continue;
		}
		const { status } = c.response;
		findings.push(...judgeAnswer(service, status, c.interpretation, expectations));
		outcomes.push({
			...sent,
			status,
			success: c.interpretation.success,
			summary: c.interpretation.summary,
			...(c.interpretation.shape ? { shape: c.interpretation.shape.shape.id } : {}),
			ms: Math.round(c.response.timings?.total ?? 0)
		});
	}
	return { outcomes, findings, networkFailure };
}

/** Error codes of a step that mean the network failed (as `--live`'s exit code 4). */
const NOT_NETWORK = new Set(['https_required', 'invalid_header', 'secret_origin']);

/** One flow run through the server: its steps for the report, and findings for what failed. */
export async function serverFlow(
	target: ServerTarget,
	flow: RunFlowName,
	document: unknown,
	values: Values
): Promise<{ outcome: FlowOutcome; findings: Omit<Finding, 'file'>[]; networkFailure: boolean }> {
	const body = flow === 'messaging' ? messagingBody(document, values) : { document, values };
	const answer = await call(target, `/api/flows/${flow}`, body);
	if (answer.status !== 200) {
		const { error, missing = [] } = read(target, `/api/flows/${flow}`, answer, ErrorAnswer);
		const message = missing.length
			? `The ${flow} flow needs values this run does not give: ${missing.map((m) => (m.service ? `${m.name} (${m.service})` : m.name)).join(', ')}. Give them with --value ${missing[0].name}=… or in the scenario file; nothing was sent.`
			: `The server refused the ${flow} flow (${answer.status} ${error.code}): ${error.message}`;
		return {
			outcome: { flow, ok: false, steps: [], refused: { code: error.code, message } },
			findings: [{ severity: 'error', code: `flow_${error.code}`, message, flow }],
			networkFailure: false
		};
	}
	const run = read(target, `/api/flows/${flow}`, answer, FlowRunSchema);
	const steps = run.steps;
	const findings: Omit<Finding, 'file'>[] = [];
	let networkFailure = false;
	for (const step of steps) {
		if (step.error && !NOT_NETWORK.has(step.error.code)) networkFailure = true;
		if (step.decision.status !== 'failed') continue;
		findings.push({
			severity: 'error',
			code: 'flow_step_failed',
			message: `${flow}: ${step.service}: ${step.decision.text} (contract: ${step.contractRow.table} › ${step.contractRow.id})`,
			service: step.service,
			flow
		});
	}
	const ok = run.ok;
	const round = flow === 'messaging' ? MessagingRunSchema.shape.result.safeParse(run.result) : null;
	for (const f of round?.data?.findings ?? []) {
		findings.push({
			severity: f.severity,
			code: `messaging_${f.check}`,
			message: `${flow}: ${f.message} (${f.source.kind === 'contract' ? 'contract' : f.source.kind}: ${f.source.ref})`,
			flow
		});
	}
	if (!ok && findings.length === 0) {
		findings.push({
			severity: 'error',
			code: 'flow_failed',
			message: round?.data
				? `${flow}: ${round.data.verdict}`
				: `${flow}: the journey did not go as the contract wants.`,
			flow
		});
	}
	return {
		outcome: {
			flow,
			ok,
			runId: run.id,
			steps: steps.map((s) => ({
				service: s.service,
				status: s.decision.status,
				text: s.decision.text,
				contractRow: s.contractRow.id,
				...(s.request ? { request: `${s.request.method} ${s.request.url}` } : {}),
				...(s.response?.status !== undefined ? { httpStatus: s.response.status } : {}),
				...(s.error ? { error: s.error } : {})
			}))
		},
		findings,
		networkFailure
	};
}

/** The values a flow runs with: the scenario's (without masks), the secrets, then `--value`s. */
export function flowValues(
	scenario: Values,
	secrets: Record<string, string>,
	given: Record<string, string | string[]>
): Values {
	const own = Object.entries(scenario).filter(([, v]) => v !== SECRET_MASK);
	return { ...Object.fromEntries(own), ...secrets, ...given } as Values;
}

/**
 * The messaging journey's body from flat values: `sender.username`, `sender.password`,
 * `sender.displayName`, the same for `recipient`, `sms_body`, `content_type`,
 * `disposition_notification`, `secondDevice` and `signOut` (true or 1), `pushTimeoutMs`, and
 * `sandboxId` (a file's document has no push settings to name one).
 */
export function messagingBody(document: unknown, values: Values): Record<string, unknown> {
	const text = (name: string) => {
		const value = values[name];
		return typeof value === 'string' ? value : Array.isArray(value) ? String(value[0]) : undefined;
	};
	const account = (who: string) => ({
		username: text(`${who}.username`),
		password: text(`${who}.password`),
		...(text(`${who}.displayName`) ? { displayName: text(`${who}.displayName`) } : {})
	});
	const timeout = text('pushTimeoutMs');
	return {
		document,
		...(text('sandboxId') ? { sandboxId: text('sandboxId') } : {}),
		values: {
			sender: account('sender'),
			recipient: account('recipient'),
			sms_body: text('sms_body'),
			...Object.fromEntries(
				(['content_type', 'disposition_notification'] as const).flatMap((name) =>
					text(name) === undefined ? [] : [[name, text(name)]]
				)
			),
			secondDevice: ['true', '1'].includes(text('secondDevice') ?? ''),
			signOut: ['true', '1'].includes(text('signOut') ?? ''),
			...(timeout ? { pushTimeoutMs: Number(timeout) } : {})
		}
	};
}
