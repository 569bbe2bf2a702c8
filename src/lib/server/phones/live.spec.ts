import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PhoneState } from '$lib/core/phones';
import type { FlowRunView } from '../flows';
import type { ServerContext } from '../platform/context';
import { openSqliteStore } from '../store/open';
import type { Store } from '../store/types';
import type { MessagingInput } from './journey';
import { liveChannel, liveFeed, type LiveItem } from './live';

const input = {
	values: { sender: { password: 'alice-secret' }, recipient: { password: 'bob-secret' } }
} as MessagingInput;

const state = (label: string) => ({ identity: { label } }) as unknown as PhoneState;

let dir: string;
let store: Store;
let ctx: ServerContext;
let userId: number;

beforeAll(async () => {
	dir = mkdtempSync(path.join(tmpdir(), 'ps-live-'));
	store = openSqliteStore(dir);
	ctx = { store } as ServerContext;
	userId = (
		await store.users.create({
			email: 'live@example.test',
			name: 'Live',
			role: 'editor',
			passwordHash: '$scrypt$x',
			at: 1_000
		})
	).id;
});

afterAll(async () => {
	await store.close();
	rmSync(dir, { recursive: true, force: true });
});

describe('a run followed live', () => {
	it('keeps its items in order, numbered from 1, and gives them to the watchers here', async () => {
		const key = 'in-order-0123456789';
		const heard: LiveItem[] = [];
		const unwatch = liveChannel(ctx, userId, key).watch((item) => heard.push(item));
		const feed = liveFeed(ctx, userId, key, input);
		for (const label of ['a', 'b', 'c']) {
			feed.listener({ kind: 'state', phone: 'sender', state: state(label) });
		}
		await feed.done({ id: 7 } as FlowRunView);
		unwatch();
		expect(heard.map((i) => [i.id, i.kind])).toEqual([
			[1, 'state'],
			[2, 'state'],
			[3, 'state'],
			[4, 'done']
		]);
		const kept = await liveChannel(ctx, userId, key).after(1);
		expect(kept).toEqual(heard.slice(1).reverse());
		// The same key of another user is theirs: empty.
		expect(await liveChannel(ctx, userId + 1, key).after(0)).toEqual([]);
	});

	it("masks the accounts' passwords in what it keeps", async () => {
		const feed = liveFeed(ctx, userId, 'masked-0123456789abc', input);
		feed.listener({ kind: 'state', phone: 'sender', state: state('pass=alice-secret') });
		await feed.done({ id: 8 } as FlowRunView);
		const kept = JSON.stringify(await liveChannel(ctx, userId, 'masked-0123456789abc').after(0));
		expect(kept).toContain('pass=');
		expect(kept).not.toContain('alice-secret');
	});

	it('writes an item once more when its write fails, as a deadlock between instances would', async () => {
		let failures = 1;
		const flaky = {
			...store,
			liveItems: {
				...store.liveItems,
				add: (...args: Parameters<Store['liveItems']['add']>) =>
					failures-- > 0
						? Promise.reject(new Error('deadlock detected'))
						: store.liveItems.add(...args)
			}
		};
		const feed = liveFeed({ store: flaky } as ServerContext, userId, 'retried-0123456789', input);
		await feed.done({ id: 9 } as FlowRunView);
		expect(await liveChannel(ctx, userId, 'retried-0123456789').after(0)).toMatchObject([
			{ id: 1, kind: 'done' }
		]);
	});
});
