import type { Issue, Repeats } from '../issues';
import { firstCharacters } from './body';

/**
 * The checks of each fetched message: the fields the app reads, and the traps seen in real
 * deployments (`message_id` for `sms_id`, dates without a time zone, one id twice, a list out of
 * order, a media message whose text is not the file-transfer JSON). One pass over each list.
 */

/** One message as the answer gives it, its text cut for showing. */
export interface FetchedMessage {
	smsId: string;
	direction: 'received' | 'sent';
	/** The sender of a received message, the recipient of a sent one. */
	party: string;
	sendingDate: string;
	text: string;
	/** True when the text was longer than shown. */
	cut: boolean;
	contentType: string;
	dispositionNotification: string | null;
	displayed: boolean | null;
	/** The stream id, else the party: what the app groups a conversation by. */
	thread: string;
}

/** A message as read from JSON or XML: its fields and where it is (a JSON path, or line and column). */
export interface Located {
	fields: Record<string, unknown>;
	where: string;
	isObject: boolean;
}

/**
 * A message the checks accepted enough to count, with its time and the content type as the
 * answer gave it (null when absent: `contentType` then says the default).
 */
export type ReadMessage = FetchedMessage & { time: number | null; givenContentType: string | null };

/** Characters of a date beyond which it is not read as one (a real date is about 30). */
const MAX_DATE_CHARS = 64;
const RFC3339 =
	/^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|z|[+-]\d{2}:?\d{2})?$/;
export const FILE_TRANSFER = /^application\/x-[a-z0-9-]+-filetransfer\+json$/i;
const SHOWN_TEXT_CHARS = 200;
/** Characters of a text beyond which it is named: far more than a chat message holds. */
const LONG_TEXT_CHARS = 10_000;

/** A date as shown: one too long to be a date is cut, so an answer is never repeated whole. */
export function shownDate(value: string): string {
	return value.length > MAX_DATE_CHARS ? `${firstCharacters(value, MAX_DATE_CHARS)}…` : value;
}

/** The time of a date the app reads, or a reason it does not (with `noZone` for a date without). */
export function readDate(value: string): { time: number; noZone: boolean } | { reason: string } {
	if (value.length > MAX_DATE_CHARS) return { reason: `it is ${value.length} characters long` };
	const match = RFC3339.exec(value);
	if (!match) return { reason: `“${value}” is not an RFC 3339 date` };
	const time = Date.parse(match[7] ? value.replace(' ', 'T') : `${value.replace(' ', 'T')}Z`);
	if (Number.isNaN(time)) return { reason: `“${value}” is not a real date` };
	return { time, noZone: !match[7] };
}

function text(value: unknown): string | null {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return null;
}

function flag(value: unknown): boolean | null | 'invalid' {
	if (value === undefined || value === null || value === '') return null;
	if (typeof value === 'boolean') return value;
	if (value === 'true' || value === '1') return true;
	if (value === 'false' || value === '0') return false;
	return 'invalid';
}

/** Whether a media message's text is the file-transfer JSON: attachments, each with a content-url. */
export function fileTransferProblem(body: string): string | null {
	let value: unknown;
	try {
		value = JSON.parse(body);
	} catch {
		return 'it is not JSON';
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value))
		return 'it is not an object';
	const attachments = (value as Record<string, unknown>).attachments;
	if (!Array.isArray(attachments) || attachments.length === 0) return 'it has no attachments';
	const bad = attachments.findIndex(
		(a) => a === null || typeof a !== 'object' || typeof a['content-url'] !== 'string'
	);
	return bad === -1 ? null : `attachments[${bad}] has no content-url`;
}

