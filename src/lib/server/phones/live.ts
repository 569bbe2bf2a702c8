import { EventEmitter } from 'node:events';
import type { PhoneState } from '$lib/core/phones';
import { maskSecretsIn, secretForms } from '$lib/core/request';
import { stepView, type FlowRunView, type FlowStepView } from '../flows';
import { announce, onAnnounce } from '../platform/cluster';
import type { ServerContext } from '../platform/context';
import { logger } from '../platform/logger';
import type { LiveItemRow, LiveLimits } from '../store/types';
import type { PhoneEvent } from './engine';
import { keptStep, type MessagingInput } from './journey';

export { LIVE_KEY } from './journey';

/**
 * A messaging run followed live: the page names a key of its own, opens the key's stream, then
 * runs the journey with it; each step and change of a phone is kept in the store under the key
 * (for a stream that connects or reconnects late, on any instance) and given to the streams open
 * on it: at once on this instance, on the others at its announcement. Keys belong to the user who
 * names them and expire; the kept run is the record.
 */

/** Items one key keeps: a run's steps and changes are far fewer, the limit is for a loop. */
export const LIVE_ITEMS = 200;

/** Keys one user has at once; their oldest go first beyond it, not another user's. */
export const LIVE_KEYS_PER_USER = 20;

/** Keys kept at once on all instances; the oldest go first beyond it. */
export const LIVE_KEYS = 1000;

/** Bytes of items all keys keep at once; the oldest items go first beyond it. */
export const LIVE_BYTES = 32 * 1024 * 1024;

/** How long a key is kept after its last item. */
export const LIVE_TTL_MS = 10 * 60_000;

const LIMITS: LiveLimits = {
	items: LIVE_ITEMS,
	keysPerUser: LIVE_KEYS_PER_USER,
	keys: LIVE_KEYS,
	bytes: LIVE_BYTES,
	ttlMs: LIVE_TTL_MS
};

/** One item of a followed run, as its stream sends it. */
export type LiveItem = { id: number } & (
	| { kind: 'step'; phone: string; step: FlowStepView }
	| { kind: 'state'; phone: string; state: PhoneState }
	| { kind: 'done'; run: FlowRunView }
);

type Item = LiveItem extends infer I ? (I extends LiveItem ? Omit<I, 'id'> : never) : never;

const events = new EventEmitter();
events.setMaxListeners(0);

/** The topic of a user's key, locally and in announcements: it names the key, never an item. */
const topicOf = (userId: number, key: string) => `live:${userId}:${key}`;

const itemOf = (row: LiveItemRow): LiveItem => ({ ...JSON.parse(row.item), id: row.seq });

/** What a stream of `userId`'s key reads: the kept items after an id, and the new ones. */
export function liveChannel(ctx: ServerContext, userId: number, key: string) {
	const topic = topicOf(userId, key);
	return {
		/** The kept items after `after`, newest first. */
		after: async (after: number) =>
			(
				await ctx.store.liveItems.after(userId, key, after, Date.now() - LIVE_TTL_MS, LIVE_ITEMS)
			).map(itemOf),
		/** Calls `listener` with each item this instance keeps from now on; returns the unsubscribe. */
		watch(listener: (item: LiveItem) => void): () => void {
			events.on(topic, listener);
			return () => events.off(topic, listener);
		},
		/** Pokes when another instance may have kept items (PostgreSQL); undefined on SQLite. */
		changes: (poke: () => void) => onAnnounce(topic, poke)
	};
}

/**
 * What a run of `input` followed under its `live` key publishes: each phone event as a page
 * draws it (a step as a kept step's view), the accounts' passwords masked, and the kept run.
 * Items are written one after the other, in the order the run gives them; a write that fails
 * leaves the run as it is (its kept run still holds everything).
 */
export function liveFeed(ctx: ServerContext, userId: number, key: string, input: MessagingInput) {
	const topic = topicOf(userId, key);
	const secrets = secretForms([input.values.sender.password, input.values.recipient.password]);
	let written: Promise<void> = Promise.resolve();
	let warned = false;
	const publish = (item: Item) => {
		const text = JSON.stringify(item);
		// Once more after a failure: two instances trimming the byte budget at once can deadlock.
		const add = () => ctx.store.liveItems.add(userId, key, text, Date.now(), LIMITS);
		written = written.then(async () => {
			try {
				const id = await add().catch(add);
				if (events.listenerCount(topic) > 0) events.emit(topic, { ...item, id });
				announce(topic);
			} catch (error) {
				if (warned) return;
				warned = true;
				logger().warn(
					{ component: 'live', err: error },
					'An item of a followed messaging run could not be kept: its streams miss it.'
				);
			}
		});
		return written;
	};
	return {
		listener(event: PhoneEvent): void {
			void publish(
				maskSecretsIn(
					event.kind === 'step'
						? { kind: 'step', phone: event.phone, step: keptStep(stepView(event.step)) }
						: event,
					secrets
				)
			);
		},
		/** Publishes the kept run; resolves once every item of the run is written. */
		done(run: FlowRunView): Promise<void> {
			return publish({ kind: 'done', run });
		}
	};
}
