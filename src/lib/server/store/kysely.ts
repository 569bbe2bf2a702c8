import { sql } from 'kysely';
import { migrate } from './migrations';
import { accountStore } from './tables/accounts';
import { auditEntryWriter, auditStore } from './tables/audit';
import { flowRunStore } from './tables/flow-runs';
import { liveItemStore } from './tables/live-items';
import { profileStore } from './tables/profiles';
import { sandboxStore } from './tables/sandboxes';
import { queries, type Backend, type StoreOptions } from './tables/shared';
import { signInFlowStore } from './tables/sign-in-flows';
import { sinkStore } from './tables/sinks';
import { testCallStore } from './tables/test-calls';
import { tokenStore } from './tables/tokens';
import type { Store } from './types';

export type { Backend, RunCompiled, RunNow, StoreOptions } from './tables/shared';

/**
 * The store over the query builder, the same code for SQLite and PostgreSQL. What differs
 * between them is given by the opener (`open.ts`): the connection, and how a high-volume write
 * relaxes durability. Each group of tables has its module in `tables/`; this one assembles them.
 */

/**
 * The store over a backend. Its schema is migrated before the first query runs; when that fails
 * (the database is unreachable at start), the next call tries again, so the app recovers by
 * itself once the database is back.
 */
export function kyselyStore(backend: Backend, options: StoreOptions = {}): Store {
	const { db, dialect } = backend;
	let ready: Promise<void> | undefined;
	const whenReady = () => {
		ready ??= migrate(db, dialect).then(
			() => undefined,
			(error: unknown) => {
				ready = undefined;
				throw error;
			}
		);
		return ready;
	};
	const q = queries(backend, options);
	const store: Store = {
		backend: dialect,
		async ready() {
			await whenReady();
		},
		async ping() {
			await sql`SELECT 1`.execute(db);
		},
		...accountStore(q),
		...signInFlowStore(q),
		...tokenStore(q),
		...profileStore(q),
		...testCallStore(q, auditEntryWriter(q)),
		...flowRunStore(q),
		...sinkStore(q),
		...sandboxStore(q),
		...liveItemStore(q),
		...auditStore(q),
		async close() {
			await backend.close();
		}
	};
	return gated(store, whenReady);
}

/** The store with every data method waiting for the migrations first. */
function gated(store: Store, whenReady: () => Promise<void>): Store {
	const wrapped: Record<string, unknown> = { ...store };
	for (const [name, part] of Object.entries(store)) {
		if (typeof part !== 'object' || part === null) continue;
		const methods: Record<string, unknown> = {};
		for (const [key, fn] of Object.entries(part as Record<string, unknown>)) {
			methods[key] =
				typeof fn === 'function'
					? async (...args: unknown[]) => {
							await whenReady();
							return (fn as (...a: unknown[]) => unknown)(...args);
						}
					: fn;
		}
		wrapped[name] = methods;
	}
	return wrapped as unknown as Store;
}
