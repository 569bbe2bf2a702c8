import { fieldPathLabel } from '$lib/core/profile/diff';
import { sameDocument } from '$lib/core/profile/same';
import { mergeDocuments, type MergeChoices, type MergeConflict } from '$lib/core/profile/merge';
import type { ProfileDocument } from '$lib/core/profile';
import { isSecretKey } from '$lib/core/profile/secret-keys';
import type { DraftStore, StoredDraft, TabDraft } from './draft-store.svelte';
import type { DiscardedDraft, DraftState } from './draft-types';

/**
 * How a profile's draft is saved, and shared by the tabs of a browser. Loaded once the page has
 * settled, or with the draft's first write: typing never waits for this code. What a page keeps
 * for its tab as it goes is in `tab-draft.svelte.ts`, which loads with the page.
 *
 * Tabs share the draft field by field: each writes what changed since it last read the shared
 * draft, and takes what the others changed since. A field two tabs changed differently keeps the
 * value of the tab that finds the other's, and that tab says so (`otherTabConflict`).
 */

/** Names one write of a stored draft. */
function seenKey(stored: StoredDraft): string {
	return `${stored.writer ?? ''}#${stored.version ?? 0}`;
}

function snapshot(document: ProfileDocument): ProfileDocument {
	return $state.snapshot(document) as ProfileDocument;
}

/**
 * Reads the shared draft, takes what another tab changed since this one last read it, and
 * writes the outcome when it differs from what is stored. Answers whether it took anything.
 */
export async function exchange(
	draft: DraftState,
	drafts: DraftStore,
	restoring: boolean
): Promise<boolean> {
	const sharing = draft.sharing;
	let wrote = false;
	let took = false;
	let after = sharing.committed;
	try {
		await drafts.update(draft.id, (stored) => {
			const outcome = write(draft, stored, restoring);
			const { seen, synced, syncedRevision } = sharing;
			after = { seen, synced, syncedRevision };
			took = outcome.took;
			wrote = outcome.write !== undefined;
			return outcome.write;
		});
	} catch (error) {
		// Nothing was written: the shared draft is as this tab last knew it.
		Object.assign(sharing, sharing.committed);
		throw error;
	}
	sharing.committed = after;
	if (wrote) drafts.announce(draft.id, sharing.tab);
	return took;
}

/**
 * What {@link exchange} writes over `stored`: the draft with what another tab changed taken,
 * unless the stored one says the same. Keeps the tab's bookkeeping.
 */
function write(
	draft: DraftState,
	stored: StoredDraft | undefined,
	restoring: boolean
): { write: StoredDraft | undefined; took: boolean } {
	const sharing = draft.sharing;
	// This tab's own writes are never news, even one it did not hear back from, nor those of the
	// page it goes on from.
	const own = stored !== undefined && [sharing.tab, sharing.former].includes(stored.writer ?? '');
	const news = stored !== undefined && seenKey(stored) !== sharing.seen && !own;
	// Read here, not before: what is typed while the store is opened is part of it.
	const mine = snapshot(draft.document);
	const next = news ? take(draft, stored, mine, restoring) : mine;
	sharing.synced = next;
	sharing.syncedRevision = draft.baseRevision;
	const head = draft.head;
	const clean = sameDocument(next, head.document);
	const same =
		stored !== undefined &&
		stored.baseRevision === draft.baseRevision &&
		headOf(stored).revision === head.revision &&
		Boolean(stored.clean) === clean &&
		sameDocument(stored.document, next);
	// A clean page that never shared a draft has nothing to tell.
	const nothingToSay = clean && !news && sharing.seen === null;
	if (same || nothingToSay) {
		if (stored) sharing.seen = seenKey(stored);
		return { write: undefined, took: next !== mine };
	}
	const write: StoredDraft = {
		baseRevision: draft.baseRevision,
		document: next,
		writer: sharing.tab,
		version: ++sharing.writes,
		// A clean draft is its head: its document is not kept twice.
		head: clean ? { revision: head.revision } : head
	};
	if (clean) write.clean = true;
	sharing.seen = seenKey(write);
	return { write, took: next !== mine };
}

/**
 * The newest revision a stored draft's writer knew. A draft kept before heads were kept names
 * its base revision, and its document only when it was clean.
 */
