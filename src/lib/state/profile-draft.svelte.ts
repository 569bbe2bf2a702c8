import { sameDocument } from '$lib/core/profile/same';
import { wholeCatalogue } from './catalogue.svelte';
import type { DeclaredAccountKey } from '$lib/core/catalogue';
import type { MergeChoices } from '$lib/core/profile/merge';
import type { ProfileDocument, Scenario } from '$lib/core/profile';
import { LazyModule } from './lazy.svelte';
import type { Values } from '$lib/core/request';
import type { DraftStore } from './draft-store.svelte';
import type { SettingsSource } from './service-editor.svelte';
import type {
	DiscardedDraft,
	DraftState,
	OtherTabChanges,
	OtherTabConflict,
	ProfileSnapshot,
	SaveConflict,
	SaveMerge,
	Sharing
} from './draft-types';
import { keepForTab, keepLeft, sharedHolds } from './tab-draft.svelte';

/**
 * The draft's exchanges with the server and the other tabs, loaded once the page has settled, or
 * with the first write of the draft (300 ms after a change) if that comes first.
 */
type Sync = typeof import('./draft-sync.svelte');
let syncModule: Promise<Sync> | null = null;
/** True once that code is there: a draft is kept in the browser beyond the tab from then on. */
let syncLoaded = false;

function sync(): Promise<Sync> {
	// With the whole catalogue: which sample values are secrets is known before any is stored.
	syncModule ??= Promise.all([import('./draft-sync.svelte'), wholeCatalogue.ready()]).then(
		([module]) => {
			syncLoaded = true;
			return module;
		}
	);
	return syncModule;
}

/**
 * The profile being edited: a draft of its document on top of the revision it was loaded at.
 * Unsaved changes survive reloads in the browser's storage; a save names its base revision,
 * and a refusal (409) becomes a conflict the admin resolves.
 *
 * Tabs of one browser share the draft of a profile, field by field: each writes what changed
 * since it last read the shared draft, and takes what the others changed. A field two tabs
 * changed differently keeps this tab's value and is shown as an {@link OtherTabConflict}.
 */
/** Reads a kept XML's account keys: loaded only when a draft's kept XML is not the server's. */
const accountReader = new LazyModule(() => import('$lib/core/xml/account'));

type Kept = ProfileDocument['preservedXml'];

function sameKept(a: Kept, b: Kept): boolean {
	return (
		a.length === b.length &&
		a.every((k, i) => k.path === b[i].path && k.index === b[i].index && k.xml === b[i].xml)
	);
}

/**
 * The values of a profile with no scenario: one object, so that what is built from them (the
 * other services' statuses) is not built again on every key.
 */
const NO_VALUES: Values = Object.freeze({});

/** The draft write under way in this tab, if any: a page the tab moves to waits for it. */
export let draftWrite: Promise<unknown> = Promise.resolve();

export class ProfileDraft implements SettingsSource, DraftState {
	readonly id: string;
	readonly name: string;
	baseRevision = $state(0);
	document = $state() as ProfileDocument;
	saving = $state(false);
	error = $state<string | null>(null);
	conflict = $state<SaveConflict | null>(null);
	/** The side chosen for each conflicting field, by path. */
	choices = $state<MergeChoices>({});
	/** What the last save took from others' revisions, when it was merged. */
	merged = $state<SaveMerge | null>(null);
	/**
	 * The newest revision this page loaded or saved, which a discard goes back to. Written by this
	 * class and its sync module only.
	 */
	head = $state.raw<{ revision: number; document: ProfileDocument }>() as {
		revision: number;
		document: ProfileDocument;
	};
	scenarioIndex = $state(0);

	/** The kept XML the server read the account keys of, and those keys. */
	readonly #served: { xml: Kept; keys: DeclaredAccountKey[] } | null;
	/** The kept XML last read, and its keys: a keystroke leaves it as it was. */
	#read: { xml: Kept; keys: DeclaredAccountKey[] } | null = null;

	/** The account keys the profile's kept XML declares (read again only when it changes). */
	readonly #accountKeys = $derived.by(() => this.#keysOf(this.document.preservedXml));

	// Compared field by field, not as JSON: stringifying a megabyte body on each keystroke costs,
	// and a service left with no settings is no change.
	readonly #dirty = $derived(!sameDocument(this.document, this.head.document));

