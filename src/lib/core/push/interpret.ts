import { z } from '../zod';
import { PushEndpointSchema, type PushEndpoint } from './reference';

/**
 * What a provider should conclude from the gateway's answer: which pushes were accepted, which
 * tokens to drop, and what the HTTP status says about the request as a whole.
 */

/** The conclusion for one push. `status` is read from `status`, or else from `code`. */
export const PushVerdictSchema = z.object({
	accepted: z.boolean(),
	status: z.number().int().nullable(),
	/** The gateway's `response` string, or empty. */
	text: z.string(),
	stopSendingToToken: z.boolean(),
	/** What the status means, in words. */
	meaning: z.string()
});
export type PushVerdict = z.infer<typeof PushVerdictSchema>;

/** The overall conclusion. */
export const GatewayVerdictSchema = z.enum([
	'accepted',
	'partly_accepted',
	'not_accepted',
	'empty',
	'rejected',
	'gateway_error',
	'unreadable'
]);
export type GatewayVerdict = z.infer<typeof GatewayVerdictSchema>;

/** An answer of the gateway explained. Indexes in `stopSendingTo` count from 0. */
export const GatewayInterpretationSchema = z.object({
	endpoint: PushEndpointSchema,
	httpStatus: z.number(),
	pushes: z.array(PushVerdictSchema),
	summary: z.object({
		verdict: GatewayVerdictSchema,
		text: z.string(),
		accepted: z.number().int(),
		notAccepted: z.number().int(),
		stopSendingTo: z.array(z.number().int())
	}),
	notes: z.array(z.string())
});
export type GatewayInterpretation = z.infer<typeof GatewayInterpretationSchema>;

const NOT_DELIVERY =
	'Status 200 means the upstream push service accepted the push, not that the device received it.';

const MEANINGS: Record<number, string> = {
	200: 'Accepted by the upstream push service. This is not a delivery receipt.',
	400: 'Not sent: verb, AppId or DeviceToken is missing or unusable, or the element is not an object. Sending it again unchanged fails again.',
	500: 'Not sent: the gateway or the upstream push service had a problem. Sending it again later may work.'
};

const MEANING_404 =
	'Not sent: data is missing in the object, the application id is not registered at the push service, or the upstream service answered with an error.';
const MEANING_GONE =
	'The device token is no longer registered: send no more pushes to it until the app reports a new token.';

function readInteger(value: unknown): number | null {
	if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
	// Some gateways and proxies quote numbers; a three-digit string is read as the integer.
	if (typeof value === 'string' && /^\s*\d{3}\s*$/.test(value)) return Number(value);
	return null;
}

function field(object: object, name: string): unknown {
	return Object.hasOwn(object, name) ? (object as Record<string, unknown>)[name] : undefined;
}

/**
 * Whether a 404 text says the device token is gone. The contract uses 404 for several causes,
 * and dropping a good token loses the user's notifications, so only a sentence that names the
 * token and then calls it unregistered (or the platform reasons `Unregistered`,
 * `BadDeviceToken`) stops sending; a text about the application id never does.
 */
export function saysTokenUnregistered(text: string): boolean {
	if (/^\W*(un|not)registered\W*$/i.test(text) || /baddevicetoken/i.test(text)) return true;
	if (/\bapp(lication)?[\s-]?id\b/i.test(text)) return false;
	return /token\b[^.]*?(no longer|not|un|de)[\s-]*registered/i.test(text);
}

/** Reads one response object (or anything in its place) into a verdict. */
export function readResponseObject(value: unknown): PushVerdict {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return {
			accepted: false,
			status: null,
			text: '',
			stopSendingToToken: false,
			meaning: 'This is not a response object, so nothing is known about this push.'
		};
	}
	const status = readInteger(field(value, 'status')) ?? readInteger(field(value, 'code'));
	const response = field(value, 'response');
	const text = typeof response === 'string' ? response : '';
	const stop = status === 404 && saysTokenUnregistered(text);
	const meaning =
		status === null
			? 'There is no integer status (or code), so the answer cannot be read; treat the push as not accepted.'
			: status === 404
				? stop
					? MEANING_GONE
					: MEANING_404
				: (MEANINGS[status] ??
					`Status ${status} is not one the contract lists (200, 400, 404, 500); treat the push as not accepted.`);
	return { accepted: status === 200, status, text, stopSendingToToken: stop, meaning };
}

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch {
		return { ok: false };
	}
}

