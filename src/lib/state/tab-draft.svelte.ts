import type { ProfileDocument } from '$lib/core/profile';
import { sameDocument } from '$lib/core/profile/same';
import type { DraftStore, TabDraft } from './draft-store.svelte';
import type { DraftState } from './draft-types';

/**
 * What a page keeps for its tab as it goes (a reload, a closed tab, another address), written at
 * once to the tab's session storage. It loads with the page, not with the sync module: a page
 * left right after its first key, before that module is there, keeps its draft too. A copy for
 * the next page of any tab goes to the browser's local storage, as a page goes or is hidden.
 */

function snapshot(document: ProfileDocument): ProfileDocument {
	return $state.snapshot(document) as ProfileDocument;
}

/**
 * A tab draft as text: documents that are the same are written once (a draft with a megabyte
 * body is usually its head with a few characters more, and its synced copy is one of the two).
 */
function encodeTabDraft(kept: TabDraft): string {
	const texts: string[] = [];
	const ref = (document: ProfileDocument) => {
		const text = JSON.stringify(document);
		const at = texts.indexOf(text);
		return at >= 0 ? at : texts.push(text) - 1;
	};
	const { document, synced, head } = kept;
	return JSON.stringify({
		...kept,
		document: ref(document),
		synced: ref(synced),
		head: { revision: head.revision, document: ref(head.document) },
		documents: texts.map((text) => JSON.parse(text))
	});
}

/** True when the shared draft holds the draft as it is (as this page last read or wrote it). */
export function sharedHolds(draft: DraftState): boolean {
	const { committed } = draft.sharing;
	return (
		committed.syncedRevision === draft.baseRevision &&
		sameDocument(draft.document, committed.synced)
	);
}

/** The draft as a tab draft: with what the page knew of the shared draft. */
function encodeDraft(draft: DraftState): string {
	const { committed, tab } = draft.sharing;
	return encodeTabDraft({
		tab,
		seen: committed.seen,
		synced: committed.synced,
		syncedRevision: committed.syncedRevision,
		baseRevision: draft.baseRevision,
		document: snapshot(draft.document),
		head: draft.head
	});
}

/**
 * Keeps the draft for this tab's next page, at once, as the page goes: unless the shared draft
 * already holds it (as this page last read or wrote it). What the page knew of the shared draft
 * goes with it, so that the next page goes on as this one would have.
 */
export function keepForTab(draft: DraftState, drafts: DraftStore): void {
	drafts.keepForTab(draft.id, sharedHolds(draft) ? null : encodeDraft(draft));
}

/**
 * Keeps the draft for the next page of any tab, at once, as the page goes or is hidden (a tab
 * closed for good leaves no session storage, and the shared draft's write may not land): unless
 * the shared draft already holds it.
 */
export function keepLeft(draft: DraftState, drafts: DraftStore): void {
	drafts.keepLeft(draft.id, draft.sharing.tab, sharedHolds(draft) ? null : encodeDraft(draft));
}
