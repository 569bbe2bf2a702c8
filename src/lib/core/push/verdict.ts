import { z } from '../zod';
import { interpretGatewayResponse, readResponseObject, type PushVerdict } from './interpret';
import { PUSH_ANSWER_VERDICTS, type PushAnswerVerdictId } from './outcomes';
import type { PushEndpoint } from './reference';
import type { PushTarget } from './schema';
import { validatePush } from './validate';
import { isPushObject } from './checks';

/**
 * What a provider's code does with the gateway's answer to one element: the verdict. It joins
 * the answer as read (`interpretGatewayResponse`) with the element as sent, checked by the
 * core's validator, so *fix the request* names the attribute to fix.
 */

/** An attribute to fix, with the validator's words. */
export const PushFixSchema = z.object({ attribute: z.string(), message: z.string() });
export type PushFix = z.infer<typeof PushFixSchema>;

/** The verdict of one element's answer. */
export const PushElementVerdictSchema = z.object({
	/** Position in the request (0 for a single push). */
	index: z.number().int(),
	verdict: z.enum(['accepted', 'stop_sending', 'fix_request', 'retry_later', 'unknown']).meta({
		description:
			'`accepted`: status 200, accepted upstream, not delivered. `stop_sending`: status 404 whose text says the token is no longer registered. `fix_request`: status 400 or another 404, or HTTP 4xx for the whole request (`fix` names what to fix). `retry_later`: status 500, HTTP 5xx or HTTP 429. `unknown`: an answer that cannot be read, or no response object for that element.'
	}),
	/** The verdict's title from `PUSH_ANSWER_VERDICTS`. */
	title: z.string(),
	/** What the provider's code should do, in words. */
	action: z.string(),
	/** The response object's integer (from `status` or `code`), or null. */
	status: z.number().int().nullable(),
	/** The gateway's `response` string, or empty. */
	text: z.string(),
	fix: z.array(PushFixSchema).meta({
		description:
			'For `fix_request`: the attributes the core’s validator finds wrong in the element.'
	}),
	/** Why this verdict, in one or two sentences. */
	reason: z.string()
});
export type PushElementVerdict = z.infer<typeof PushElementVerdictSchema>;

/** The verdicts of a whole answer: one per element sent, in order. */
export interface PushAnswerVerdicts {
	endpoint: PushEndpoint;
	httpStatus: number;
	elements: PushElementVerdict[];
	/** The interpreter's summary sentence. */
	summary: string;
}

/**
 * Options: the device platform assumed (`target`, default `unknown`), or the platform of each
 * device token (`targetFor`, as a sandbox knows it), which decide the Badge rule.
 */
export interface JudgeOptions {
	target?: PushTarget;
	targetFor?: (deviceToken: string) => PushTarget;
}

function targetOf(element: unknown, options: JudgeOptions): PushTarget {
	const fallback = options.target ?? 'unknown';
	if (!options.targetFor || !isPushObject(element)) return fallback;
	const token = Object.hasOwn(element, 'DeviceToken') ? element.DeviceToken : undefined;
	return typeof token === 'string' ? options.targetFor(token) : fallback;
}

const APP_ID_TEXT = /\bapp(lication)?[\s-]?id\b/i;

function verdict(
	index: number,
	id: PushAnswerVerdictId,
	read: Pick<PushVerdict, 'status' | 'text'>,
	reason: string,
	fix: PushFix[] = []
): PushElementVerdict {
	const words = PUSH_ANSWER_VERDICTS[id];
	return {
		index,
		verdict: id,
		title: words.title,
		action: words.action,
		status: read.status,
		text: read.text,
		fix,
		reason
	};
}

/** The attributes the validator finds wrong in an element as sent (errors only). */
export function fixesOf(element: unknown, target: PushTarget = 'unknown'): PushFix[] {
	if (element === undefined) return [];
	const checked = validatePush(element, { target });
	return checked.issues
		.filter((i) => i.severity === 'error')
		.map((i) => ({ attribute: i.field ?? '(the element)', message: i.message }));
}

