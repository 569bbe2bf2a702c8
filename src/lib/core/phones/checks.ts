import type { PushTarget } from '../push/schema';
import type { ReadMessage } from '../response/fetched-messages';
import type { ObservedPush } from './observed';
import { finding, LARGE_FETCH, type MessagingFinding } from './rules';

/**
 * The checks of one messaging round (a message sent from one phone to another), over what the
 * phones saw: the message as sent, the pushes the sandbox answered while the round ran, and each
 * fetch. Every finding names its check's rule; a round with no error finding went as the
 * contract wants.
 */

/** The message as the sender sent it. */
export interface SentMessage {
	/** What Send Message answered; null when it gave none. */
	smsId: string | null;
	body: string;
	contentType: string;
	dispositionNotification: string;
	from: string;
	fromDisplayName: string;
	to: string;
}

/** One fetch of a round: which phone, when, and what it read. */
export interface RoundFetch {
	phone: 'recipient' | 'sender-second';
	moment: 'push' | 'foreground';
	/** The lists read, or null when nothing could be read (unanswered, unreadable). */
	lists: { received: readonly ReadMessage[]; sent: readonly ReadMessage[] } | null;
	/** Why nothing could be read (the step's decision), when `lists` is null. */
	failure: string | null;
	/** sms_ids the phone already had. */
	again: string[];
}

/** Everything a round's checks look at. */
export interface Round {
	sent: SentMessage | null;
	recipient: { selector: string; pushToken: string; pushTokenIncomingCall: string };
	/** The platform the recipient's device is (the Badge rule follows it). */
	target: PushTarget;
	/** NotifyTextMessage elements the sandbox answered during the round (the first ones). */
	pushes: ObservedPush[];
	/** Elements beyond those kept in `pushes`. */
	pushesOmitted: number;
	/** How many NotifyTextMessage the gateway accepted for the recipient's pushToken and the first one's Id. */
	timesPushed: number;
	/** Tokens the sandbox had answered 404 for before the round, with the record's time. */
	unregisteredBefore: ReadonlyMap<string, number>;
	/** The wait ended with a push for the recipient, or at the timeout (ms). */
	wait: { arrived: true } | { arrived: false; timeoutMs: number };
	fetches: RoundFetch[];
}

const textOf = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const count = (n: number, what: string) => `${n.toLocaleString('en')} ${what}${n === 1 ? '' : 's'}`;

function cut(text: string, chars = 60): string {
	return text.length > chars ? `${text.slice(0, chars)}…` : text;
}

/** The pushes meant for the recipient: to one of its tokens or with its selector. */
function forRecipient(round: Round): ObservedPush[] {
	const { selector, pushToken, pushTokenIncomingCall } = round.recipient;
	return round.pushes.filter(
		(p) =>
			p.push.verb === 'NotifyTextMessage' &&
			(p.token === pushToken ||
				p.token === pushTokenIncomingCall ||
				textOf(p.push.Selector) === selector)
	);
}

