import { z } from '../zod';

/**
 * The contract's "Push gateway" Errors table as data, one entry per row, so the UI can show the
 * row a sandbox answer came from and the tests can prove each row is covered.
 */

/** The id of one row of the Errors table. */
export const PushOutcomeIdSchema = z.enum([
	'accepted',
	'missing_core_attribute',
	'missing_data',
	'token_unregistered',
	'bad_request',
	'gateway_problem',
	'multisend_non_object_element',
	'multisend_bare_null',
	'multisend_list_with_null'
]);
export type PushOutcomeId = z.infer<typeof PushOutcomeIdSchema>;

/** One row of the Errors table, plus what this model answers for it. */
export const PushOutcomeSchema = z.object({
	id: PushOutcomeIdSchema,
	/** The contract's "Condition" column, verbatim. */
	condition: z.string(),
	/** The contract's "Result" column, verbatim. */
	result: z.string(),
	/** What `gatewayRespond` answers, including the choices where the contract is silent. */
	model: z.string()
});
export type PushOutcome = z.infer<typeof PushOutcomeSchema>;

/** The contract's "Push gateway" Errors table, in contract order. */
export const PUSH_GATEWAY_OUTCOMES: readonly PushOutcome[] = [
	{
		id: 'accepted',
		condition: 'Valid request accepted upstream',
		result: 'HTTP 2xx, status 200.',
		model: 'HTTP 200 with {status: 200, response}. Accepted upstream does not mean delivered.'
	},
	{
		id: 'missing_core_attribute',
		condition: 'Missing attribute among verb, AppId, DeviceToken',
		result: 'No push is sent.',
		model:
			'No push is sent; HTTP 200 with status 400 and a response naming the attribute. An empty, mistyped or unknown verb, AppId or DeviceToken counts as missing.'
	},
	{
		id: 'missing_data',
		condition:
			'Missing data in an object, an application id not registered at the push service, or an error answer from an upstream service',
		result:
			'HTTP 2xx with the response object carrying an error integer (for example 404) and an error string.',
		model:
			'HTTP 200 with status 404 for missing or invalid data (Selector, Badge on platform A 13+, Message of a generic text) and for an application id not registered; status 500 for an error answer from the upstream service.'
	},
	{
		id: 'token_unregistered',
		condition: 'DeviceToken no longer registered at the upstream service',
		result: 'Status 404 in the response object; no more pushes should be sent to that token.',
		model:
			'HTTP 200 with status 404 and a response saying the token is no longer registered and must not be used again.'
	},
	{
		id: 'bad_request',
		condition: 'Request is not valid JSON, is not POST, or lacks the proper Content-Type',
		result:
			'Non-2xx HTTP response (described as 400 Bad Request) for single push; for multisend non-2xx with no guarantee of code or content type.',
		model:
			'HTTP 400 with {status: 400, response} on both endpoints; also when the JSON is not the shape of the endpoint (not one object for send, not a list or object for multisend).'
	},
	{
		id: 'gateway_problem',
		condition: 'Problem inside the gateway',
		result: 'HTTP 5xx (500 Internal Server Error).',
		model: 'HTTP 500 with {status: 500, response}, for example when the token lookup fails.'
	},
	{
		id: 'multisend_non_object_element',
		condition: 'multisend: a list element that is not an object (for example null)',
		result:
			"That element's response object has status 400 and an error string; the others are handled normally.",
		model: 'HTTP 200; that element answers status 400, every other element its own answer.'
	},
	{
		id: 'multisend_bare_null',
		condition: 'multisend: the body is the bare value null',
		result: 'HTTP 400.',
		model: 'HTTP 400 with {status: 400, response}; the same for any other bare non-object value.'
	},
	{
		id: 'multisend_list_with_null',
		condition: 'multisend: the body is a list with one null',
		result: 'A list with one response object.',
		model: 'HTTP 200 with a list holding one response object of status 400.'
	}
];

/** The Errors-table row with this id. */
export function pushGatewayOutcome(id: PushOutcomeId): PushOutcome {
	return PUSH_GATEWAY_OUTCOMES.find((o) => o.id === id) ?? PUSH_GATEWAY_OUTCOMES[0];
}

/** The verdicts a provider's code acts on, one per way of handling an element's answer. */
export const PushAnswerVerdictIdSchema = z.enum([
	'accepted',
	'stop_sending',
	'fix_request',
	'retry_later',
	'unknown'
]);
export type PushAnswerVerdictId = z.infer<typeof PushAnswerVerdictIdSchema>;

/** The words of one verdict: a short title, what to do, and what it means. */
export const PushAnswerVerdictWordsSchema = z.object({
	title: z.string(),
	action: z.string(),
	meaning: z.string(),
	/** How the UI marks it: a success, a danger or a warning, or neutral. */
	tone: z.enum(['success', 'danger', 'warning', 'neutral'])
});
export type PushAnswerVerdictWords = z.infer<typeof PushAnswerVerdictWordsSchema>;

/** The verdict words, read by the composer, the API and the tests. */
export const PUSH_ANSWER_VERDICTS: Readonly<Record<PushAnswerVerdictId, PushAnswerVerdictWords>> = {
	accepted: {
		title: 'Accepted upstream, not delivered',
		action: 'Nothing to do: the push is on its way.',
		meaning:
			'Status 200: the upstream push service accepted the push. This is not a delivery receipt: the device may be off, and the platform may delay or drop the push.',
		tone: 'success'
	},
	stop_sending: {
		title: 'Stop sending to this token',
		action: 'Remove this device token; send to it again only when the app reports it anew.',
		meaning:
			'Status 404: the device token is no longer registered at the upstream push service (the app was removed or the token changed).',
		tone: 'danger'
	},
	fix_request: {
		title: 'Fix the request',
		action: 'Correct the attribute named and send again; the same request fails again.',
		meaning:
			'The push was not sent because the request lacks an attribute or carries one the gateway cannot use.',
		tone: 'warning'
	},
	retry_later: {
		title: 'Try again later',
		action: 'Send the same push again later, waiting longer after each failure.',
		meaning:
			'The gateway or the upstream push service had a problem; the request itself may be fine.',
		tone: 'warning'
	},
	unknown: {
		title: 'Unknown outcome',
		action: 'Treat the push as not sent; check the gateway address and its answer.',
		meaning: 'The answer cannot be read as the contract describes it.',
		tone: 'neutral'
	}
};
