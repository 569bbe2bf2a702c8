import type { ProfileDocument } from '$lib/core/profile';

/**
 * Unsaved profile drafts kept in the browser (IndexedDB) until they are saved or discarded.
 * Writes are asynchronous: keeping a draft with a megabyte body does not stall typing, as a
 * synchronous `localStorage` write of the same size would.
 */

/** What is kept of a draft between reloads. */
export interface StoredDraft {
	baseRevision: number;
	document: ProfileDocument;
}

/** Where drafts are kept: one entry per profile id. */
export interface DraftStore {
	get(id: string): Promise<StoredDraft | undefined>;
	put(id: string, draft: StoredDraft): Promise<void>;
	delete(id: string): Promise<void>;
}

const DATABASE = 'provisioning-studio';
const DRAFTS = 'drafts';

let database: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
	database ??= new Promise((resolve, reject) => {
		const request = indexedDB.open(DATABASE, 1);
		request.onupgradeneeded = () => request.result.createObjectStore(DRAFTS);
		request.onsuccess = () => resolve(request.result);
		request.onerror = () => reject(request.error);
	});
	return database;
}

async function run<T>(
	mode: IDBTransactionMode,
	operation: (drafts: IDBObjectStore) => IDBRequest<T>
): Promise<T> {
	const db = await open();
	return new Promise((resolve, reject) => {
		const transaction = db.transaction(DRAFTS, mode);
		const request = operation(transaction.objectStore(DRAFTS));
		transaction.oncomplete = () => resolve(request.result);
		transaction.onerror = () => reject(transaction.error);
		transaction.onabort = () => reject(transaction.error);
	});
}

/** The browser's draft store. */
export const browserDrafts: DraftStore = {
	get: (id) => run('readonly', (drafts) => drafts.get(id) as IDBRequest<StoredDraft | undefined>),
	put: async (id, draft) => {
		// A snapshot: the draft's document is reactive state and may change while it is written.
		await run('readwrite', (drafts) => drafts.put($state.snapshot(draft), id));
	},
	delete: async (id) => {
		await run('readwrite', (drafts) => drafts.delete(id));
	}
};
