import { isSecretKey, SECRET_MASK } from '$lib/core/profile';
import {
	buildRequests,
	maskSecretsIn,
	redactRequest,
	secretForms,
	shownOrigin,
	type BuildInput,
	type BuiltRequest,
	type Values
} from '$lib/core/request';
import type { Issue } from '$lib/core/issues';
import { sha1Hex } from '$lib/core/template';
import { auditEntry, recordAudit, type Actor } from '../audit';
import { sharedSlots, type SharedSlots } from '../platform/cluster';
import type { ServerContext } from '../platform/context';
import type { AuditEntry } from '../store/types';
import {
	InFlight,
	OutboundError,
	readOutboundConfig,
	sendOutbound,
	type OutboundConfig
} from '../outbound';
import { outgoingHeaders } from '../outbound/send';
import { previewRequest } from '../profiles/preview';
import { receiveAtSink, SINK_KEY, sinkAnswersWithBody } from '../sinks';
import { maskDigestResponse } from '$lib/core/request/digest';
import { envelope, type ReceivedResponse } from './envelope';
import { answerChallenge, answerVerdict, digestCredentials, withChallengeIssue } from './digest';
import type { CallResult } from './call-result';
import { CallInputError, type ResolvedCall } from './input';
import { REFUSING } from './refusing';

/**
 * Running a test call: the core builds the request(s) exactly as the preview shows them; each
 * goes through the outbound module (or, for this app's own sink, straight to the sink, without
 * a connection); the core interprets each answer. Secrets are masked in everything returned,
 * kept or audited: messages are built from the redacted request, and every form in which a
 * secret could come back (see `secretForms`) is masked in answers, errors, issues and audit
 * details.
 */

/**
 * Where the audit entries of a call's requests go: written at once (a flow's steps), or
 * collected to be written with the call's history row, in one write before the answer.
 */
export type AuditSink = Omit<AuditEntry, 'id'>[] | null;

/** A test call's answer. */
export interface TestCallAnswer {
	calls: CallResult[];
	issues: Issue[];
}

let config: OutboundConfig | undefined;
let inFlight: InFlight | undefined;
/** The same limit counted across the instances of the app on PostgreSQL. */
let sharedInFlight: SharedSlots | undefined;
/** Running calls by user and call id (ids are chosen by browsers: one user's never hide another's). */
const running = new Map<string, AbortController>();

function runningKey(userId: number, callId: string): string {
	return `${userId}:${callId}`;
}

/** The outbound configuration, read once. */
export function outboundConfig(): OutboundConfig {
	config ??= readOutboundConfig();
	if (!inFlight) {
		inFlight = new InFlight(config.maxInFlightPerUser);
		// A call's requests each end within the total time limit; a slot outlives a few of them.
		const holdSeconds = Math.max(60, Math.ceil((4 * config.limits.totalMs) / 1000));
		sharedInFlight = sharedSlots('test_calls', config.maxInFlightPerUser, holdSeconds);
	}
	return config;
}

/** Cancels a running call of this user; false when there is none with that id. */
export function cancelCall(userId: number, callId: string): boolean {
	const controller = running.get(runningKey(userId, callId));
	if (!controller) return false;
	controller.abort();
	return true;
}

/** The sink a URL points at when it is this app's own `/sink/<key>/…`. */
function sinkTarget(url: string, appOrigins: string[]): { key: string; path: string } | null {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return null;
	}
	// A URL with user info is refused by the outbound policy, the app's own sink included.
	if (parsed.username !== '' || parsed.password !== '') return null;
	if (!appOrigins.includes(parsed.origin)) return null;
	const match = /^\/sink\/([^/]+)(\/.*)?$/.exec(parsed.pathname);
	if (!match || !SINK_KEY.test(match[1])) return null;
	return { key: match[1], path: (match[2] ?? '') + parsed.search };
}

/**
 * Waits out a sink's delay as a slow server would be waited for: a cancel ends the wait, and a
 * delay past the overall limit ends as a timeout.
 */
function sinkDelay(
	shown: { method: string; url: string },
	delayMs: number,
	signal: AbortSignal
): Promise<void> {
	const limit = outboundConfig().limits.totalMs;
	return new Promise((resolve, reject) => {
		const done = () => {
			signal.removeEventListener('abort', cancel);
			if (delayMs <= limit) resolve();
			else reject(OutboundError.timedOut(shown, limit));
		};
		const timer = setTimeout(done, Math.min(delayMs, limit));
		const cancel = () => {
			clearTimeout(timer);
			reject(OutboundError.cancelled(shown));
		};
		signal.addEventListener('abort', cancel, { once: true });
	});
}

