import { observedPushes, type ObservedPush } from '$lib/core/phones';
import type { ServerContext } from '../platform/context';
import {
	sandboxChanges,
	sandboxPushes,
	watchSandbox,
	type SandboxPushView
} from '../push/sandboxes';

/**
 * What a sandbox answers while virtual phones wait for pushes: every element from now on, from
 * this instance's records as they are written and, with several instances on PostgreSQL, read
 * after each announcement. A provider pushing a thousand times fills a bounded list and a count.
 */

/** Elements kept of a round's pushes; the rest are counted. */
export const WATCH_KEEP = 200;

/** Distinct tokens and ids counted in a round. */
const WATCH_COUNTED = 10_000;

/** The key of a token and push Id in {@link SandboxWatch.counts}. */
export function pushKey(token: string, id: unknown): string {
	return `${token}\n${typeof id === 'string' ? id : ''}`;
}

export class SandboxWatch {
	readonly pushes: ObservedPush[] = [];
	omitted = 0;
	/** NotifyTextMessage elements accepted per token and Id, kept or not (see {@link pushKey}). */
	readonly counts = new Map<string, number>();
	/** Tokens the sandbox answered 404 for before the watch began, with when. */
	readonly unregisteredBefore = new Map<string, number>();
	#lastId = 0;
	readonly #seen = new Set<number>();
	readonly #waiters = new Set<() => void>();
	readonly #stops: (() => void)[] = [];
	#reading: Promise<void> | null = null;
	#again = false;

	private constructor(
		readonly ctx: ServerContext,
		readonly sandboxId: string
	) {}

	/** Starts watching sandbox `id`; what it recorded before is only read for its 404s. */
	static async start(ctx: ServerContext, sandboxId: string): Promise<SandboxWatch> {
		const watch = new SandboxWatch(ctx, sandboxId);
		watch.#stops.push(watchSandbox(sandboxId, (view) => watch.#record(view)));
		const remote = sandboxChanges(sandboxId, () => watch.#poke());
		if (remote) watch.#stops.push(remote);
		const earlier = await sandboxPushes(ctx, sandboxId, 0);
		for (const view of [...earlier].reverse()) {
			if (watch.#seen.has(view.id)) continue;
			watch.#lastId = Math.max(watch.#lastId, view.id);
			for (const p of observedPushes(view)) {
				if (p.status === 404 && !watch.unregisteredBefore.has(p.token)) {
					watch.unregisteredBefore.set(p.token, p.at);
				}
			}
		}
		return watch;
	}

	#record(view: SandboxPushView): void {
		if (this.#seen.has(view.id) || view.id <= this.#lastId) return;
		this.#seen.add(view.id);
		for (const p of observedPushes(view)) {
			if (this.pushes.length < WATCH_KEEP) this.pushes.push(p);
			else this.omitted++;
			if (p.status !== 200 || p.push.verb !== 'NotifyTextMessage') continue;
			const key = pushKey(p.token, p.push.Id);
			if (this.counts.has(key) || this.counts.size < WATCH_COUNTED) {
				this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
			}
		}
		for (const wake of this.#waiters) wake();
	}

	/** Another instance recorded pushes: read them (one read at a time, once more if poked meanwhile). */
	#poke(): void {
		if (this.#reading) {
			this.#again = true;
			return;
		}
		const after = Math.max(this.#lastId, ...this.#seen);
		this.#reading = sandboxPushes(this.ctx, this.sandboxId, after)
			.then((views) => {
				for (const view of [...views].reverse()) this.#record(view);
			})
			.catch(() => {})
			.finally(() => {
				this.#reading = null;
				if (this.#again) {
					this.#again = false;
					this.#poke();
				}
			});
	}

	/** The first element that `matches`, waiting at most `timeoutMs`; null at the timeout. */
	waitFor(matches: (p: ObservedPush) => boolean, timeoutMs: number): Promise<ObservedPush | null> {
		const found = () => this.pushes.find(matches) ?? null;
		const now = found();
		if (now) return Promise.resolve(now);
		return new Promise((resolve) => {
			const done = (value: ObservedPush | null) => {
				clearTimeout(timer);
				this.#waiters.delete(wake);
				resolve(value);
			};
			const wake = () => {
				const hit = found();
				if (hit) done(hit);
			};
			const timer = setTimeout(() => done(null), timeoutMs);
			this.#waiters.add(wake);
		});
	}

	stop(): void {
		for (const stop of this.#stops) stop();
		this.#waiters.clear();
	}
}
