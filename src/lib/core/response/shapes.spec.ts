import { describe, expect, it } from 'vitest';
import { GALLERY } from '../catalogue/gallery';
import { interpretResponse, type ResponseInput } from './interpret';

const JSON_H = { 'content-type': 'application/json' };
const XML_H = { 'content-type': 'application/xml' };

function respond(
	status: number,
	body: string,
	headers: Record<string, string> = {}
): ResponseInput {
	return { status, headers, body };
}

const codes = (input: ResponseInput) =>
	interpretResponse('sendMessage', input).issues.map((i) => i.code);

describe('Send Message: the answer shape', () => {
	it.each([
		{
			shape: 'xml-sms-id',
			response: respond(200, '<response><sms_id>84412</sms_id></response>', XML_H)
		},
		{ shape: 'json-sms-id', response: respond(200, '{"sms_id": "5f2c"}', JSON_H) },
		{ shape: 'json-sms-id', response: respond(201, '{"sms_id": 7}') },
		{ shape: 'message-id', response: respond(200, '{"message_id": "m-20931"}', JSON_H) },
		{
			shape: 'message-id',
			response: respond(200, '<response><message_id>9</message_id></response>', XML_H)
		},
		{
			shape: 'error-flag',
			response: respond(
				200,
				'<response><error>0</error><description>Success</description></response>',
				XML_H
			)
		},
		{
			shape: 'error-flag',
			response: respond(200, '{"response": {"error": 0, "description": "Success"}}', JSON_H)
		},
		{ shape: 'error-flag', response: respond(200, '{"error": 1, "message": "No credit"}', JSON_H) },
		{ shape: 'empty', response: respond(200, '') },
		{ shape: 'empty', response: respond(204, '  ') },
		{
			shape: 'error-message',
			response: respond(402, '<response><message>No credit</message></response>', XML_H)
		},
		{ shape: 'error-message', response: respond(500, '{"message": "Down"}', JSON_H) },
		{ shape: 'other', response: respond(200, '{"id": "x"}', JSON_H) },
		{ shape: 'other', response: respond(200, 'OK', { 'content-type': 'text/plain' }) },
		{ shape: 'other', response: respond(500, 'Server says no') },
		{ shape: 'other', response: respond(200, '{"sms_id":', JSON_H) }
	])('$shape: $response.status $response.body', ({ shape, response }) => {
		const reading = interpretResponse('sendMessage', response);
		expect(reading.shape?.shape.id).toBe(shape);
		expect(reading.shape?.shape.label).toBeTruthy();
	});

	it('the contract’s answers have no shape warning and store the id', () => {
		for (const response of [
			respond(200, '<response><sms_id>84412</sms_id></response>', XML_H),
			respond(200, '{"sms_id": "5f2c"}', JSON_H)
		]) {
			const reading = interpretResponse('sendMessage', response);
			expect(reading.issues).toEqual([]);
			expect(reading.action.kind).toBe('storeSmsId');
		}
	});

	it('an error reported with HTTP 200 is a success to the platform, and is warned about', () => {
		const reading = interpretResponse(
			'sendMessage',
			respond(200, '{"response": {"error": 1, "description": "Insufficient credit"}}', JSON_H)
		);
		expect(reading.success).toBe(true);
		expect(reading.action).toEqual({ kind: 'success' });
		expect(reading.shape?.errorFlag).toEqual({ value: '1', description: 'Insufficient credit' });
		const warning = reading.issues.find((i) => i.code === 'error_flag_with_2xx');
		expect(warning?.severity).toBe('warning');
		expect(warning?.message).toContain('Insufficient credit');
		expect(warning?.message).toContain('counts the message as sent');
	});

	it('an XML error flag set with HTTP 200 is warned about too; 0 only gets the note', () => {
		expect(
			codes(
				respond(
					200,
					'<response><error>3</error><description>Bad number</description></response>',
					XML_H
				)
			)
		).toContain('error_flag_with_2xx');
		const clean = codes(
			respond(200, '<response><error>0</error><description>Success</description></response>', XML_H)
		);
		expect(clean).toContain('error_flag_style');
		expect(clean).not.toContain('error_flag_with_2xx');
	});

	it('an error flag with an error status is an ordinary failure, with no warning', () => {
		const reading = interpretResponse(
			'sendMessage',
			respond(400, '{"error": 1, "message": "Bad number"}', JSON_H)
		);
		expect(reading.success).toBe(false);
		expect(reading.shownToUser).toBe('Bad number');
		expect(reading.issues.map((i) => i.code)).toEqual([]);
	});

	it('an id named message_id is warned about: no id is stored', () => {
		const reading = interpretResponse('sendMessage', respond(200, '{"message_id": "m-1"}', JSON_H));
		expect(reading.action).toEqual({ kind: 'success' });
		expect(reading.issues.map((i) => [i.code, i.severity])).toEqual([
			['message_id_not_sms_id', 'warning'],
			['no_sms_id', 'info']
		]);
	});

	it('other services name no shape', () => {
		expect(interpretResponse('mediaRefSend', respond(200, '{}', JSON_H)).shape).toBeUndefined();
		expect(
			interpretResponse('pushTokenReporter', respond(200, '{}', JSON_H)).shape
		).toBeUndefined();
	});

	it('every gallery answer the platform misreads is warned about by the interpreter', () => {
		for (const template of GALLERY.filter((t) => t.answer?.misread)) {
			const answer = template.answer!;
			const reading = interpretResponse(answer.service, {
				status: answer.status,
				headers: answer.contentType ? { 'content-type': answer.contentType } : {},
				body: answer.body
			});
			expect(
				reading.issues.some((i) => i.severity === 'warning'),
				template.id
			).toBe(true);
		}
	});
});