function pushChecks(round: Round, out: MessagingFinding[]): ObservedPush | null {
	const { pushToken, pushTokenIncomingCall, selector } = round.recipient;
	const mine = forRecipient(round);
	const toToken = mine.filter((p) => p.token === pushToken);
	const accepted = toToken.find((p) => p.status === 200);
	if (toToken.length === 0) {
		const voip = mine.filter((p) => p.token === pushTokenIncomingCall);
		const other = mine.filter((p) => p.token !== pushToken && p.token !== pushTokenIncomingCall);
		if (voip.length) {
			out.push(
				finding(
					'pushToReportedToken',
					`The NotifyTextMessage went to the recipient's pushTokenIncomingCall (“${cut(pushTokenIncomingCall, 24)}”): that token is for incoming calls only; send it to pushToken (“${cut(pushToken, 24)}”).`
				)
			);
		} else if (other.length) {
			out.push(
				finding(
					'pushToReportedToken',
					`A NotifyTextMessage with the recipient's selector went to “${cut(other[0].token, 24)}”, a token the recipient did not report; it reported pushToken “${cut(pushToken, 24)}”.`
				)
			);
		}
		const saw = round.sent
			? `it saw the token report and the message sent${round.sent.smsId ? ` (sms_id “${cut(round.sent.smsId)}”)` : ''}`
			: 'it saw the token report';
		const pushes =
			round.pushes.length === 0
				? 'no push reached the sandbox'
				: `the sandbox answered ${count(round.pushes.length + round.pushesOmitted, 'push element')}, none for the recipient's pushToken`;
		const within = round.wait.arrived ? '' : ` within ${round.wait.timeoutMs / 1000} s`;
		out.push(
			finding(
				'pushArrived',
				`No NotifyTextMessage for the recipient's pushToken${within}: ${saw}, and ${pushes}.`
			)
		);
		return null;
	}
	const first = accepted ?? toToken[0];
	if (!accepted) {
		out.push(
			finding(
				'pushArrived',
				`The gateway answered status ${first.status} to the NotifyTextMessage for the recipient's pushToken: the device never gets it.`
			)
		);
	}
	const p = first.push;
	if (textOf(p.Selector) !== selector) {
		out.push(
			finding(
				'pushSelector',
				textOf(p.Selector) === ''
					? 'The NotifyTextMessage has no Selector: the app cannot tell which account processes it.'
					: `The NotifyTextMessage's Selector “${cut(textOf(p.Selector))}” is not the one the recipient reported (“${cut(selector)}”).`
			)
		);
	}
	if (round.target === 'platformA13' && typeof p.Badge !== 'number') {
		out.push(
			finding(
				'pushBadge',
				'The NotifyTextMessage has no Badge: on mobile platform A 13+ it is required (the unread count).'
			)
		);
	}
	const missing = [
		textOf(p.UserName) === '' && textOf(p.UserDisplayName) === '' ? 'the sender (UserName)' : null,
		textOf(p.Message) === '' ? 'the preview (Message)' : null
	].filter((m): m is string => m !== null);
	if (missing.length) {
		out.push(
			finding(
				'pushShows',
				`The NotifyTextMessage carries no ${missing.join(' and no ')}: on platform A 13+ the notification shows without them until the background fetch.`
			)
		);
	}
	const id = textOf(p.Id);
	if (id === '') {
		out.push(
			finding(
				'pushIdMissing',
				'The NotifyTextMessage has no Id: the app cannot match it to the fetched message and may notify twice (once on the push, once on the background fetch).'
			)
		);
	}
	const times = round.timesPushed;
	if (times > 1) {
		out.push(
			finding(
				'pushOnce',
				`The recipient's pushToken got ${count(times, 'NotifyTextMessage')} for one message${id ? ` (Id “${cut(id)}”)` : ''}: each one is a notification.`
			)
		);
	}
	return accepted ?? null;
}

/** A push to a token after the gateway answered 404 for it (before or during the round). */
function after404(round: Round, out: MessagingFinding[]): void {
	const dropped = new Map(round.unregisteredBefore);
	for (const p of round.pushes) {
		const since = dropped.get(p.token);
		if (since !== undefined && since <= p.at) {
			out.push(
				finding(
					'noPushAfter404',
					`The provider pushed again to “${cut(p.token, 24)}” after the gateway answered 404 for it: that token is no longer registered, drop it.`
				)
			);
			return;
		}
		if (p.status === 404 && !dropped.has(p.token)) dropped.set(p.token, p.at);
	}
}

function dateOrder(list: readonly ReadMessage[]): boolean {
	let last = -Infinity;
	for (const m of list) {
		const t = Date.parse(m.sendingDate);
		if (Number.isNaN(t)) continue;
		if (t < last) return false;
		last = t;
	}
	return true;
}

/** A field that must come back from Fetch Messages as Send Message sent it. */
function roundTrip(
	id: 'contentType' | 'dispositionNotification',
	name: string,
	got: string | null,
	sent: string,
	out: MessagingFinding[]
): void {
	// Nothing asked for needs nothing back: an absent field is the empty one sent.
	if (got === sent || (sent === '' && got === null)) return;
	out.push(
		finding(
			id,
			got === null
				? `${name} did not come back (sent as “${cut(sent, 160)}”).`
				: `${name} came back as “${cut(got, 160)}”, sent as “${cut(sent, 160)}”.`
		)
	);
}

