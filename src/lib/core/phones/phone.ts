import type { ReadMessage } from '../response/fetched-messages';

/**
 * A virtual phone's state as data: who it is (the account, its selector and tokens), the ids it
 * sends with the next Fetch Messages, and the conversation it shows, each message with its
 * ticks. A page draws it as it is; the engine moves it on one action at a time.
 */

/** The account, selector and tokens of one device. */
export interface PhoneIdentity {
	/** `sender`, `recipient`, `sender-second`: which phone of the journey it is. */
	label: string;
	username: string;
	displayName: string;
	/** The second device of an account reports its own tokens. */
	device: 'main' | 'second';
	selector: string;
	pushToken: string;
	pushTokenIncomingCall: string;
	appId: string;
	appIdIncomingCall: string;
}

/** A message as the phone shows it. */
export interface PhoneMessage {
	smsId: string;
	direction: 'received' | 'sent';
	party: string;
	sendingDate: string;
	text: string;
	contentType: string;
	dispositionNotification: string | null;
	thread: string;
	/** Sent by this phone, pushed to it, fetched by it. */
	ticks: { sent: boolean; pushed: boolean; fetched: boolean };
}

/** What a phone shows and what it sends next. */
export interface PhoneState {
	identity: PhoneIdentity;
	started: boolean;
	lastKnownSmsId: string;
	lastKnownSentSmsId: string;
	/** The newest messages, oldest first (at most {@link PHONE_MESSAGES}). */
	messages: PhoneMessage[];
	/** Messages the phone has but does not list (older than the ones listed). */
	messagesOmitted: number;
}

/** Messages a phone lists; a provider answering thousands cannot make a phone grow. */
export const PHONE_MESSAGES = 200;

/** A phone that has not started. */
export function newPhone(identity: PhoneIdentity): PhoneState {
	return {
		identity,
		started: false,
		lastKnownSmsId: '',
		lastKnownSentSmsId: '',
		messages: [],
		messagesOmitted: 0
	};
}

function keep(state: PhoneState, messages: PhoneMessage[]): PhoneState {
	const over = Math.max(0, messages.length - PHONE_MESSAGES);
	return {
		...state,
		messages: over ? messages.slice(over) : messages,
		messagesOmitted: state.messagesOmitted + over
	};
}

/** The phone after it sent a message (its sms_id, when the provider gave one). */
export function withSent(
	state: PhoneState,
	message: Omit<PhoneMessage, 'ticks' | 'direction'>
): PhoneState {
	const sent: PhoneMessage = {
		...message,
		direction: 'sent',
		ticks: { sent: true, pushed: false, fetched: false }
	};
	return keep(state, [...state.messages, sent]);
}

/** The phone after a push for message `id` arrived (ticks the message if it has it). */
export function withPushed(state: PhoneState, id: string): PhoneState {
	return {
		...state,
		messages: state.messages.map((m) =>
			m.smsId === id && id !== '' ? { ...m, ticks: { ...m.ticks, pushed: true } } : m
		)
	};
}

/** What a fetch did to a phone: the messages it already had (by sms_id) and the new ones. */
export interface FetchApplied {
	state: PhoneState;
	/** sms_ids the phone already had: the provider answered them again. */
	again: string[];
	added: number;
}

/**
 * The phone after a fetch: new messages added (ticked fetched; a pushed id keeps its tick), the
 * ids moved on to the last message of each list, as the app does. `known` holds every sms_id the
 * phone has had, listed or not; it is updated.
 */
export function withFetched(
	state: PhoneState,
	lists: { received: readonly ReadMessage[]; sent: readonly ReadMessage[] },
	known: Set<string>,
	pushedIds: ReadonlySet<string>
): FetchApplied {
	const again: string[] = [];
	const added: PhoneMessage[] = [];
	// A message this phone sent comes back once in sent_smss, when its sent ids sync: the app
	// knows it by its sms_id and ticks it fetched; only a second time is it a repeat.
	const unsynced = new Map<string, number>();
	state.messages.forEach((m, i) => {
		if (m.direction === 'sent' && m.ticks.sent && !m.ticks.fetched && m.smsId !== '')
			unsynced.set(m.smsId, i);
	});
	const messages = [...state.messages];
	for (const m of [...lists.received, ...lists.sent]) {
		const mine = m.direction === 'sent' ? unsynced.get(m.smsId) : undefined;
		if (mine !== undefined) {
			unsynced.delete(m.smsId);
			known.add(m.smsId);
			messages[mine] = { ...messages[mine], ticks: { ...messages[mine].ticks, fetched: true } };
			continue;
		}
		if (m.smsId !== '' && known.has(m.smsId)) {
			again.push(m.smsId);
			continue;
		}
		if (m.smsId !== '') known.add(m.smsId);
		added.push({
			smsId: m.smsId,
			direction: m.direction,
			party: m.party,
			sendingDate: m.sendingDate,
			text: m.cut ? `${m.text}…` : m.text,
			contentType: m.contentType,
			dispositionNotification: m.dispositionNotification,
			thread: m.thread,
			ticks: { sent: m.direction === 'sent', pushed: pushedIds.has(m.smsId), fetched: true }
		});
	}
	const next = keep(state, [...messages, ...added]);
	return {
		state: {
			...next,
			lastKnownSmsId: lists.received.at(-1)?.smsId || state.lastKnownSmsId,
			lastKnownSentSmsId: lists.sent.at(-1)?.smsId || state.lastKnownSentSmsId
		},
		again,
		added: added.length
	};
}

/**
 * A thread's messages in the order they were sent, as the app shows a conversation: a fresh phone
 * fetching a history gets its own and the other side's messages in separate lists. When a date
 * cannot be read, the order they came in stands.
 */
function bySendingDate(messages: PhoneMessage[]): PhoneMessage[] {
	const times = messages.map((m) => Date.parse(m.sendingDate));
	if (times.some(Number.isNaN)) return messages;
	return messages
		.map((m, i) => ({ m, at: times[i] }))
		.sort((a, b) => a.at - b.at)
		.map(({ m }) => m);
}

/** The conversation by thread, newest thread first, as the app lists it. */
export function threadsOf(state: PhoneState): { thread: string; messages: PhoneMessage[] }[] {
	const byThread = new Map<string, PhoneMessage[]>();
	for (const m of state.messages) {
		const list = byThread.get(m.thread) ?? [];
		list.push(m);
		byThread.set(m.thread, list);
	}
	return [...byThread.entries()]
		.reverse()
		.map(([thread, messages]) => ({ thread, messages: bySendingDate(messages) }));
}
