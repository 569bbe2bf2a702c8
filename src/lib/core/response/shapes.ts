import { ANSWER_SHAPES, type AnswerShape } from '../catalogue/answer-shapes';
import type { Issue } from '../issues';
import { fieldOf, messageOf, parseBody, sniffFormat, type ParsedBody } from './body';

/** The shape a Send Message answer matched, with what its error flag says when it has one. */
export interface ShapeMatch {
	shape: AnswerShape;
	/** The error flag of an `error-flag` answer, as written, and its description if any. */
	errorFlag?: { value: string; description?: string };
}

/** The error flag of a body: `<response><error>`, `{"response": {"error"}}` or `{"error": 0}`. */
function errorFlagOf(parsed: ParsedBody): ShapeMatch['errorFlag'] {
	if (!parsed.ok) return undefined;
	if (parsed.format === 'xml') {
		const flag = fieldOf(parsed, 'error');
		if (flag === undefined || parsed.root.name === 'error') return undefined;
		return { value: flag, description: fieldOf(parsed, 'description') };
	}
	if (parsed.format !== 'json') return undefined;
	const value = parsed.value;
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const inner = (value as Record<string, unknown>).response;
	const holder =
		inner !== null && typeof inner === 'object' && !Array.isArray(inner)
			? (inner as Record<string, unknown>)
			: (value as Record<string, unknown>);
	const flag = holder.error;
	if (typeof flag !== 'number' && typeof flag !== 'boolean' && !/^\s*-?\d+\s*$/.test(String(flag)))
		return undefined;
	if (typeof flag === 'string' && flag.trim() === '') return undefined;
	const description = holder.description ?? holder.message;
	return {
		value: String(flag).trim(),
		description: typeof description === 'string' ? description : undefined
	};
}

/** True for an error flag that reports an error (anything but 0 and false). */
function reportsError(flag: string): boolean {
	return flag !== '0' && flag !== 'false';
}

/**
 * The shape of a Send Message answer (see `ANSWER_SHAPES`), and the issues where the platform
 * reads it otherwise than the provider means it: an error flag set in a 2xx answer (a success to
 * the platform), an id named `message_id`.
 */
export function matchAnswerShape(
	status: number,
	contentType: string | null,
	body: string,
	issues: Issue[]
): ShapeMatch {
	const ok = status >= 200 && status < 300;
	const shape = (id: keyof typeof ANSWER_SHAPES) => ANSWER_SHAPES[id];
	if (body.trim() === '') return { shape: shape(ok ? 'empty' : 'other') };
	const format = sniffFormat(body, contentType);
	const parsed: ParsedBody = format ? parseBody(body, format) : { ok: false, reason: '' };
	const smsId = fieldOf(parsed, 'sms_id');
	if (ok && smsId !== undefined && smsId !== '' && parsed.ok) {
		return { shape: shape(parsed.format === 'xml' ? 'xml-sms-id' : 'json-sms-id') };
	}
	const errorFlag = errorFlagOf(parsed);
	if (errorFlag) {
		if (ok && reportsError(errorFlag.value)) {
			const said = errorFlag.description ? `, “${errorFlag.description}”` : '';
			issues.push({
				code: 'error_flag_with_2xx',
				severity: 'warning',
				message: `The body reports an error (error = ${errorFlag.value}${said}) with HTTP ${status}: the platform reads the status, not the flag, so it counts the message as sent and tells the user nothing. Answer a 4xx or 5xx status with a message field instead.`
			});
		} else if (ok) {
			issues.push({
				code: 'error_flag_style',
				severity: 'info',
				message: `This answer carries an error flag: the platform reads only the status, so a failure answered the same way with HTTP ${status} would count as sent. Answer failures with a 4xx or 5xx status.`
			});
		}
		return { shape: shape('error-flag'), errorFlag };
	}
	if (ok && fieldOf(parsed, 'message_id') !== undefined) {
		issues.push({
			code: 'message_id_not_sms_id',
			severity: 'warning',
			message:
				'The answer names its id message_id: the platform reads only sms_id, so it stores no id and cannot match the sent message with the fetched one. Name it sms_id.'
		});
		return { shape: shape('message-id') };
	}
	if (!ok && messageOf(body, contentType) !== undefined) return { shape: shape('error-message') };
	return { shape: shape('other') };
}