function summarize(pushes: PushVerdict[]): GatewayInterpretation['summary'] {
	const accepted = pushes.filter((p) => p.accepted).length;
	const stopSendingTo = pushes.flatMap((p, i) => (p.stopSendingToToken ? [i] : []));
	const verdict: GatewayVerdict =
		pushes.length === 0
			? 'empty'
			: accepted === pushes.length
				? 'accepted'
				: accepted > 0
					? 'partly_accepted'
					: 'not_accepted';
	const counted =
		pushes.length === 0
			? 'The answer holds no pushes.'
			: `${accepted} of ${pushes.length} push${pushes.length === 1 ? '' : 'es'} accepted by the upstream push service.`;
	const stop = stopSendingTo.length
		? ` Stop sending to the device token of push ${stopSendingTo.map((i) => i + 1).join(', ')} (counting from 1).`
		: '';
	return {
		verdict,
		text: counted + stop,
		accepted,
		notAccepted: pushes.length - accepted,
		stopSendingTo
	};
}

function whole(
	verdict: GatewayVerdict,
	text: string,
	pushes: PushVerdict[]
): GatewayInterpretation['summary'] {
	return { verdict, text, accepted: 0, notAccepted: pushes.length, stopSendingTo: [] };
}

/**
 * Explains an answer of the gateway for `endpoint`. HTTP 2xx: the body is read as one response
 * object (send) or a list of them (multisend; one object is read as a list of one), with the
 * integer taken from `status` or else `code`. Any other 1xx–4xx: the request was rejected as a
 * whole (send), or, for multisend, nothing is known because such a body has no guaranteed
 * content. 5xx: a problem inside the gateway. For send, `pushes` always holds one verdict.
 */
export function interpretGatewayResponse(
	endpoint: PushEndpoint,
	httpStatus: number,
	bodyText: string
): GatewayInterpretation {
	const notes = [NOT_DELIVERY];
	const single = endpoint !== 'multisend';
	const parsed = parse(typeof bodyText === 'string' ? bodyText : '');
	const base = { endpoint: single ? 'send' : 'multisend', httpStatus, notes } as const;
	const ok = httpStatus >= 200 && httpStatus < 300;
	if (!ok) {
		const serverError = httpStatus >= 500 && httpStatus < 600;
		const verdict: GatewayVerdict = serverError ? 'gateway_error' : 'rejected';
		const text = serverError
			? `HTTP ${httpStatus}: a problem inside the gateway. No push is confirmed; send again later.`
			: single
				? `HTTP ${httpStatus}: the gateway rejected the request as a whole (not POST, not an application/json Content-Type, or not valid JSON). No push was sent.`
				: `HTTP ${httpStatus}: the gateway rejected the whole list (not POST, not an application/json Content-Type, not valid JSON, or not a list). Such an answer has no guaranteed content, so its body is not read.`;
		const pushes = single ? [{ ...readError(parsed), meaning: text }] : [];
		return { ...base, pushes, summary: whole(verdict, text, pushes) };
	}
	if (!parsed.ok) {
		const text = `HTTP ${httpStatus}, but the body is not JSON, so it is unknown which pushes were accepted.`;
		const pushes = single ? [readResponseObject(undefined)] : [];
		return { ...base, pushes, summary: whole('unreadable', text, pushes) };
	}
	if (single) {
		const pushes = [readResponseObject(parsed.value)];
		const summary = summarize(pushes);
		return pushes[0].status === null
			? { ...base, pushes, summary: { ...summary, verdict: 'unreadable' } }
			: { ...base, pushes, summary };
	}
	const list = Array.isArray(parsed.value)
		? parsed.value
		: typeof parsed.value === 'object' && parsed.value !== null
			? [parsed.value]
			: undefined;
	if (!list) {
		const text = `HTTP ${httpStatus}, but the body is not a list of response objects, so it is unknown which pushes were accepted.`;
		return { ...base, pushes: [], summary: whole('unreadable', text, []) };
	}
	if (!Array.isArray(parsed.value)) {
		notes.push('The gateway answered one object instead of a list; it is read as a list of one.');
	}
	const pushes = list.map(readResponseObject);
	return { ...base, pushes, summary: summarize(pushes) };
}

function readError(parsed: { ok: true; value: unknown } | { ok: false }): PushVerdict {
	const verdict = readResponseObject(parsed.ok ? parsed.value : undefined);
	return { ...verdict, accepted: false, stopSendingToToken: false };
}
