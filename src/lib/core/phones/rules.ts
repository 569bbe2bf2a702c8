import type { Source } from '../catalogue/schema';
import { severityFrom } from '../catalogue/sources';
import type { Severity } from '../issues';

/**
 * What a virtual phone checks on every round, as data: each check names the contract row or the
 * documented rule behind it, and only the contract and the platform's documentation make an
 * error (a rule taken from providers' implementations is a warning at most).
 */

/** One check of a messaging round. */
export interface MessagingCheck {
	id: string;
	/** The rule as its source writes it. */
	rule: string;
	source: Source;
	/** The severity of a finding, before {@link severityFrom} caps it by the source. */
	severity: Severity;
}

const CONTRACT = (ref: string): Source => ({ kind: 'contract', ref });
const FETCH_DOC: Source = { kind: 'docs', ref: 'api/client/fetch_messages_modern' };

function check(id: string, severity: Severity, source: Source, rule: string): MessagingCheck {
	return { id, rule, source, severity: severityFrom(source, severity) };
}

/** Every check of a round, by id. */
export const MESSAGING_CHECKS = {
	pushArrived: check(
		'pushArrived',
		'error',
		CONTRACT('Events: Incoming message push'),
		'Incoming message push | provider via push gateway | device | NotifyTextMessage attributes | Provider sends it; the device then fetches messages.'
	),
	pushToReportedToken: check(
		'pushToReportedToken',
		'error',
		CONTRACT('Push Token Reporter variables: pushToken, pushTokenIncomingCall'),
		'pushToken (alias pushTokenOther) is the token of the remote-notification channel, used for all other pushes; pushTokenIncomingCall is used for incoming-call pushes only.'
	),
	pushSelector: check(
		'pushSelector',
		'error',
		CONTRACT('Push gateway: single push; Authentication 4'),
		'NotifyTextMessage: notifies about an incoming message. Needs Selector. The Push Token Reporter selector identifies an account and must be passed to the push gateway (Selector).'
	),
	pushBadge: check(
		'pushBadge',
		'error',
		CONTRACT('Push gateway request object: Badge'),
		'Badge | integer | required for NotifyTextMessage on mobile platform A, version 13 or later | Total number of unread messages.'
	),
	pushShows: check(
		'pushShows',
		'warning',
		CONTRACT('Push gateway: single push, NotifyTextMessage'),
		'On mobile platform A 13+ the notification may not wake the app, so it must carry Badge, Sound, the sender name, the preview and the content type.'
	),
	pushId: check(
		'pushId',
		'error',
		CONTRACT('Push gateway request object: Id'),
		'Id | no, but recommended | Message id, later used as sms_id in the fetch response. When omitted, a double notification can result (one on push receipt, one on background fetch).'
	),
	pushIdMissing: check(
		'pushIdMissing',
		'warning',
		CONTRACT('Push gateway request object: Id'),
		'Id | no, but recommended | Message id, later used as sms_id in the fetch response. When omitted, a double notification can result (one on push receipt, one on background fetch).'
	),
	pushOnce: check(
		'pushOnce',
		'warning',
		{
			kind: 'inference',
			ref: "the contract's double notification warning (Push gateway request object: Id)"
		},
		'One push per message: each NotifyTextMessage shows a notification, so a message pushed again is notified again.'
	),
	noPushAfter404: check(
		'noPushAfter404',
		'error',
		CONTRACT('Errors: Push gateway'),
		'DeviceToken no longer registered at the upstream service | Status 404 in the response object; no more pushes should be sent to that token.'
	),
	smsIdKept: check(
		'smsIdKept',
		'warning',
		CONTRACT('Send Message success body: sms_id'),
		'sms_id | no | Identifier assigned by the provider to the sent message. The client stores it and uses it to detect duplicates in Fetch Messages.'
	),
	inReceived: check(
		'inReceived',
		'error',
		FETCH_DOC,
		'The recipient fetches the message in received_smss, with the sms_id the sender was given and the push carried.'
	),
	nothingTwice: check(
		'nothingTwice',
		'error',
		FETCH_DOC,
		'%last_known_sms_id%: the sms_id of the last received message; answer only the messages after it (answering every message every time shows duplicates).'
	),
	contentType: check(
		'contentType',
		'error',
		CONTRACT('Outgoing message: content_type, disposition_notification'),
		'The provider must store content_type and disposition_notification along with the body. If Fetch Messages is also implemented, it must return them for every message.'
	),
	dispositionNotification: check(
		'dispositionNotification',
		'error',
		CONTRACT('Outgoing message: content_type, disposition_notification'),
		'The provider must store content_type and disposition_notification along with the body. If Fetch Messages is also implemented, it must return them for every message.'
	),
	inOtherDeviceSent: check(
		'inOtherDeviceSent',
		'warning',
		{
			kind: 'providers',
			ref: 'four providers: %last_known_sent_sms_id%, for syncing several devices'
		},
		"The sender's other device fetches the message in sent_smss (after its last_known_sent_sms_id)."
	),
	sendingDateOrder: check(
		'sendingDateOrder',
		'warning',
		{
			kind: 'providers',
			ref: 'the field names of api/client/fetch_messages_modern, where readable'
		},
		'Lists oldest first, sending_date in RFC 3339 with a time zone: the app takes the last message as the last known one.'
	),
	answerSize: check(
		'answerSize',
		'warning',
		{ kind: 'providers', ref: 'no paging is documented; one server pages at 500 messages' },
		'A fetch answers the new messages only; no paging is documented, so one answer holds all of them.'
	),
	fetchReadable: check(
		'fetchReadable',
		'error',
		FETCH_DOC,
		'JSON {"date", "received_smss", "sent_smss"} (or the XML with the same names): the app reads no messages from anything else.'
	)
} as const satisfies Record<string, MessagingCheck>;

export type MessagingCheckId = keyof typeof MESSAGING_CHECKS;

/** One finding of a round: the check, what was seen, and the rule behind it. */
export interface MessagingFinding {
	check: MessagingCheckId;
	severity: Severity;
	message: string;
	rule: string;
	source: Source;
}

/** A finding of a check. */
export function finding(id: MessagingCheckId, message: string): MessagingFinding {
	const { severity, rule, source } = MESSAGING_CHECKS[id];
	return { check: id, severity, message, rule, source };
}

/** Messages one fetch answer may hold before it is named as large (one server pages at 500). */
export const LARGE_FETCH = 500;