async function deliverToSink(
	ctx: ServerContext,
	request: BuiltRequest,
	shown: { method: string; url: string },
	target: { key: string; path: string },
	signal: AbortSignal,
	secrets: readonly string[]
): Promise<ReceivedResponse> {
	if (!['GET', 'HEAD', 'POST', 'PUT'].includes(request.method)) {
		throw new OutboundError('blocked_method', `${request.method} is not a method the callers use.`);
	}
	const started = performance.now();
	const body = new TextEncoder().encode(request.body ?? '');
	// The headers an HTTP client adds itself, as the sink would see them over the network.
	const headers = [
		{ name: 'Host', value: new URL(request.url).host },
		...Object.entries(outgoingHeaders(request.headers)).flatMap(([name, values]) =>
			values.map((value) => ({ name, value }))
		),
		...(request.body !== null ? [{ name: 'Content-Length', value: String(body.length) }] : [])
	];
	const answer = await receiveAtSink(ctx, target.key, {
		method: request.method,
		path: target.path,
		headers,
		body,
		via: 'test_call',
		ip: null,
		secrets
	});
	if (answer && answer.delayMs > 0) await sinkDelay(shown, answer.delayMs, signal);
	const status = answer?.status ?? 404;
	const text = answer ? answer.body : '{"error":{"code":"not_found","message":"No such sink."}}';
	const bytes = sinkAnswersWithBody(request.method, status)
		? new TextEncoder().encode(text)
		: new Uint8Array();
	const contentType = answer ? answer.contentType : 'application/json';
	const total = performance.now() - started;
	return {
		status,
		statusText: '',
		headers: [
			...(contentType ? [{ name: 'content-type', value: contentType }] : []),
			{ name: 'content-length', value: String(bytes.length) }
		],
		body: bytes,
		received: bytes.length,
		truncated: false,
		decodeError: null,
		timings: { dns: null, connect: null, tls: null, firstByte: total, total },
		address: null,
		via: 'sink'
	};
}

/**
 * The secret values of a scenario (the texts typed, before any encoding) and their SHA-1, which
 * stands for the password wherever a caller sends `%sha1(…)%`.
 */
function secretValues(values: Values): string[] {
	return Object.entries(values).flatMap(([key, value]) => {
		if (!isSecretKey(key) || typeof value !== 'string' || value === SECRET_MASK) return [];
		const hash = sha1Hex(value);
		return [value, hash, hash.toUpperCase()];
	});
}

async function callOne(
	ctx: ServerContext,
	actor: Actor,
	build: BuildInput & { service: string },
	request: BuiltRequest,
	forms: readonly string[],
	appOrigins: string[],
	signal: AbortSignal,
	audits: AuditSink
): Promise<CallResult> {
	const { policy, limits } = outboundConfig();
	const redacted = redactRequest(request);
	// A Digest answer is shown and kept with its response hash masked, as the password would be.
	redacted.headers = redacted.headers.map((h) =>
		h.name === 'Authorization'
			? { name: h.name, value: maskDigestResponse(h.value, SECRET_MASK) }
			: h
	);
	// Objects on a call's path are written out or assigned, not spread with more after: V8 (Node
	// 20) builds `{ ...a, b }` property by property, a microsecond or more each time.
	const shown = previewRequest(Object.assign({}, request, redacted));
	const target = { method: request.method, url: redacted.url };
	const sink = sinkTarget(request.url, appOrigins);
	const started = performance.now();
	const origin = shownOrigin(request);
	const audit = async (details: Record<string, string | number | null>) => {
		const masked = maskSecretsIn(details, forms);
		if (audits) audits.push(auditEntry(actor, 'test_call', build.service, masked));
		else await recordAudit(ctx.store, actor, 'test_call', build.service, masked);
	};
	// A cancelled call sends none of its remaining requests (a sink's included).
	if (signal.aborted) {
		const message = `${request.method} ${shown.url}: cancelled before it was sent.`;
		return { request: shown, error: { code: 'cancelled', message } };
	}
	try {
		const received = sink
			? await deliverToSink(ctx, request, target, sink, signal, forms)
			: await sendOutbound(
					{
						method: request.method,
						url: request.url,
						headers: request.headers,
						body: request.body,
						shownUrl: redacted.url
					},
					{ policy, limits, signal }
				).then((r): ReceivedResponse =>
					Object.assign(r, { received: r.rawBytes, via: 'network' as const })
				);
		const result = envelope(build.service, received, build.values, forms);
		await audit({
			method: request.method,
			origin,
			address: sink ? 'sink' : (received.address?.ip ?? null),
			status: received.status,
			bytes: received.received,
			ms: Math.round(performance.now() - started)
		});
		return { request: shown, ...result };
	} catch (error) {
		const failure = error instanceof OutboundError ? error : OutboundError.from(error, target);
		await audit({
			method: request.method,
			origin,
			error: failure.code,
			rule: failure.rule ?? null,
			address: failure.address ?? null,
			ms: Math.round(performance.now() - started)
		});
		const { code, message, rule, address } = failure;
		const shownError = {
			code,
			message,
			...(rule ? { rule } : {}),
			...(address ? { address } : {})
		};
		return { request: shown, error: maskSecretsIn(shownError, forms) };
	}
}