/** Checks one list (received or sent), in order, adding issues; answers the messages it counts. */
function checkList(
	list: readonly Located[],
	direction: 'received' | 'sent',
	seen: Map<string, string>,
	repeats: Repeats
): ReadMessage[] {
	const name = direction === 'received' ? 'received_smss' : 'sent_smss';
	const partyField = direction === 'received' ? 'sender' : 'recipient';
	const out: ReadMessage[] = [];
	const add = (code: string, severity: Issue['severity'], message: string) =>
		repeats.add(code, code, () => ({ code, severity, message }));
	let latest: { time: number; where: string } | null = null;
	for (const { fields, where, isObject } of list) {
		if (!isObject) {
			add(
				'fetch_message_not_object',
				'error',
				`The message at ${where} is not an object: the app skips it.`
			);
			continue;
		}
		let smsId = text(fields.sms_id) ?? '';
		if (smsId === '' && text(fields.message_id) !== null) {
			add(
				'fetch_message_id',
				'error',
				`The message at ${where} has message_id, not sms_id: the app reads only sms_id, so it cannot tell this message from one it already has.`
			);
			smsId = '';
		} else if (smsId === '') {
			add(
				'fetch_sms_id_missing',
				'error',
				`The message at ${where} has no sms_id: the app cannot find duplicates of it.`
			);
		}
		if (smsId !== '') {
			const before = seen.get(smsId);
			if (before !== undefined) {
				add(
					'fetch_duplicate_sms_id',
					'warning',
					`sms_id “${firstCharacters(smsId, 60)}” at ${where} is the same as at ${before}: the app keeps one of them.`
				);
			} else seen.set(smsId, where);
		}
		const dateText = text(fields.sending_date);
		let time: number | null = null;
		if (dateText === null) {
			add('fetch_date_missing', 'warning', `The message at ${where} has no sending_date.`);
		} else {
			const date = readDate(dateText);
			if ('reason' in date) {
				add(
					'fetch_date_invalid',
					'error',
					`sending_date at ${where} is not a date the app reads: ${date.reason.length > 120 ? `${firstCharacters(date.reason, 100)}…` : date.reason}.`
				);
			} else {
				time = date.time;
				if (date.noZone)
					add(
						'fetch_date_no_zone',
						'warning',
						`sending_date “${dateText}” at ${where} has no time zone: devices in other zones show another time. Add Z or an offset.`
					);
			}
		}
		if (time !== null && latest !== null && time < latest.time) {
			add(
				`fetch_not_in_order`,
				'warning',
				`${name} is not oldest first: the message at ${where} is older than the one at ${latest.where}. The app takes the last message's sms_id as the last known one.`
			);
		}
		if (time !== null && (latest === null || time >= latest.time)) latest = { time, where };
		const party = text(fields[partyField]) ?? '';
		if (party === '')
			add(
				`fetch_${partyField}_missing`,
				'warning',
				`The message at ${where} has no ${partyField}.`
			);
		const body = text(fields.sms_text);
		if (body === null)
			add('fetch_text_missing', 'warning', `The message at ${where} has no sms_text.`);
		else if (body.length > LONG_TEXT_CHARS)
			add(
				'fetch_text_long',
				'info',
				`sms_text at ${where} is ${body.length.toLocaleString('en')} characters long, far more than a message usually holds: here only its first ${SHOWN_TEXT_CHARS} are shown.`
			);
		const givenContentType = text(fields.content_type);
		const contentType = givenContentType || 'text/plain';
		if (FILE_TRANSFER.test(contentType)) {
			const problem = fileTransferProblem(body ?? '');
			if (problem)
				add(
					'fetch_media_not_filetransfer',
					'warning',
					`The media message at ${where} (${contentType}) has an sms_text that is not the file-transfer JSON: ${problem}. The app cannot show the media.`
				);
		}
		const displayed = direction === 'received' ? flag(fields.displayed) : null;
		if (displayed === 'invalid')
			add(
				'fetch_displayed_invalid',
				'warning',
				`displayed at ${where} is not true or false: it is read as not displayed.`
			);
		const stream = text(fields.stream_id);
		out.push({
			smsId,
			direction,
			party,
			sendingDate: shownDate(dateText ?? ''),
			text: firstCharacters(body ?? '', SHOWN_TEXT_CHARS),
			cut: (body ?? '').length > SHOWN_TEXT_CHARS,
			contentType,
			dispositionNotification: text(fields.disposition_notification),
			displayed: displayed === 'invalid' ? null : displayed,
			thread: stream || party || '(no party)',
			time,
			givenContentType
		});
	}
	return out;
}

/** Checks the answer's date and both lists; one id may appear once in either list. */
export function checkMessages(
	received: readonly Located[],
	sent: readonly Located[],
	date: string | null,
	dateWhere: string,
	repeats: Repeats
): { received: ReadMessage[]; sent: ReadMessage[] } {
	if (date === null) {
		repeats.add('fetch_date_missing', 'answer-date', () => ({
			code: 'fetch_date_missing',
			severity: 'warning',
			message: 'The answer has no date (the server time, RFC 3339).'
		}));
	} else {
		const read = readDate(date);
		const where = dateWhere || '$.date';
		if ('reason' in read) {
			repeats.add('fetch_date_invalid', 'answer-date', () => ({
				code: 'fetch_date_invalid',
				severity: 'error',
				message: `date at ${where} is not a date the app reads: ${read.reason}.`
			}));
		} else if (read.noZone) {
			repeats.add('fetch_date_no_zone', 'answer-date', () => ({
				code: 'fetch_date_no_zone',
				severity: 'warning',
				message: `date “${date}” at ${where} has no time zone. Add Z or an offset.`
			}));
		}
	}
	const seen = new Map<string, string>();
	return {
		received: checkList(received, 'received', seen, repeats),
		sent: checkList(sent, 'sent', seen, repeats)
	};
}