function fetchChecks(round: Round, push: ObservedPush | null, out: MessagingFinding[]): void {
	const sent = round.sent;
	const where = (f: RoundFetch) =>
		`${f.phone === 'recipient' ? "the recipient's" : "the sender's second device's"} ${f.moment === 'push' ? 'fetch after the push' : 'foreground fetch'}`;
	for (const f of round.fetches) {
		if (!f.lists) {
			out.push(
				finding('fetchReadable', `${where(f)} read no messages: ${f.failure ?? 'no answer'}`)
			);
			continue;
		}
		if (f.again.length) {
			out.push(
				finding(
					'nothingTwice',
					`${where(f)} answered ${count(f.again.length, 'message')} the phone already had (first: sms_id “${cut(f.again[0])}”): the provider does not honour last_known_sms_id / last_known_sent_sms_id.`
				)
			);
		}
		const size = f.lists.received.length + f.lists.sent.length;
		if (size > LARGE_FETCH) {
			out.push(
				finding(
					'answerSize',
					`${where(f)} answered ${count(size, 'message')} at once: the phone reads them all in one answer (no paging is documented); answer only the new ones.`
				)
			);
		}
		if (!dateOrder(f.lists.received) || !dateOrder(f.lists.sent)) {
			out.push(
				finding(
					'sendingDateOrder',
					`${where(f)} lists messages out of sending_date order: the app takes the last one as the last known.`
				)
			);
		}
	}
	if (!sent) return;
	const afterPush = round.fetches.filter((f) => f.phone === 'recipient' && f.lists);
	const received = afterPush.flatMap((f) => f.lists!.received);
	const match = (m: ReadMessage) =>
		sent.smsId ? m.smsId === sent.smsId : m.text === sent.body.slice(0, m.text.length);
	const got = received.find(match);
	const recipientFetched = afterPush.length > 0;
	if (recipientFetched && !got) {
		out.push(
			finding(
				'inReceived',
				sent.smsId
					? `The recipient's fetches have no received message with sms_id “${cut(sent.smsId)}” (the id Send Message answered).`
					: "The recipient's fetches have no received message with the text sent."
			)
		);
	}
	if (push && recipientFetched) {
		const id = textOf(push.push.Id);
		if (id !== '' && !received.some((m) => m.smsId === id)) {
			out.push(
				finding(
					'pushId',
					`The push's Id “${cut(id)}” is not the sms_id of any message the recipient fetched: the app cannot tie the notification to a message and may show it twice.`
				)
			);
		}
	}
	if (got) {
		roundTrip('contentType', 'content_type', got.givenContentType, sent.contentType, out);
		const disposition = got.dispositionNotification;
		roundTrip(
			'dispositionNotification',
			'disposition_notification',
			disposition,
			sent.dispositionNotification,
			out
		);
	}
	const second = round.fetches.filter((f) => f.phone === 'sender-second' && f.lists);
	if (second.length) {
		const inSent = second.flatMap((f) => f.lists!.sent).some(match);
		if (!inSent) {
			out.push(
				finding(
					'inOtherDeviceSent',
					"The sender's second device did not fetch the message in sent_smss: its conversation misses what was sent from the first device."
				)
			);
		}
	}
	if (sent.smsId === null) {
		out.push(
			finding(
				'smsIdKept',
				'Send Message answered no sms_id: the app cannot tell the sent message from the one Fetch Messages syncs back.'
			)
		);
	}
}

/** The findings of a round, most telling first. */
export function checkRound(round: Round): MessagingFinding[] {
	const out: MessagingFinding[] = [];
	const push = pushChecks(round, out);
	after404(round, out);
	fetchChecks(round, push, out);
	const rank = { error: 0, warning: 1, info: 2 } as const;
	return out.sort((a, b) => rank[a.severity] - rank[b.severity]);
}
