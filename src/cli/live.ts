import { redactRequest, type BuiltRequest, type Values } from '$lib/core/request';
import { OutboundError, sendOutbound, type OutboundConfig } from '$lib/server/outbound';
import { envelope } from '$lib/server/test-calls/envelope';
import { REFUSING } from '$lib/server/test-calls/refusing';
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
 * them masked.
 */
export async function sendLive(
	service: string,
	request: BuiltRequest,
	index: number,
	values: Values,
	forms: readonly string[],
	config: OutboundConfig,
	expectations: readonly Expectation[]
): Promise<LiveResult> {
	const redacted = redactRequest(request);
	const sent = { request: index, method: request.method, url: redacted.url };
	const started = performance.now();
	let received;
	try {
		received = await sendOutbound(
			{ ...request, shownUrl: redacted.url },
			{ policy: config.policy, limits: config.limits }
		);
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
	const { response, interpretation } = envelope(
		service,
		{ ...received, received: received.rawBytes, via: 'network' },
		values,
		forms
	);
	const findings = judgeAnswer(service, response.status, interpretation, expectations);
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
