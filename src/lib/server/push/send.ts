import { z } from 'zod';
import {
	judgePushAnswer,
	PUSH_ENDPOINTS,
	PushEndpointSchema,
	pushHttpRequest,
	PushTargetSchema,
	type PushAnswerVerdicts,
	type PushHttpRequest,
	type PushTarget
} from '$lib/core/push';
import { recordAudit, type Actor } from '../audit';
import type { ServerContext } from '../platform/context';
import { InFlight, OutboundError, sendOutbound, type HeaderField } from '../outbound';
import { receivePush, SANDBOX_KEY, sandboxPlatform, sendToSandbox } from './sandboxes';
import { bodyText } from '../sinks';
import { outboundConfig } from '../test-calls/run';

/**
 * The push composer's sending: a composed push goes to one of the team's sandboxes (inside the
 * app, recorded like any push it receives) or to a real `push_url` through the outbound module
 * (its SSRF policy and time limits), and comes back with the request as sent, the response as
 * received and the verdict of each element.
 */

/** Where a composed push goes. */
export const PushSendTargetSchema = z.discriminatedUnion('kind', [
	z.strictObject({ kind: z.literal('sandbox'), sandboxId: z.string().min(1).max(100) }),
	z.strictObject({ kind: z.literal('url'), url: z.string().trim().min(1).max(2048) })
]);
export type PushSendTarget = z.infer<typeof PushSendTargetSchema>;

/** `POST /api/push`. */
export const PushSendInputSchema = z.strictObject({
	endpoint: PushEndpointSchema,
	body: z
		.unknown()
		.refine((value) => value !== undefined, 'Send the push as body.')
		.meta({
			description:
				'Any JSON value, sent as compact JSON as it is (an invalid push can be sent on purpose): one push object for `send`, a list for `multisend`.'
		}),
	target: PushSendTargetSchema.meta({
		description:
			'`{ "kind": "sandbox", "sandboxId" }`: delivered inside the app and recorded. `{ "kind": "url", "url" }`: a real `{push_url}`, sent to `<url>/pnm2/<endpoint>` with the test calls’ address policy and limits (a URL of this app’s own sandbox is delivered inside).'
	}),
	platform: PushTargetSchema.optional().meta({
		description:
			'The platform the verdicts assume for the Badge rule (a sandbox uses the one it gives each token).'
	})
});
export type PushSendInput = z.infer<typeof PushSendInputSchema>;

/** The response as received. */
export interface PushSendResponse {
	status: number;
	headers: HeaderField[];
	/** Text, or base64 when not UTF-8 (`bodyEncoding`). */
	body: string;
	bodyEncoding: 'text' | 'base64';
	truncated: boolean;
	/** Milliseconds from sending to the end of the answer. */
	ms: number;
	/** `sandbox`: delivered inside the app; `network`: sent through the outbound module. */
	via: 'sandbox' | 'network';
}

/** The answer of `POST /api/push`: a response and its verdicts, or why there is none. */
export interface PushSendAnswer {
	request: PushHttpRequest;
	target: { kind: 'sandbox'; id: string; name: string } | { kind: 'url'; origin: string };
	response: PushSendResponse | null;
	verdicts: PushAnswerVerdicts | null;
	error: { code: string; message: string; rule?: string; address?: string } | null;
}

/** Why a push is not sent at all: the API answers it with `status` and `code`. */
export class PushSendError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string
	) {
		super(message);
	}
}

let inFlight: InFlight | undefined;

/** The key of this app's own sandbox a URL points at, so it is delivered inside the app. */
function ownSandbox(url: string, appOrigins: string[]): { key: string; path: string } | null {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return null;
	}
	if (parsed.username !== '' || parsed.password !== '' || parsed.search !== '') return null;
	if (!appOrigins.includes(parsed.origin)) return null;
	const match = /^\/sandbox\/([^/]+)(\/.*)$/.exec(parsed.pathname);
	if (!match || !SANDBOX_KEY.test(match[1])) return null;
	return { key: match[1], path: match[2] };
}

async function received(response: Response, started: number): Promise<PushSendResponse> {
	const bytes = new Uint8Array(await response.arrayBuffer());
	const text = bodyText(bytes, false);
	return {
		status: response.status,
		headers: [...response.headers].map(([name, value]) => ({ name, value })),
		body: text.text,
		bodyEncoding: text.encoding,
		truncated: false,
		ms: Math.round(performance.now() - started),
		via: 'sandbox'
	};
}

function origin(url: string): string {
	try {
		const parsed = new URL(url);
		return parsed.origin === 'null' ? '(not a URL)' : parsed.origin;
	} catch {
		return '(not a URL)';
	}
}