	/** True when the draft came back from the browser's storage. */
	restored = $state(false);
	/** What the last exchange with the shared draft took from another tab, if anything. */
	fromOtherTab = $state<OtherTabChanges | null>(null);
	/** Fields another tab changed too, which kept this tab's value. */
	otherTabConflict = $state<OtherTabConflict | null>(null);
	/** The draft as the last take from another tab left it (its note may be dismissed since). */
	lastTaken = $state.raw<ProfileDocument | null>(null);

	readonly sharing: Sharing;

	constructor(profile: ProfileSnapshot) {
		this.#served = profile.accountKeys
			? { xml: profile.document.preservedXml, keys: profile.accountKeys }
			: null;
		this.id = profile.id;
		this.name = profile.name;
		this.load(profile.revision, profile.document);
		this.sharing = {
			tab: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
			writes: 0,
			former: null,
			synced: this.head.document,
			syncedRevision: profile.revision,
			seen: null,
			committed: { seen: null, synced: this.head.document, syncedRevision: profile.revision }
		};
	}

	/** Makes a revision the draft's base and head, with no unsaved changes. */
	load(revision: number, document: ProfileDocument): void {
		this.fromOtherTab = null;
		this.lastTaken = null;
		this.otherTabConflict = null;
		this.baseRevision = revision;
		this.document = structuredClone(document);
		this.head = { revision, document: structuredClone(document) };
	}

	/** Loads the code that saves and shares the draft, before it is needed. */
	prepare(): void {
		void sync();
	}

