import type { DeclaredAccountKey } from '$lib/core/catalogue';
import type { ProfileDocument } from '$lib/core/profile';
import type { MergeChoices, MergeConflict } from '$lib/core/profile/merge';

/**
 * The profile draft's types, apart from its class: the modules that keep and share a draft
 * (`tab-draft`, `draft-sync`) work on {@link DraftState}, so they need not import the class that
 * loads them.
 */

/** A profile as the server answers it (the fields the editor uses). */
export interface ProfileSnapshot {
	id: string;
	name: string;
	revision: number;
	author: string | null;
	savedAt: number;
	document: ProfileDocument;
	/** The account keys its kept XML declares, as the server read them (the editor's page). */
	accountKeys?: DeclaredAccountKey[];
}

/** A save refused because someone saved first and changed some of the same fields. */
export interface SaveConflict {
	current: ProfileSnapshot;
	yours: ProfileDocument;
	/** The fields both changed differently: each needs a choice before the next save. */
	conflicts: MergeConflict[];
}

/** A save that was merged with revisions saved meanwhile. */
export interface SaveMerge {
	/** The revision it was merged with, and its author. */
	theirs: number;
	author: string | null;
	/** The fields that took their value (only they changed them), in the screens' words. */
	fromTheirs: string[];
	/** The conflicting fields settled by a choice. */
	chosen: string[];
}

/** A draft as `ProfileDraft.discard` dropped it, to be given back. */
export interface DiscardedDraft {
	baseRevision: number;
	document: ProfileDocument;
	/** The revision the discard went back to, and its document. */
	savedRevision: number;
	saved: ProfileDocument;
}

/** What a tab took from the draft another tab of this browser wrote. */
export interface OtherTabChanges {
	/** The fields it took, in the screens' words. */
	fields: string[];
	/** The newer revision this tab moved to with them (saved meanwhile), if any. */
	revision: number | null;
	/** This tab's draft before and after it took them: what an undo puts back. */
	before: ProfileDocument;
	after: ProfileDocument;
}

/** Fields this tab and another both changed, differently, before either heard of the other. */
export interface OtherTabConflict {
	conflicts: MergeConflict[];
	/** The draft both started from, and the other tab's: what "use the other tab's" takes. */
	base: ProfileDocument;
	theirs: ProfileDocument;
}

/** What the draft shares with the other tabs of this browser: the sync module's bookkeeping. */
export interface Sharing {
	/** This page's name among the tabs writing the shared draft, and its count of writes. */
	readonly tab: string;
	writes: number;
	/**
	 * The name of the page whose kept draft this one took back and goes on from (its tab's last
	 * page): its writes count as this page's own.
	 */
	former: string | null;
	/** The shared draft as this tab last read or wrote it: what another tab's changes are from. */
	synced: ProfileDocument;
	/** The revision that draft was based on. */
	syncedRevision: number;
	/** The stored draft this tab last read or wrote (`writer#version`). */
	seen: string | null;
	/** `seen`, `synced` and `syncedRevision` as of the last write or read that is stored. */
	committed: { seen: string | null; synced: ProfileDocument; syncedRevision: number };
}

/**
 * What keeping and sharing a draft read and write of it: the part of `ProfileDraft` (which
 * implements it) its sync and tab modules see.
 */
export interface DraftState {
	readonly id: string;
	baseRevision: number;
	document: ProfileDocument;
	error: string | null;
	conflict: SaveConflict | null;
	choices: MergeChoices;
	merged: SaveMerge | null;
	head: { revision: number; document: ProfileDocument };
	fromOtherTab: OtherTabChanges | null;
	otherTabConflict: OtherTabConflict | null;
	lastTaken: ProfileDocument | null;
	readonly sharing: Sharing;
	readonly dirty: boolean;
	readonly resolved: boolean;
	load(revision: number, document: ProfileDocument): void;
}