/** The verdict of an element whose response object was read. */
function judgeElement(
	index: number,
	element: unknown,
	read: PushVerdict,
	options: JudgeOptions
): PushElementVerdict {
	const target = targetOf(element, options);
	const status = read.status;
	if (status === 200) {
		return verdict(index, 'accepted', read, PUSH_ANSWER_VERDICTS.accepted.meaning);
	}
	if (status === 404 && read.stopSendingToToken) {
		return verdict(index, 'stop_sending', read, PUSH_ANSWER_VERDICTS.stop_sending.meaning);
	}
	if (status === 400 || status === 404) {
		const fix = fixesOf(element, target);
		if (fix.length > 0) {
			const names = [...new Set(fix.map((f) => f.attribute))].join(', ');
			return verdict(index, 'fix_request', read, `Fix ${names} and send again.`, fix);
		}
		if (APP_ID_TEXT.test(read.text)) {
			const message = `The gateway says: ${read.text || 'the application id is not registered.'}`;
			return verdict(
				index,
				'fix_request',
				read,
				'Register the application id at the push service, or send the one that is.',
				[{ attribute: 'AppId', message }]
			);
		}
		return verdict(
			index,
			'fix_request',
			read,
			`Status ${status}: the gateway found data missing or unusable that this check cannot name; read its text.`
		);
	}
	if (status !== null && status >= 500 && status < 600) {
		return verdict(index, 'retry_later', read, PUSH_ANSWER_VERDICTS.retry_later.meaning);
	}
	return verdict(index, 'unknown', read, read.meaning);
}

/** The elements of a request body as sent: a list for multisend, one object for send. */
function elementsOf(endpoint: PushEndpoint, sent: unknown): unknown[] {
	if (endpoint === 'send') return [sent];
	if (Array.isArray(sent)) return sent;
	return sent === undefined || sent === null ? [] : [sent];
}

/**
 * The verdict of every element of a request: `sent` is the body as sent (parsed JSON, or
 * undefined when it was not JSON), `httpStatus` and `bodyText` the answer as received. A
 * non-2xx answer applies to every element: 5xx and 429 *try again later*, other codes *fix the
 * request* (the whole request: method, Content-Type or JSON). An element the answer holds no
 * object for is `unknown`.
 */
export function judgePushAnswer(
	endpoint: PushEndpoint,
	sent: unknown,
	httpStatus: number,
	bodyText: string,
	options: JudgeOptions = {}
): PushAnswerVerdicts {
	const read = interpretGatewayResponse(endpoint, httpStatus, bodyText);
	const elements = elementsOf(endpoint, sent);
	const count = Math.max(elements.length, 1);
	const base = { endpoint, httpStatus, summary: read.summary.text };
	if (httpStatus < 200 || httpStatus >= 300) {
		const object = readResponseObject(safeParse(bodyText));
		const whole = { status: object.status ?? httpStatus, text: object.text };
		const retry = httpStatus >= 500 || httpStatus === 429;
		const list = Array.from({ length: count }, (_, index) => {
			if (retry) {
				const reason =
					httpStatus === 429
						? 'HTTP 429: the gateway limits how often it is called; wait as its Retry-After header says.'
						: `HTTP ${httpStatus}: ${PUSH_ANSWER_VERDICTS.retry_later.meaning}`;
				return verdict(index, 'retry_later', whole, reason);
			}
			const fix = fixesOf(elements[index], targetOf(elements[index], options));
			return verdict(
				index,
				'fix_request',
				whole,
				`HTTP ${httpStatus}: the gateway refused the request as a whole (not POST, not an application/json Content-Type, or not JSON of the right shape).`,
				fix
			);
		});
		return { ...base, elements: list };
	}
	const answered = read.pushes.map((p, index) => judgeElement(index, elements[index], p, options));
	for (let index = answered.length; index < elements.length; index++) {
		answered.push(
			verdict(
				index,
				'unknown',
				{ status: null, text: '' },
				'The answer holds no response object for this element, so it is unknown whether it was sent.'
			)
		);
	}
	return { ...base, elements: answered };
}

function safeParse(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}