/** Why a call is not run: the user already has the most calls running. */
export class TooManyCallsError extends Error {}

/**
 * Builds and sends every request of a build in turn, as a test call does (a flow's steps too):
 * secrets masked in everything answered, a request that cannot be sent as written refused with
 * a {@link CallInputError} before anything is sent. The requests' audit entries go to `audits`
 * when given, else they are written as each request ends.
 */
export async function sendBuild(
	ctx: ServerContext,
	actor: Actor,
	build: BuildInput & { service: string },
	appOrigins: string[],
	signal: AbortSignal,
	audits: AuditSink = null
): Promise<TestCallAnswer> {
	const built = buildRequests(build);
	const credentials = digestCredentials(build);
	// Every form of every secret this call carries: sent (encoded, hashed) or typed.
	const forms = secretForms([
		...built.requests.flatMap((r) => redactRequest(r).secrets),
		...secretValues(build.values),
		...(credentials && credentials.password !== SECRET_MASK ? [credentials.password] : [])
	]);
	// Issues quote expanded URLs and headers: they are answered and kept with secrets masked.
	const issues = maskSecretsIn(built.issues, forms);
	// A header that cannot be sent as written, or a URL the caller refuses, refuses the whole
	// call: sending it anyway would test something else than what the caller does.
	const broken = issues.find((i) => REFUSING.has(i.code) && i.severity === 'error');
	if (broken) throw new CallInputError(400, REFUSING.get(broken.code)!, broken.message);
	const calls: CallResult[] = [];
	for (const request of built.requests) {
		const result = await callOne(ctx, actor, build, request, forms, appOrigins, signal, audits);
		const challenge = credentials ? answerChallenge(request, result, credentials) : null;
		if (!challenge || challenge.kind === 'none') {
			calls.push(result);
			continue;
		}
		calls.push(withChallengeIssue(result, challenge.issue));
		if (challenge.kind === 'refused') continue;
		// One answer, through the same sender and rules, with its hash masked like a secret.
		const answerForms = [...forms, challenge.response];
		const answer = await callOne(
			ctx,
			actor,
			build,
			challenge.request,
			answerForms,
			appOrigins,
			signal,
			audits
		);
		const verdict = answerVerdict(answer, credentials!);
		calls.push(verdict ? withChallengeIssue(answer, verdict) : answer);
	}
	return { calls, issues };
}

/** Takes one of the user's in-flight slots, or throws {@link TooManyCallsError}. */
export async function acquireSlot(userId: number): Promise<() => void> {
	outboundConfig();
	const tooMany = () =>
		new TooManyCallsError(`You have ${inFlight!.max} test calls running; wait for one to finish.`);
	if (!inFlight!.acquire(userId)) throw tooMany();
	// With several instances, the user's calls on all of them count (see cluster.ts).
	if (sharedInFlight && !(await sharedInFlight.acquire(String(userId)))) {
		inFlight!.release(userId);
		throw tooMany();
	}
	return () => {
		inFlight!.release(userId);
		void sharedInFlight?.release(String(userId));
	};
}

/**
 * Builds and sends every request of a call in turn. `appOrigins` are the origins under which
 * this app is reached (its sinks are called inside the app); `audits` as for {@link sendBuild}.
 */
export async function runTestCall(
	ctx: ServerContext,
	actor: Actor & { id: number },
	call: ResolvedCall,
	appOrigins: string[],
	callId: string | undefined,
	audits: AuditSink = null
): Promise<TestCallAnswer> {
	const release = await acquireSlot(actor.id);
	const controller = new AbortController();
	if (callId) running.set(runningKey(actor.id, callId), controller);
	try {
		return await sendBuild(ctx, actor, call.build, appOrigins, controller.signal, audits);
	} finally {
		if (callId) running.delete(runningKey(actor.id, callId));
		release();
	}
}
