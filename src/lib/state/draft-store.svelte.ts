import type { ProfileDocument } from '$lib/core/profile';

/**
 * Unsaved profile drafts kept in the browser (IndexedDB) until they are saved or discarded, and
 * shared by the browser's tabs: a tab that writes a draft tells the others (`BroadcastChannel`),
 * and they take its changes. Writes are asynchronous: keeping a draft with a megabyte body does
 * not stall typing, as a synchronous `localStorage` write of the same size would.
 */

/** What is kept of a draft between reloads, one per profile. */
export interface StoredDraft {
	baseRevision: number;
	document: ProfileDocument;
	/** The tab that wrote it, and which of that tab's writes it is. */
	writer?: string;
	version?: number;
	/**
	 * True when the document is the revision itself: a draft saved or discarded in one tab is kept
	 * this way, so that the other tabs follow it (and drop what it dropped).
	 */
	clean?: boolean;
	/**
	 * The newest revision the writer knows (saved or loaded), which the other tabs move to when it
	 * is newer than theirs; its document is left out when it is `document` (a clean draft).
	 */
	head?: { revision: number; document?: ProfileDocument };
}

/**
 * A tab's draft as its page was left, kept for that tab alone until its next page takes it: the
 * shared draft is written asynchronously, and a page reloaded or closed at once may go before
 * that write is done. It holds what the page knew of the shared draft, so that the next page
 * goes on as this one would have.
 */
export interface TabDraft {
	/** The page's name among the tabs writing the shared draft. */
	tab: string;
	/** The shared draft as the page last read or wrote it, its revision, and its name. */
	seen: string | null;
	synced: ProfileDocument;
	syncedRevision: number;
	baseRevision: number;
	document: ProfileDocument;
	head: { revision: number; document: ProfileDocument };
}

/** Where drafts are kept, and how tabs tell each other that one changed. */
export interface DraftStore {
	get(id: string): Promise<StoredDraft | undefined>;
	/**
	 * Reads a profile's draft and writes what `change` answers, in one step no other tab's write
	 * comes between: a draft to keep, null to forget it, undefined to leave it as it is. `change`
	 * runs synchronously.
	 */
	update(
		id: string,
		change: (stored: StoredDraft | undefined) => StoredDraft | null | undefined
	): Promise<void>;
	/** Tells the other tabs that `writer` changed the draft of profile `id`. */
	announce(id: string, writer: string): void;
	/** Calls `changed` with the writer whenever a tab announces a change of `id`; answers how to stop. */
	listen(id: string, changed: (writer: string) => void): () => void;
	/**
	 * Keeps text for this tab alone, at once (a tab draft of profile `id`, encoded by the sync
	 * module); null forgets it. When it cannot be kept, nothing is.
	 */
	keepForTab(id: string, text: string | null): void;
	/** Takes back the text {@link keepForTab} kept for profile `id` (it is forgotten), or null. */
	takeForTab(id: string): string | null;
	/**
	 * Keeps text for the next page of any tab, at once, in storage that a closed tab leaves: the
	 * last draft of profile `id` as the page named `page` went or was hidden, in the tab draft's
	 * form; null forgets it. When it cannot be kept, nothing is.
	 */
	keepLeft(id: string, page: string, text: string | null): void;
	/** Takes back every text {@link keepLeft} kept for profile `id` (they are forgotten). */
	takeLeft(id: string): string[];
}

/** A stored draft with unsaved changes (a saved or discarded one has none). */
export function unsavedDraft(stored: StoredDraft | undefined): StoredDraft | undefined {
	return stored && !stored.clean ? stored : undefined;
}

const DATABASE = 'provisioning-studio';
const DRAFTS = 'drafts';
const CHANNEL = 'provisioning-studio-drafts';

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

/** Runs `operation` in one transaction and answers once it is committed. */
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

let channel: BroadcastChannel | null = null;