function judge(
	input: PushSendInput,
	response: PushSendResponse,
	targetFor?: (token: string) => PushTarget
): PushAnswerVerdicts {
	const text = response.bodyEncoding === 'text' ? response.body : '(the answer is not UTF-8 text)';
	return judgePushAnswer(input.endpoint, input.body, response.status, text, {
		target: input.platform,
		targetFor
	});
}

/**
 * Sends a composed push and reads the answer. `appOrigins` are the origins under which this app
 * is reached: its own sandbox addresses are delivered inside the app. The audit records the
 * target (a sandbox id, or a URL's origin: a key in the path stays out of it), the endpoint,
 * the element count and the status, never the body.
 */
export async function sendComposedPush(
	ctx: ServerContext,
	actor: Actor & { id: number },
	input: PushSendInput,
	appOrigins: string[],
	appOrigin: string
): Promise<PushSendAnswer> {
	const config = outboundConfig();
	inFlight ??= new InFlight(config.maxInFlightPerUser);
	const elements = Array.isArray(input.body) ? input.body.length : 1;
	const path = PUSH_ENDPOINTS[input.endpoint].path;
	const started = performance.now();
	const audit = (target: string, details: Record<string, string | number | null>) =>
		recordAudit(ctx.store, actor, 'push.sent', target, {
			endpoint: input.endpoint,
			elements,
			...details,
			ms: Math.round(performance.now() - started)
		});

	if (input.target.kind === 'sandbox') {
		const sandbox = await ctx.store.sandboxes.get(input.target.sandboxId);
		if (!sandbox) throw new PushSendError(404, 'not_found', 'No such sandbox.');
		const request = pushHttpRequest(
			`${appOrigin}/sandbox/${sandbox.key}`,
			input.endpoint,
			input.body
		);
		const sent = await sendToSandbox(
			ctx,
			sandbox.id,
			{ path, method: 'POST', contentType: request.headers[0].value, body: request.body },
			actor.ip
		);
		if (!sent) throw new PushSendError(404, 'not_found', 'No such sandbox.');
		const response = await received(sent.response, started);
		await audit(`sandbox:${sandbox.id}`, { status: response.status });
		return {
			request,
			target: { kind: 'sandbox', id: sandbox.id, name: sandbox.name },
			response,
			verdicts: judge(input, response, (token) => sandboxPlatform(sent.settings, token)),
			error: null
		};
	}

	const pushUrl = input.target.url;
	const request = pushHttpRequest(pushUrl, input.endpoint, input.body);
	const target = { kind: 'url', origin: origin(pushUrl) } as const;
	const own = ownSandbox(request.url, appOrigins);
	if (own) {
		const response = await received(
			await receivePush(ctx, {
				key: own.key,
				path: own.path,
				method: 'POST',
				contentType: request.headers[0].value,
				contentLength: String(Buffer.byteLength(request.body)),
				body: new Blob([request.body]).stream(),
				ip: actor.ip
			}),
			started
		);
		await audit(target.origin, { status: response.status, address: 'sandbox' });
		return { request, target, response, verdicts: judge(input, response), error: null };
	}
	if (!inFlight.acquire(actor.id)) {
		throw new PushSendError(
			429,
			'too_many_calls',
			`You have ${inFlight.max} pushes on their way; wait for one to finish.`
		);
	}
	try {
		const answer = await sendOutbound(
			{ ...request, headers: request.headers },
			{ policy: config.policy, limits: config.limits }
		);
		const text = bodyText(answer.body, answer.truncated);
		const response: PushSendResponse = {
			status: answer.status,
			headers: answer.headers,
			body: text.text,
			bodyEncoding: text.encoding,
			truncated: answer.truncated,
			ms: Math.round(answer.timings.total),
			via: 'network'
		};
		await audit(target.origin, {
			status: response.status,
			address: answer.address?.ip ?? null
		});
		return { request, target, response, verdicts: judge(input, response), error: null };
	} catch (error) {
		const failure =
			error instanceof OutboundError
				? error
				: OutboundError.from(error, { method: 'POST', url: request.url });
		await audit(target.origin, {
			error: failure.code,
			rule: failure.rule ?? null,
			address: failure.address ?? null
		});
		const { code, message, rule, address } = failure;
		return {
			request,
			target,
			response: null,
			verdicts: null,
			error: { code, message, ...(rule ? { rule } : {}), ...(address ? { address } : {}) }
		};
	} finally {
		inFlight.release(actor.id);
	}
}
