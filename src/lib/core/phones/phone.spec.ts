import { describe, expect, it } from 'vitest';
import type { ReadMessage } from '../response/fetched-messages';
import { newPhone, PHONE_MESSAGES, threadsOf, withFetched, withSent } from './phone';

const identity = {
	label: 'recipient',
	username: 'bob',
	displayName: 'Bob',
	device: 'main' as const,
	selector: 'AB:CD',
	pushToken: 't',
	pushTokenIncomingCall: 'v',
	appId: 'app',
	appIdIncomingCall: 'app.voip'
};

function message(smsId: string, direction: 'received' | 'sent' = 'received'): ReadMessage {
	return {
		smsId,
		direction,
		party: 'alice',
		sendingDate: '2026-03-01T09:00:00Z',
		text: `text ${smsId}`,
		cut: false,
		contentType: 'text/plain',
		dispositionNotification: null,
		displayed: null,
		thread: 'alice',
		time: 0,
		givenContentType: 'text/plain'
	};
}

/** A phone that sent one message, s1. */
const sentOne = () =>
	withSent(newPhone(identity), {
		smsId: 's1',
		party: 'alice',
		sendingDate: '',
		text: 'hi',
		contentType: 'text/plain',
		dispositionNotification: 'x:display',
		thread: 'alice'
	});

describe('a virtual phone', () => {
	it('moves its ids on and names what it already had', () => {
		const known = new Set<string>();
		const first = withFetched(
			newPhone(identity),
			{ received: [message('r1')], sent: [] },
			known,
			new Set(['r1'])
		);
		expect(first.state).toMatchObject({ lastKnownSmsId: 'r1', lastKnownSentSmsId: '' });
		expect(first.state.messages[0].ticks).toEqual({ sent: false, pushed: true, fetched: true });
		const again = withFetched(
			first.state,
			{ received: [message('r1'), message('r2')], sent: [message('s1', 'sent')] },
			known,
			new Set()
		);
		expect(again.again).toEqual(['r1']);
		expect(again.state).toMatchObject({ lastKnownSmsId: 'r2', lastKnownSentSmsId: 's1' });
		expect(threadsOf(again.state)).toHaveLength(1);
	});

	it('shows a thread in the order its messages were sent, whatever order they came in', () => {
		const dated = (smsId: string, direction: 'received' | 'sent', at: string) => ({
			...message(smsId, direction),
			sendingDate: at
		});
		// A fresh phone that sent m3, then fetched the whole history: m2 and m4 received, m1 sent.
		const sent = withSent(newPhone(identity), {
			smsId: 'm3',
			party: 'alice',
			sendingDate: '2026-03-01T09:03:00.000Z',
			text: 'three',
			contentType: 'text/plain',
			dispositionNotification: null,
			thread: 'alice'
		});
		const fetched = withFetched(
			sent,
			{
				received: [
					dated('m2', 'received', '2026-03-01T09:02:00.000Z'),
					dated('m4', 'received', '2026-03-01T09:04:00.000Z')
				],
				sent: [
					dated('m1', 'sent', '2026-03-01T09:01:00.000Z'),
					dated('m3', 'sent', '2026-03-01T09:03:00.000Z')
				]
			},
			new Set(),
			new Set()
		);
		const [thread] = threadsOf(fetched.state);
		expect(thread.messages.map((m) => m.smsId)).toEqual(['m1', 'm2', 'm3', 'm4']);
	});

	it('keeps the order it has when a date cannot be read', () => {
		const state = {
			...newPhone(identity),
			messages: ['b', 'a'].map((id, i) => ({
				...message(id),
				sendingDate: i === 0 ? 'yesterday' : '2026-03-01T09:00:00Z',
				ticks: { sent: false, pushed: false, fetched: true }
			}))
		};
		expect(threadsOf(state)[0].messages.map((m) => m.smsId)).toEqual(['b', 'a']);
	});

	it('ticks its own sent message fetched instead of listing it twice', () => {
		const sent = sentOne();
		const fetched = withFetched(
			sent,
			{ received: [], sent: [message('s1', 'sent')] },
			new Set(),
			new Set()
		);
		expect(fetched.state.messages).toHaveLength(1);
		expect(fetched.state.messages[0].ticks).toEqual({ sent: true, pushed: false, fetched: true });
	});

	it('takes its own sent message back once as the sync of its sent ids, a second time as a repeat', () => {
		const sent = sentOne();
		// The phone knows the sms_id Send Message answered, as the engine keeps it.
		const known = new Set(['s1']);
		const lists = { received: [message('r1')], sent: [message('s1', 'sent')] };
		const synced = withFetched(sent, lists, known, new Set());
		expect(synced.again).toEqual([]);
		expect(synced.state.messages.map((m) => [m.smsId, m.ticks.fetched])).toEqual([
			['s1', true],
			['r1', true]
		]);
		expect(synced.state.lastKnownSentSmsId).toBe('s1');
		expect(withFetched(synced.state, lists, known, new Set()).again).toEqual(['r1', 's1']);
	});

	it('marks a message whose text it shows in part', () => {
		const long = { ...message('r1'), text: 'x'.repeat(200), cut: true };
		const { state } = withFetched(
			newPhone(identity),
			{ received: [long], sent: [] },
			new Set(),
			new Set()
		);
		expect(state.messages[0].text).toBe(`${'x'.repeat(200)}…`);
	});

	it('lists its newest messages only, counting the rest', () => {
		const many = Array.from({ length: PHONE_MESSAGES + 50 }, (_, i) => message(`m${i}`));
		const { state } = withFetched(
			newPhone(identity),
			{ received: many, sent: [] },
			new Set(),
			new Set()
		);
		expect(state.messages).toHaveLength(PHONE_MESSAGES);
		expect(state.messagesOmitted).toBe(50);
		expect(state.lastKnownSmsId).toBe(`m${PHONE_MESSAGES + 49}`);
	});
});