function broadcast(): BroadcastChannel | null {
	if (typeof BroadcastChannel === 'undefined') return null;
	channel ??= new BroadcastChannel(CHANNEL);
	return channel;
}

const tabKey = (id: string) => `${DATABASE}:draft:${id}`;

/** The part of the Web Storage interface the tab drafts use. */
export type TabStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Writes `text` under `key` at once (null forgets it); when it cannot be kept, nothing is. */
function keepText(storage: () => TabStorage, key: string, text: string | null): void {
	try {
		if (text === null) storage().removeItem(key);
		else storage().setItem(key, text);
	} catch {
		// Full or unavailable: the shared draft's write is all there is, as without it.
		try {
			storage().removeItem(key);
		} catch {
			// unavailable
		}
	}
}

/**
 * Tab drafts kept in a tab's own storage (its session storage, in a browser): written at once as
 * a page goes, taken by the tab's next page. `storage` is asked for at each use (a page being
 * rendered on the server has none).
 */
export function tabDrafts(
	storage: () => TabStorage
): Pick<DraftStore, 'keepForTab' | 'takeForTab'> {
	return {
		keepForTab: (id, text) => keepText(storage, tabKey(id), text),
		takeForTab: (id) => {
			try {
				const text = storage().getItem(tabKey(id));
				if (text !== null) storage().removeItem(tabKey(id));
				return text;
			} catch {
				return null;
			}
		}
	};
}

/** What the browser-wide copies use of the Web Storage interface: they are found by name. */
export type BrowserStorage = TabStorage & Pick<Storage, 'key' | 'length'>;

const leftKey = (id: string, page: string) => `${DATABASE}:left:${id}:${page}`;

/**
 * Pages' last drafts kept in the browser's own storage (its local storage, which a closed tab
 * leaves), one per page, for the next page of any tab, until the shared draft holds them.
 */
export function leftDrafts(
	storage: () => BrowserStorage
): Pick<DraftStore, 'keepLeft' | 'takeLeft'> {
	return {
		keepLeft: (id, page, text) => keepText(storage, leftKey(id, page), text),
		takeLeft: (id) => {
			try {
				const store = storage();
				const prefix = leftKey(id, '');
				const keys: string[] = [];
				for (let i = 0; i < store.length; i++) {
					const key = store.key(i);
					if (key?.startsWith(prefix)) keys.push(key);
				}
				return keys.flatMap((key) => {
					const text = store.getItem(key);
					store.removeItem(key);
					return text === null ? [] : [text];
				});
			} catch {
				return [];
			}
		}
	};
}

interface Announcement {
	id: string;
	writer: string;
}

/** The browser's draft store. */
export const browserDrafts: DraftStore = {
	get: (id) => run('readonly', (drafts) => drafts.get(id) as IDBRequest<StoredDraft | undefined>),
	update: async (id, change) => {
		await run('readwrite', (drafts) => {
			const read = drafts.get(id) as IDBRequest<StoredDraft | undefined>;
			read.onsuccess = () => {
				const next = change(read.result);
				// A snapshot: a draft's document is reactive state and may change while it is written.
				if (next) drafts.put($state.snapshot(next), id);
				else if (next === null) drafts.delete(id);
			};
			return read;
		});
	},
	announce: (id, writer) => broadcast()?.postMessage({ id, writer } satisfies Announcement),
	listen: (id, changed) => {
		// A channel of its own: a channel does not hear its own messages, and this tab's other
		// listeners are told by their writer's name that the change is theirs.
		if (typeof BroadcastChannel === 'undefined') return () => {};
		const own = new BroadcastChannel(CHANNEL);
		own.onmessage = (event: MessageEvent<Announcement>) => {
			if (event.data?.id === id && typeof event.data.writer === 'string')
				changed(event.data.writer);
		};
		return () => own.close();
	},
	...tabDrafts(() => sessionStorage),
	...leftDrafts(() => localStorage)
};
