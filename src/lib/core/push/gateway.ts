import { z } from '../zod';
import { CORE_ATTRIBUTES, isPushObject } from './checks';
import type { PushOutcomeId } from './outcomes';
import { PUSH_ENDPOINTS, PushEndpointSchema } from './reference';
import type { PushIssue, PushRequest, PushTarget } from './schema';
import { validatePush } from './validate';
import { describeValue, quote } from './words';

/**
 * The push gateway as a pure function: one HTTP request in, the HTTP status, JSON body and the
 * pushes that would go upstream out. It follows the contract's "Push gateway" Errors table row
 * by row, so a sandbox server only has to copy the request in and the answer out.
 */

/** The parts of an HTTP request the gateway looks at. */
export const GatewayRequestSchema = z.object({
	endpoint: PushEndpointSchema,
	method: z.string(),
	/** The Content-Type header as sent, or null when there is none. */
	contentType: z.string().nullable(),
	body: z.string()
});
export type GatewayRequest = z.infer<typeof GatewayRequestSchema>;

/**
 * What the simulated upstream push service says about an application id and device token:
 * `unregistered` (the token is no longer registered), `unknown-app` (application id not
 * registered at the push service), `upstream-error` (the upstream service answered an error).
 */
export const TokenLookupSchema = z.enum(['ok', 'unregistered', 'unknown-app', 'upstream-error']);
export type TokenLookup = z.infer<typeof TokenLookupSchema>;

/**
 * Options of `gatewayRespond`. `target` decides the Badge rule (default `unknown`, where a
 * missing Badge is only a warning); `targetFor` decides it per DeviceToken instead (a sandbox
 * knows the platform of each device it simulates); `lookupToken` simulates the upstream service
 * (default: every token is `ok`). A lookup that throws or answers something else is a problem
 * inside the gateway (HTTP 500).
 */
export interface GatewayOptions {
	target?: PushTarget;
	targetFor?: (deviceToken: string) => PushTarget;
	lookupToken?: (appId: string, deviceToken: string) => TokenLookup;
}

/** The gateway's response object. The contract's worked examples call `status` `code`. */
export const GatewayResponseObjectSchema = z.object({
	status: z.number().int(),
	response: z.string()
});
export type GatewayResponseObject = z.infer<typeof GatewayResponseObjectSchema>;

/** A push the gateway would send upstream: its place in the request, the object, its warnings. */
export interface ValidPush {
	/** Position in the multisend list; 0 for a single push. */
	index: number;
	request: PushRequest;
	/** Warnings and infos; paths start with `index` on multisend. */
	issues: PushIssue[];
}

/** Which Errors-table row produced an answer: for the whole request (`index` null) or one push. */
export interface GatewayTraceEntry {
	index: number | null;
	outcome: PushOutcomeId;
	status: number;
	issues: PushIssue[];
}

/**
 * The gateway's answer. `body` is the JSON value to send (a response object, or a list of them
 * for multisend with HTTP 200); `pushes` are the pushes that would be sent; `trace` ties every
 * answer to its row of `PUSH_GATEWAY_OUTCOMES`.
 */
export interface GatewayReply {
	httpStatus: number;
	contentType: 'application/json';
	body: unknown | null;
	pushes: ValidPush[];
	trace: GatewayTraceEntry[];
}

/** Whether a Content-Type header is JSON: `application/json`, any case, parameters allowed. */
export function isJsonContentType(contentType: string | null): boolean {
	if (contentType === null) return false;
	return contentType.split(';')[0].trim().toLowerCase() === 'application/json';
}

interface Answer {
	response: GatewayResponseObject;
	push?: ValidPush;
	trace: GatewayTraceEntry;
}

function httpError(httpStatus: 400 | 500, outcome: PushOutcomeId, response: string): GatewayReply {
	return {
		httpStatus,
		contentType: 'application/json',
		body: { status: httpStatus, response },
		pushes: [],
		trace: [{ index: null, outcome, status: httpStatus, issues: [] }]
	};
}

function answer(
	index: number,
	status: number,
	outcome: PushOutcomeId,
	response: string,
	issues: PushIssue[]
): Answer {
	return { response: { status, response }, trace: { index, outcome, status, issues } };
}

/** The target of a push by its DeviceToken, `unknown` when the token cannot be read. */
function targetOf(value: unknown, targetFor: (deviceToken: string) => PushTarget): PushTarget {
	let token: unknown;
	try {
		token = isPushObject(value) ? value.DeviceToken : undefined;
	} catch {
		return 'unknown';
	}
	return typeof token === 'string' ? targetFor(token) : 'unknown';
}