	#keysOf(xml: Kept): DeclaredAccountKey[] {
		if (this.#read?.xml === xml) return this.#read.keys;
		let keys: DeclaredAccountKey[] | undefined;
		if (xml.length === 0) keys = [];
		else if (this.#served && sameKept(xml, this.#served.xml)) keys = this.#served.keys;
		else if (accountReader.value) keys = accountReader.value.declaredAccountKeys(xml);
		else accountReader.load();
		if (keys === undefined) return this.#served?.keys ?? [];
		this.#read = { xml, keys };
		return keys;
	}

	/** The account keys the profile's own XML declares (`<apiUser>` → `%account[apiUser]%`). */
	get accountKeys(): DeclaredAccountKey[] {
		return this.#accountKeys;
	}

	/** True when the draft differs from the revision it is based on. */
	get dirty(): boolean {
		return this.#dirty;
	}

	/**
	 * Takes back the draft kept in the browser, if there is one: on a clean page, as it was; over
	 * something typed meanwhile, merged with it field by field. The draft this tab's last page
	 * kept as it went comes first: this page goes on from it. A draft that cannot be read is
	 * dropped.
	 */
	async restoreStored(drafts: DraftStore): Promise<boolean> {
		const clean = !this.dirty;
		// Taken at once: a tab's kept draft is for one page.
		const kept = drafts.takeForTab(this.id);
		// And what pages of any tab kept as they went or were hidden, their writes maybe lost.
		const left = drafts.takeLeft(this.id);
		try {
			// A page with no draft kept, or only a saved one no newer than its own, loads nothing
			// (not even the code that would read one).
			const stored = await drafts.get(this.id);
			const nothing = !stored || (stored.clean && stored.baseRevision <= this.head.revision);
			if (nothing && kept === null && left.length === 0) return false;
			const module = await sync();
			const resumed = kept !== null && module.resumeFromTab(this, kept);
			let took = (await module.exchange(this, drafts, true)) || resumed;
			// On top of the shared draft as it is now; then shared, as those pages' writes would be.
			const tookLeft = left.map((text) => module.takeLeft(this, text)).includes(true);
			if (tookLeft) {
				took = true;
				await module.exchange(this, drafts, true);
			}
			if (took && clean) this.restored = true;
			return took;
		} catch {
			await drafts.update(this.id, () => null).catch(() => {});
			return false;
		}
	}

	/**
	 * What the page does as it goes (a reload, a closed tab, another address): keeps the draft at
	 * once for this tab's next page unless the shared draft already holds it, then shares it. The
	 * keeping loads with the page: one that goes before the sync module is there keeps its draft
	 * for the tab too (sharing it then waits for that module, and lands only if the page lives).
	 */
	leave(drafts: DraftStore): void {
		keepForTab(this, drafts);
		void this.hide(drafts).catch(() => {});
	}

	/**
	 * What the page does as it is hidden or goes: shares the draft at once, not when typing
	 * pauses, and keeps a copy for the next page of any tab until the shared draft holds it (a tab
	 * closed for good keeps no session storage, and a write under way as it closes may not land).
	 * The copy waits for the sync module, as the shared draft does.
	 */
	hide(drafts: DraftStore): Promise<void> {
		if (syncLoaded) keepLeft(this, drafts);
		return this.store(drafts);
	}

	/**
	 * Shares the draft with the browser's other tabs while it has unsaved changes, and tells them
	 * when it has none left (it was saved, discarded or typed back): they follow.
	 */
	async store(drafts: DraftStore): Promise<void> {
		// A save changes the revision only: the other tabs are told that too.
		const { synced, syncedRevision } = this.sharing;
		if (this.baseRevision === syncedRevision && sameDocument(this.document, synced)) return;
		// Kept while under way: the sync module may still be loading (it loads once the page has
		// settled), and a page the tab moves to next waits for this write before it reads.
		const write = sync().then((module) => module.exchange(this, drafts, false));
		draftWrite = write;
		await write;
		// Held by the shared draft now: a copy kept as the page was hidden would only be older.
		if (sharedHolds(this)) drafts.keepLeft(this.id, this.sharing.tab, null);
	}

	/** Takes the other tabs' changes as they write them; answers how to stop. */
	follow(drafts: DraftStore): () => void {
		return drafts.listen(this.id, (writer) => {
			if (writer === this.sharing.tab) return;
			void sync()
				.then((module) => module.exchange(this, drafts, false))
				.catch(() => {});
		});
	}

	/** Gives the fields of {@link otherTabConflict} the other tab's values. */
	async useOtherTab(): Promise<void> {
		(await sync()).useOtherTab(this);
	}

	/** Puts back this tab's values of the fields {@link fromOtherTab} took (what was typed since stays). */
	async undoOtherTab(): Promise<void> {
		(await sync()).undoOtherTab(this);
	}

	/**
	 * Drops the unsaved changes: the draft goes back to `head`, by default the newest revision
	 * this page loaded or saved. Returns what was dropped, which {@link undoDiscard} gives back.
	 */
	discard(
		drafts: DraftStore,
		head: { revision: number; document: ProfileDocument } = this.head
	): DiscardedDraft {
		const dropped: DiscardedDraft = {
			baseRevision: this.baseRevision,
			document: $state.snapshot(this.document) as ProfileDocument,
			savedRevision: head.revision,
			saved: head.document
		};
		this.load(head.revision, head.document);
		this.conflict = null;
		this.choices = {};
		this.merged = null;
		this.otherTabConflict = null;
		void this.store(drafts).catch(() => {});
		return dropped;
	}

	/**
	 * True when the draft's changes are all what the last exchange took from another tab: nothing
	 * was typed here since.
	 */
	get onlyTaken(): boolean {
		return this.lastTaken !== null && sameDocument(this.document, this.lastTaken);
	}

	/**
	 * Gives back a draft {@link discard} dropped, exactly as it was (and keeps it in the browser
	 * again), unless something was typed since. When the profile moved to a newer revision
	 * meanwhile (a restore, or another tab), or another tab's changes came in, the dropped
	 * changes go on top of them. Returns whether it did.
	 */
	async undoDiscard(dropped: DiscardedDraft, drafts: DraftStore): Promise<boolean> {
		if (this.dirty && !this.onlyTaken) return false;
		if (!this.dirty && this.head.revision === dropped.savedRevision) {
			this.document = $state.snapshot(dropped.document) as ProfileDocument;
			this.baseRevision = dropped.baseRevision;
		} else (await sync()).giveBack(this, dropped);
		await this.store(drafts);
		return true;
	}

	/** The newest revision this page loaded or saved, which a discard goes back to. */
	get saved(): ProfileDocument {
		return this.head.document;
	}

	/** The number of {@link saved}. */
	get savedRevision(): number {
		return this.head.revision;
	}

	settingsOf(serviceId: string): Record<string, string> {
		return this.document.services[serviceId as keyof ProfileDocument['services']] ?? {};
	}

	setSetting(serviceId: string, key: string, value: string): void {
		const current = this.settingsOf(serviceId);
		// Writing the value a setting already has changes nothing (no draft appears).
		if ((Object.hasOwn(current, key) ? current[key] : '') === value) return;
		const settings = { ...current };
		if (value === '') delete settings[key];
		else settings[key] = value;
		this.document = {
			...this.document,
			services: { ...this.document.services, [serviceId]: settings }
		};
	}

	/** Changes one push setting (writing the value it already has changes nothing). */
	setPush<K extends keyof ProfileDocument['push']>(
		key: K,
		value: ProfileDocument['push'][K]
	): void {
		if (this.document.push[key] === value) return;
		this.document = { ...this.document, push: { ...this.document.push, [key]: value } };
	}

	/** The names of the profile's scenarios, in order. */
	get scenarioNames(): string[] {
		return this.document.scenarios.map((s) => s.name);
	}

	/** Makes the scenario at `index` the one the preview uses. */
	selectScenario(index: number): void {
		this.scenarioIndex = Math.max(0, Math.min(index, this.document.scenarios.length - 1));
	}

	/** Adds a scenario (its name made unique) and selects it; answers its index. */
	addScenario(name: string, values: Values): number {
		const taken = this.scenarioNames;
		let unique = name.trim() || 'Scenario';
		for (let n = 2; taken.includes(unique); n++) unique = `${name.trim() || 'Scenario'} ${n}`;
		const scenario = { name: unique, values: structuredClone(values) as Scenario['values'] };
		this.document = { ...this.document, scenarios: [...this.document.scenarios, scenario] };
		this.scenarioIndex = this.document.scenarios.length - 1;
		return this.scenarioIndex;
	}

	/** Renames a scenario; answers what is wrong with the name, or null when it was renamed. */
	renameScenario(index: number, name: string): string | null {
		const trimmed = name.trim();
		if (trimmed === '') return 'A scenario needs a name.';
		if (trimmed.length > 100) return 'A scenario name has at most 100 characters.';
		if (this.scenarioNames.some((n, i) => n === trimmed && i !== index)) {
			return `Another scenario is named "${trimmed}".`;
		}
		const scenarios = this.document.scenarios.map((s, i) =>
			i === index ? { ...s, name: trimmed } : s
		);
		this.document = { ...this.document, scenarios };
		return null;
	}

	/** Deletes a scenario; the one before it becomes the current one. */
	removeScenario(index: number): void {
		const scenarios = this.document.scenarios.filter((_, i) => i !== index);
		this.document = { ...this.document, scenarios };
		this.scenarioIndex = Math.max(0, Math.min(this.scenarioIndex, scenarios.length - 1));
	}

	get values(): Values {
		return (this.document.scenarios[this.scenarioIndex]?.values ?? NO_VALUES) as Values;
	}

	set values(values: Values) {
		const scenarios = [...this.document.scenarios];
		const index = scenarios.length ? Math.min(this.scenarioIndex, scenarios.length - 1) : 0;
		const name = scenarios[index]?.name ?? 'Default';
		scenarios[index] = { name, values: values as ProfileDocument['scenarios'][number]['values'] };
		this.document = { ...this.document, scenarios };
	}

	get rawSubstitution(): boolean {
		return this.document.rawSubstitution;
	}

	set rawSubstitution(raw: boolean) {
		this.document = { ...this.document, rawSubstitution: raw };
	}

	/** True when every conflicting field has a chosen side. */
	get resolved(): boolean {
		return (this.conflict?.conflicts ?? []).every((c) => Object.hasOwn(this.choices, c.path));
	}

	/** Chooses the side a conflicting field takes at the next save. */
	choose(path: string, side: 'mine' | 'theirs'): void {
		this.choices = { ...this.choices, [path]: side };
	}

	/**
	 * Saves the draft as a new revision. The server merges it with revisions saved meanwhile,
	 * field by field; when both changed a field, the answer (409) becomes a conflict listing
	 * those fields, and the next save sends the chosen sides.
	 */
	async save(message: string, fetcher: typeof fetch = fetch): Promise<boolean> {
		this.saving = true;
		this.error = null;
		try {
			return await (await sync()).save(this, message, fetcher);
		} catch (error) {
			this.error = `The save failed: ${error instanceof Error ? error.message : 'network error'}. Nothing was lost: the draft is kept.`;
			return false;
		} finally {
			this.saving = false;
		}
	}

	/** Gives up this draft for the other revision (after a conflict). */
	takeTheirs(drafts: DraftStore): void {
		if (this.conflict) this.discard(drafts, this.conflict.current);
		this.error = null;
	}
}
