import type { PhoneState } from '$lib/core/phones';
import { maskSecretsIn, secretForms } from '$lib/core/request';
import { stepView, type FlowRunView, type FlowStepView } from '../flows';
import type { PhoneEvent } from './engine';
import { keptStep, type MessagingInput } from './journey';

export { LIVE_KEY } from './journey';

/**
 * A messaging run followed live: the page names a key of its own, opens the key's stream, then
 * runs the journey with it; each step and change of a phone is kept under the key (for a stream
 * that connects or reconnects late) and given to the streams open on it. Keys belong to the
 * user who names them, live in this instance's memory and expire; the kept run is the record.
 */

/** Items one key keeps: a run's steps and changes are far fewer, the limit is for a loop. */
export const LIVE_ITEMS = 200;

/** Keys kept at once by the instance; the oldest go first beyond it. */
export const LIVE_KEYS = 1000;

/** Bytes of items all keys keep at once; the oldest items go first beyond it. */
export const LIVE_BYTES = 32 * 1024 * 1024;

/** How long a key is kept after its last item or stream. */
export const LIVE_TTL_MS = 10 * 60_000;

/** One item of a followed run, as its stream sends it. */
export type LiveItem = { id: number } & (
	| { kind: 'step'; phone: string; step: FlowStepView }
	| { kind: 'state'; phone: string; state: PhoneState }
	| { kind: 'done'; run: FlowRunView }
);

type Listener = (item: LiveItem) => void;

interface Channel {
	items: LiveItem[];
	/** The size of each item, in step with `items`. */
	sizes: number[];
	next: number;
	listeners: Set<Listener>;
	touched: number;
}

const channels = new Map<string, Channel>();
let keptBytes = 0;

function dropOldest(channel: Channel): void {
	channel.items.shift();
	keptBytes -= channel.sizes.shift() ?? 0;
}

function drop(id: string, channel: Channel): void {
	for (const size of channel.sizes) keptBytes -= size;
	channels.delete(id);
}

function sweep(now: number): void {
	for (const [key, channel] of channels) {
		if (channel.listeners.size === 0 && now - channel.touched > LIVE_TTL_MS) drop(key, channel);
	}
	for (const [key, channel] of channels) {
		if (channels.size <= LIVE_KEYS) break;
		drop(key, channel);
	}
}

function channelOf(userId: number, key: string): Channel {
	const id = `${userId}:${key}`;
	const now = Date.now();
	let channel = channels.get(id);
	if (!channel) {
		sweep(now);
		channel = { items: [], sizes: [], next: 1, listeners: new Set(), touched: now };
		channels.set(id, channel);
	}
	channel.touched = now;
	return channel;
}

type Item = LiveItem extends infer I ? (I extends LiveItem ? Omit<I, 'id'> : never) : never;

function publish(channel: Channel, item: Item): void {
	const kept = { ...item, id: channel.next++ } as LiveItem;
	const size = JSON.stringify(kept).length;
	channel.items.push(kept);
	channel.sizes.push(size);
	keptBytes += size;
	if (channel.items.length > LIVE_ITEMS) dropOldest(channel);
	// Beyond the budget the oldest keys' oldest items go: their runs' kept records hold them.
	for (const other of channels.values()) {
		while (keptBytes > LIVE_BYTES && other.items.length) dropOldest(other);
		if (keptBytes <= LIVE_BYTES) break;
	}
	channel.touched = Date.now();
	for (const listener of channel.listeners) listener(kept);
}

/** What a stream of `userId`'s key reads: the kept items after an id, and the new ones. */
export function liveChannel(userId: number, key: string) {
	const channel = channelOf(userId, key);
	return {
		/** The kept items after `after`, newest first. */
		after: (after: number) => channel.items.filter((i) => i.id > after).reverse(),
		watch(listener: Listener): () => void {
			channel.listeners.add(listener);
			return () => {
				channel.listeners.delete(listener);
				channel.touched = Date.now();
			};
		}
	};
}

/**
 * What a run of `input` followed under its `live` key publishes: each phone event as a page
 * draws it (a step as a kept step's view), the accounts' passwords masked, and the kept run.
 */
export function liveFeed(userId: number, key: string, input: MessagingInput) {
	const channel = channelOf(userId, key);
	const secrets = secretForms([input.values.sender.password, input.values.recipient.password]);
	return {
		listener(event: PhoneEvent): void {
			publish(
				channel,
				maskSecretsIn(
					event.kind === 'step'
						? { kind: 'step', phone: event.phone, step: keptStep(stepView(event.step)) }
						: event,
					secrets
				)
			);
		},
		done(run: FlowRunView): void {
			publish(channel, { kind: 'done', run });
		}
	};
}