function headOf(stored: StoredDraft): { revision: number; document?: ProfileDocument } {
	if (!stored.head) {
		return { revision: stored.baseRevision, document: stored.clean ? stored.document : undefined };
	}
	return stored.head.document || !stored.clean
		? stored.head
		: { revision: stored.head.revision, document: stored.document };
}

/**
 * The merge between drafts of this browser: they all show the stored secrets as the same mask,
 * so the mask is compared as a value (a discard that puts it back is a change to follow).
 */
function merge(
	base: ProfileDocument,
	mine: ProfileDocument,
	theirs: ProfileDocument,
	choices: MergeChoices = {}
) {
	return mergeDocuments(base, mine, theirs, choices, { maskIsValue: true });
}

/** True when `mine` gives a secret sample value another value than `from` (masked or not). */
function changesSecret(from: ProfileDocument, mine: ProfileDocument): boolean {
	const before = new Map(from.scenarios.map((s) => [s.name, s.values]));
	return mine.scenarios.some((scenario) =>
		Object.entries(scenario.values).some(
			([key, value]) => isSecretKey(key) && before.get(scenario.name)?.[key] !== value
		)
	);
}

/** The fields (as the merge names them) `changed` holds differently from `from`. */
function changedFields(from: ProfileDocument, changed: ProfileDocument): Set<string> {
	return new Set(merge(from, changed, from).fromMine);
}

/**
 * Merges another tab's draft into this one: takes the fields only the other tab changed since
 * this one last read the shared draft, and keeps this tab's value where both did. Tabs on
 * different revisions meet on the newer one first: the one behind moves to it, its own changes
 * kept on top. Answers the outcome (`mine` itself when nothing was taken).
 */
function take(
	draft: DraftState,
	stored: StoredDraft,
	mine: ProfileDocument,
	restoring: boolean
): ProfileDocument {
	// A conflict shown before is about drafts that are not the latest any more.
	draft.otherTabConflict = null;
	let base = draft.sharing.synced;
	let theirs = stored.document;
	const theirHead = headOf(stored);
	// The base revision each side's changes are safe on: its own, unless it moved.
	let ownBase = draft.baseRevision;
	let theirBase = stored.clean ? Infinity : stored.baseRevision;
	let moved: number | null = null;
	if (theirHead.document && theirHead.revision > draft.head.revision) {
		// A newer revision (saved in the other tab, or loaded there): this tab moves to it, what it
		// had (shared or not) kept on top.
		const from = draft.head;
		const rebased = merge(from.document, mine, theirHead.document);
		// Changes of this tab's own (since it last read the shared draft) are on top of the new
		// revision now, unless it changed some of those fields otherwise, or the tab changed a
		// secret (masked, it cannot be compared): then the older base stays, and the save asks
		// about those. What this tab took from the shared draft is the other tab's, whose own
		// base says where it stands; a field the revision holds as this tab last read it is no
		// clash, whatever this tab typed on top of it.
		const clash =
			merge(base, mine, theirHead.document).conflicts.length > 0 || changesSecret(base, mine);
		base = merge(from.document, base, theirHead.document).document;
		if (!clash && ownBase === from.revision) ownBase = theirHead.revision;
		mine = rebased.document;
		draft.head = { revision: theirHead.revision, document: theirHead.document };
		moved = theirHead.revision;
		// A save conflict about an older revision is settled by the newer one.
		if (draft.conflict && draft.conflict.current.revision < moved) {
			draft.conflict = null;
			draft.choices = {};
		}
	} else if (theirHead.document && theirHead.revision < draft.head.revision) {
		// The other tab is behind: its changes are taken on top of this tab's revision. What it
		// holds as this tab last shared it is this tab's, not a change of its own.
		const rebased = merge(theirHead.document, theirs, draft.head.document);
		const own = changedFields(base, theirs);
		const clash = rebased.conflicts.some((c) => own.has(c.path)) || changesSecret(base, theirs);
		theirs = rebased.document;
		if (!clash && theirBase === theirHead.revision) theirBase = draft.head.revision;
	}
	const result = merge(base, mine, theirs);
	if (result.conflicts.length) {
		draft.otherTabConflict = { conflicts: result.conflicts, base, theirs };
	}
	const next = result.fromTheirs.length || moved !== null ? result.document : mine;
	// The base revision a save names: the head's when nothing is left unsaved, else the older of
	// the two sides' safe bases, so that the server asks about any field a revision in between
	// changed too.
	if (sameDocument(next, draft.head.document)) draft.baseRevision = draft.head.revision;
	else draft.baseRevision = Math.min(ownBase, theirBase);
	if (next === mine) return mine;
	if (!restoring) {
		const fields = result.fromTheirs.map(fieldPathLabel);
		draft.fromOtherTab = { fields, revision: moved, before: mine, after: next };
		draft.lastTaken = next;
	}
	draft.document = next;
	return next;
}