function answerPush(value: unknown, index: number, prefix: boolean, options: GatewayOptions) {
	const target = options.targetFor ? targetOf(value, options.targetFor) : options.target;
	const checked = validatePush(value, { target });
	const issues = checked.issues.map((i) => (prefix ? { ...i, path: [index, ...i.path] } : i));
	if (!checked.ok) {
		const errors = issues.filter((i) => i.severity === 'error');
		const text = (list: PushIssue[]) => `No push was sent. ${list.map((i) => i.message).join(' ')}`;
		if (!isPushObject(value)) {
			return answer(index, 400, 'multisend_non_object_element', text(errors), issues);
		}
		const core = errors.filter(
			(i) => i.code === 'unreadable_value' || CORE_ATTRIBUTES.includes(String(i.path.at(-1)))
		);
		if (core.length > 0) return answer(index, 400, 'missing_core_attribute', text(core), issues);
		// 404 because it is the one integer the contract names for the "missing data" row; 400
		// stays reserved for the rows where the gateway cannot even tell what to send where.
		return answer(index, 404, 'missing_data', text(errors), issues);
	}
	const request = checked.value;
	const lookup = options.lookupToken
		? options.lookupToken(request.AppId, request.DeviceToken)
		: 'ok';
	switch (lookup) {
		case 'ok':
			return {
				...answer(
					index,
					200,
					'accepted',
					'Accepted by the upstream push service. This does not mean the device has received it.',
					issues
				),
				push: { index, request, issues }
			};
		case 'unregistered':
			return answer(
				index,
				404,
				'token_unregistered',
				'The DeviceToken is no longer registered at the upstream push service. Do not send pushes to this token again.',
				issues
			);
		case 'unknown-app':
			return answer(
				index,
				404,
				'missing_data',
				`The application id ${quote(request.AppId)} is not registered at the push service.`,
				issues
			);
		case 'upstream-error':
			// 500, the contract's remaining response integer: unlike 404 it does not suggest that
			// the push or the token is wrong, so a provider may send the push again later.
			return answer(
				index,
				500,
				'missing_data',
				'The upstream push service answered with an error; the push was not accepted.',
				issues
			);
		default:
			throw new Error(`lookupToken answered ${String(lookup)}`);
	}
}

function respondSingle(parsed: unknown, options: GatewayOptions): GatewayReply {
	if (!isPushObject(parsed)) {
		const hint = Array.isArray(parsed) ? ' Send lists to /pnm2/multisend.' : '';
		return httpError(
			400,
			'bad_request',
			`The body of /pnm2/send must be one JSON object, but it is ${describeValue(parsed)}.${hint}`
		);
	}
	const result: Answer = answerPush(parsed, 0, false, options);
	return {
		httpStatus: 200,
		contentType: 'application/json',
		body: result.response,
		pushes: result.push ? [result.push] : [],
		trace: [result.trace]
	};
}

function respondMultiple(parsed: unknown, options: GatewayOptions): GatewayReply {
	if (parsed === null) {
		return httpError(
			400,
			'multisend_bare_null',
			'The body of /pnm2/multisend is null; it must be a list of push objects.'
		);
	}
	const list = Array.isArray(parsed) ? parsed : isPushObject(parsed) ? [parsed] : undefined;
	if (!list) {
		return httpError(
			400,
			'bad_request',
			`The body of /pnm2/multisend must be a list of push objects, but it is ${describeValue(parsed)}.`
		);
	}
	const results: Answer[] = list.map((element, index) => answerPush(element, index, true, options));
	return {
		httpStatus: 200,
		contentType: 'application/json',
		body: results.map((r) => r.response),
		pushes: results.flatMap((r) => (r.push ? [r.push] : [])),
		trace: results.map((r) => r.trace)
	};
}

function respond(input: GatewayRequest, options: GatewayOptions): GatewayReply {
	const { endpoint, method, contentType, body } = input;
	if (!Object.hasOwn(PUSH_ENDPOINTS, endpoint)) throw new Error(`No endpoint ${String(endpoint)}`);
	// Methods are case-sensitive in HTTP, so `post` is not POST.
	if (method !== 'POST') {
		return httpError(
			400,
			'bad_request',
			`The push gateway accepts only POST requests; this one used ${quote(String(method))}.`
		);
	}
	if (!isJsonContentType(contentType)) {
		return httpError(
			400,
			'bad_request',
			contentType === null
				? 'The Content-Type header is missing; it must be application/json.'
				: `The Content-Type must be application/json, but it is ${quote(contentType)}.`
		);
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(body);
	} catch (error) {
		const reason = body.trim() === '' ? 'it is empty' : String((error as Error).message);
		return httpError(400, 'bad_request', `The body is not valid JSON: ${reason}.`);
	}
	return endpoint === 'send' ? respondSingle(parsed, options) : respondMultiple(parsed, options);
}

/**
 * Answers one HTTP request to the push gateway as the contract's Errors table says. Not POST,
 * not an `application/json` Content-Type (parameters and any case accepted) or invalid JSON:
 * HTTP 400 with `{status: 400, response}` on both endpoints. Otherwise HTTP 200 with one response
 * object (send) or a list of them in request order (multisend; one object counts as a list of
 * one). Never throws: any failure inside, a failing `lookupToken` included, is HTTP 500 and
 * then no push counts as sent.
 */
export function gatewayRespond(input: GatewayRequest, options: GatewayOptions = {}): GatewayReply {
	try {
		return respond(input, options ?? {});
	} catch {
		return httpError(
			500,
			'gateway_problem',
			'The push gateway had an internal problem; no push is confirmed. Try again later.'
		);
	}
}
