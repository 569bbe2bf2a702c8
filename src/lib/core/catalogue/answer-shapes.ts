/**
 * The shapes in which Send Message handlers answer in practice (seen in public provider-side
 * code), as data: what each is, and where the platform reads it otherwise than the provider
 * means it. The response interpreter names the shape an answer matched.
 */

/** The id of an answer shape. */
export type AnswerShapeId =
	'xml-sms-id' | 'json-sms-id' | 'message-id' | 'error-flag' | 'empty' | 'error-message' | 'other';

/** One answer shape. */
export interface AnswerShape {
	id: AnswerShapeId;
	/** The shape as a provider would recognise it. */
	label: string;
	/** How the platform reads an answer of this shape. */
	reading: string;
}

export const ANSWER_SHAPES: Record<AnswerShapeId, AnswerShape> = {
	'xml-sms-id': {
		id: 'xml-sms-id',
		label: 'XML <response><sms_id>…</sms_id></response>',
		reading: 'The contract’s answer: the app stores the sms_id.'
	},
	'json-sms-id': {
		id: 'json-sms-id',
		label: 'JSON {"sms_id": …}',
		reading: 'The contract’s answer: the app stores the sms_id.'
	},
	'message-id': {
		id: 'message-id',
		label: 'An id named message_id ({"message_id": …})',
		reading:
			'message_id is not the contract’s name: the platform finds no sms_id, stores no id and cannot match the sent message with the fetched one.'
	},
	'error-flag': {
		id: 'error-flag',
		label: 'An error flag in the body (<response><error>0</error>…, {"response": {"error": 0}})',
		reading:
			'The platform reads the status, never the flag: with HTTP 2xx every such answer is a success, a failure included.'
	},
	empty: {
		id: 'empty',
		label: 'An empty body',
		reading: 'A 2xx with no body is a success with no sms_id to store.'
	},
	'error-message': {
		id: 'error-message',
		label: 'An error status with a message (<response><message>…</message></response>)',
		reading: 'The contract’s failure: the user is shown the message.'
	},
	other: {
		id: 'other',
		label: 'None of the known shapes',
		reading: 'Read by the contract’s rules alone.'
	}
};