/** Gives the fields of the draft's `otherTabConflict` the other tab's values. */
export function useOtherTab(draft: DraftState): void {
	const conflict = draft.otherTabConflict;
	if (!conflict) return;
	const choices: MergeChoices = {};
	for (const c of conflict.conflicts) choices[c.path] = 'theirs';
	const before = snapshot(draft.document);
	const after = merge(conflict.base, before, conflict.theirs, choices).document;
	draft.document = after;
	draft.otherTabConflict = null;
	// Said as any take is, with its Undo: this tab's values are one click away.
	const fields = conflict.conflicts.map((c) => c.label);
	draft.fromOtherTab = { fields, revision: null, before, after };
	draft.lastTaken = after;
}

/**
 * Gives back the values the draft's `fromOtherTab` took from another tab; what was typed since
 * stays. The other tab takes them back in turn, as any change.
 */
export function undoOtherTab(draft: DraftState): void {
	const took = draft.fromOtherTab;
	if (!took) return;
	draft.document = merge(took.after, snapshot(draft.document), took.before).document;
	draft.fromOtherTab = null;
}

/**
 * Gives back a discarded draft after the profile moved to a newer revision, or another tab's
 * changes came in (the caller checked that nothing was typed since): its changes go on top of
 * the draft, naming the older base where the newer revision or the other tab changed the same
 * fields.
 */
export function giveBack(draft: DraftState, dropped: DiscardedDraft): void {
	const rebased = merge(dropped.saved, dropped.document, snapshot(draft.document));
	const clash = rebased.conflicts.length > 0 || changesSecret(dropped.saved, dropped.document);
	draft.document = rebased.document;
	const base =
		!clash && dropped.baseRevision === dropped.savedRevision
			? draft.head.revision
			: dropped.baseRevision;
	// What came from another tab keeps the base it was taken with, when that one is older.
	draft.baseRevision = Math.min(base, draft.baseRevision);
}

/**
 * A tab draft as `keepForTab` (`tab-draft.svelte.ts`, which loads with the page) wrote it;
 * undefined when it cannot be read as one.
 */
function decodeTabDraft(text: string): TabDraft | undefined {
	const kept = JSON.parse(text);
	const documents: ProfileDocument[] = kept?.documents;
	const known = (at: unknown) => typeof at === 'number' && documents[at] !== undefined;
	// Kept by another release of the app, or changed by hand: not taken.
	if (!Array.isArray(documents) || typeof kept.tab !== 'string') return undefined;
	if (![kept.document, kept.synced, kept.head?.document].every(known)) return undefined;
	return {
		tab: kept.tab,
		seen: kept.seen,
		synced: documents[kept.synced],
		syncedRevision: kept.syncedRevision,
		baseRevision: kept.baseRevision,
		document: documents[kept.document],
		head: { revision: kept.head.revision, document: documents[kept.head.document] }
	};
}

/** A kept tab draft `draft` can take: readable, and on no newer revision than its own. */
function readTabDraft(text: string, draft: DraftState): TabDraft | undefined {
	try {
		const kept = decodeTabDraft(text);
		return kept && kept.head.revision <= draft.head.revision ? kept : undefined;
	} catch {
		return undefined;
	}
}

/** Puts a kept draft's changes on top of `draft`'s newer revision, as a discarded draft's go. */
function giveBackKept(draft: DraftState, kept: TabDraft): void {
	giveBack(draft, {
		baseRevision: kept.baseRevision,
		document: kept.document,
		savedRevision: kept.head.revision,
		saved: kept.head.document
	});
}

