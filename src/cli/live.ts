import { redactRequest, type BuiltRequest, type Values } from '$lib/core/request';
import { OutboundError, sendOutbound, type OutboundConfig } from '$lib/server/outbound';
import { envelope } from '$lib/server/test-calls/envelope';
import { REFUSING } from '$lib/server/test-calls/refusing';
import { answerResponse, digestCredentials, statusVerdict } from '$lib/server/test-calls/digest';
import type { Issue } from '$lib/core/issues';
import { judgeAnswer, type Expectation } from './expect';
import type { Finding, LiveOutcome } from './model';

/**
 * `check --live`: each rendered request goes through the app's outbound module (its address
 * policy and OUTBOUND_* limits, as test calls), and the answer is read by the core's response
 * interpreter, as the platform reads it. `--expect` rules add what a provider wants to hold.
 */

/** The build error that keeps a request from being sent, as it keeps a test call. */
export function refusal(issues: readonly Issue[]): Issue | undefined {
	return issues.find((i) => REFUSING.has(i.code) && i.severity === 'error');
}

/** The outcome of one live request and what it says about the service. */
export interface LiveResult {
	outcome: LiveOutcome;
	findings: Omit<Finding, 'file'>[];
	networkFailure: boolean;
}

/**
 * Sends one built request (the rendering's `index`th) and judges the answer. `forms` are every
 * form of the secrets the run carries: the answer, its interpretation and every message have
 * them masked. When the service's `settings` name Digest credentials, a challenge is answered
 * once, as the app answers it.
 */
export async function sendLive(
	service: string,
	request: BuiltRequest,
	index: number,
	values: Values,
	forms: readonly string[],
	config: OutboundConfig,
	expectations: readonly Expectation[],
	settings: Readonly<Record<string, string>> = {}
): Promise<LiveResult> {
	const credentials = digestCredentials({ service, settings });
	const redacted = redactRequest(request);
	const sent = { request: index, method: request.method, url: redacted.url };
	const started = performance.now();
	const send = (outgoing: BuiltRequest) =>
		sendOutbound(
			{ ...outgoing, shownUrl: redacted.url },
			{ policy: config.policy, limits: config.limits }
		);
	let received;
	let challenged: Issue | null = null;
	let shownForms = forms;
	try {
		received = await send(request);
		const challenge = credentials ? answerResponse(request, received, credentials) : null;
		if (challenge && challenge.kind !== 'none') challenged = challenge.issue;
		if (challenge?.kind === 'answer') {
			// The answer's hash and the password are masked like the run's other secrets.
			shownForms = [...forms, challenge.response, credentials!.password];
			received = await send(challenge.request);
			challenged = statusVerdict(received.status, credentials!) ?? challenge.issue;
		}
	} catch (error) {
		const failure =
			error instanceof OutboundError
				? error
				: OutboundError.from(error, { method: request.method, url: redacted.url });
		return {
			outcome: {
				...sent,
				error: { code: failure.code, message: failure.message },
				ms: Math.round(performance.now() - started)
			},
			findings: [
				{
					severity: 'error',
					code: 'live_network',
					message: failure.message.startsWith(`${request.method} `)
						? failure.message
						: `${request.method} ${redacted.url}: ${failure.message}`,
					service
				}
			],
			networkFailure: true
		};
	}
	const { response, interpretation: read } = envelope(
		service,
		{ ...received, received: received.rawBytes, via: 'network' },
		values,
		shownForms
	);
	const refused = challenged?.severity === 'error' ? challenged : null;
	const interpretation = refused ? { ...read, success: false, summary: refused.message } : read;
	const findings = judgeAnswer(service, response.status, interpretation, expectations);
	if (refused)
		findings.push({ severity: 'error', code: refused.code, message: refused.message, service });
	return {
		outcome: {
			...sent,
			status: response.status,
			success: interpretation.success,
			summary: interpretation.summary,
			...(interpretation.shape ? { shape: interpretation.shape.shape.id } : {}),
			ms: Math.round(performance.now() - started)
		},
		findings,
		networkFailure: false
	};
}