/**
 * Takes back what this tab's last page kept as it went (`text`, see {@link keepForTab}). On the
 * revision this page loaded, and with nothing typed yet, the page goes on as that one: from what
 * it knew of the shared draft, that page's writes counting as its own. On a newer revision (saved
 * elsewhere meanwhile) its changes go on top of it, as a discarded draft's do; over something
 * typed meanwhile, they are merged with it (what was typed wins a field both changed). Answers
 * whether it took anything.
 */
export function resumeFromTab(draft: DraftState, text: string): boolean {
	const kept = readTabDraft(text, draft);
	if (!kept) return false;
	if (draft.dirty) {
		draft.document = merge(kept.head.document, snapshot(draft.document), kept.document).document;
		return true;
	}
	if (kept.head.revision < draft.head.revision) {
		giveBackKept(draft, kept);
		return true;
	}
	draft.document = kept.document;
	draft.baseRevision = kept.baseRevision;
	// Under a name of its own: a window opened from the tab may hold a copy of what was kept.
	const { tab, seen, synced, syncedRevision } = kept;
	Object.assign(draft.sharing, { former: tab, seen, synced, syncedRevision });
	draft.sharing.committed = { seen, synced, syncedRevision };
	return true;
}

/**
 * Takes what a page of any tab kept for the browser as it went or was hidden (`text`, see
 * `keepLeft`), after this page has read the shared draft: the changes that page made since it
 * last read or wrote the shared draft go on top of this draft, as its write would have put them.
 * A field this draft holds otherwise keeps this draft's value (the newer page wins). On an older
 * revision its changes go on top of this one, as a discarded draft's do. Answers whether it took
 * anything.
 */
export function takeLeft(draft: DraftState, text: string): boolean {
	const left = readTabDraft(text, draft);
	if (!left) return false;
	const before = snapshot(draft.document);
	if (left.head.revision < draft.head.revision || left.syncedRevision !== left.baseRevision) {
		giveBackKept(draft, left);
	} else {
		draft.document = merge(left.synced, before, left.document).document;
		draft.baseRevision = Math.min(draft.baseRevision, left.baseRevision);
	}
	return !sameDocument(before, draft.document);
}

/**
 * Saves the draft as a new revision (see `ProfileDraft.save`). Answers whether it was saved; a
 * refusal leaves the draft as it was, with the conflict or the error to show.
 */
export async function save(
	draft: DraftState,
	message: string,
	fetcher: typeof fetch
): Promise<boolean> {
	const conflict = draft.conflict;
	const resolving = conflict && conflict.conflicts.length > 0 && draft.resolved;
	const sent = draft.document;
	const response = await fetcher(`/api/profiles/${draft.id}`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			baseRevision: draft.baseRevision,
			document: sent,
			message: message || undefined,
			...(resolving ? { choices: draft.choices, theirsRevision: conflict.current.revision } : {})
		})
	});
	const body = await response.json();
	if (response.ok) {
		const head: ProfileDocument = body.profile.document;
		// What changed while the save was on its way (typed, or taken from another tab) stays a
		// change on top of the saved revision.
		const next =
			draft.document === sent
				? null
				: merge(snapshot(sent), snapshot(draft.document), head).document;
		draft.load(body.profile.revision, head);
		if (next) draft.document = next;
		draft.conflict = null;
		draft.choices = {};
		draft.merged = body.merged
			? {
					theirs: body.merged.theirs,
					author: conflict?.current.author ?? null,
					fromTheirs: body.merged.fromTheirs.map(fieldPathLabel),
					chosen: body.merged.chosen
				}
			: null;
		return true;
	}
	if (response.status === 409) {
		const conflicts: MergeConflict[] = body.conflicts ?? [];
		// Choices made for fields that still conflict are kept.
		const choices: MergeChoices = {};
		for (const c of conflicts) {
			if (Object.hasOwn(draft.choices, c.path)) choices[c.path] = draft.choices[c.path];
		}
		draft.choices = choices;
		draft.conflict = { current: body.current, yours: draft.document, conflicts };
		draft.error = null;
		return false;
	}
	draft.error = body.error?.message ?? `The save failed (${response.status}).`;
	return false;
}
