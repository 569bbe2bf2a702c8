import { sameJson } from '$lib/core/profile/diff';
import type { DeclaredAccountKey } from '$lib/core/catalogue';
import type { ProfileDocument, Scenario } from '$lib/core/profile';
import { declaredAccountKeys } from '$lib/core/xml/account';
import type { Values } from '$lib/core/request';
import type { DraftStore } from './draft-store.svelte';
import type { SettingsSource } from './service-editor.svelte';

/** A profile as the server answers it (the fields the editor uses). */
export interface ProfileSnapshot {
	id: string;
	name: string;
	revision: number;
	author: string | null;
	savedAt: number;
	document: ProfileDocument;
}

/** A save refused because someone saved first. */
export interface SaveConflict {
	current: ProfileSnapshot;
	yours: ProfileDocument;
}

/**
 * The profile being edited: a draft of its document on top of the revision it was loaded at.
 * Unsaved changes survive reloads in the browser's storage; a save names its base revision,
 * and a refusal (409) becomes a conflict the admin resolves.
 */
export class ProfileDraft implements SettingsSource {
	readonly id: string;
	readonly name: string;
	baseRevision = $state(0);
	document = $state() as ProfileDocument;
	saving = $state(false);
	error = $state<string | null>(null);
	conflict = $state<SaveConflict | null>(null);
	#saved = $state.raw<ProfileDocument>() as ProfileDocument;
	scenarioIndex = $state(0);

	/** The account keys the profile's kept XML declares (read again only when it changes). */
	readonly #accountKeys = $derived.by(() => declaredAccountKeys(this.document.preservedXml));

	// Compared value by value, not as JSON: stringifying a megabyte body on each keystroke costs.
	readonly #dirty = $derived(!sameJson(this.document, this.#saved));

	/** True when the draft came back from the browser's storage. */
	restored = $state(false);

	constructor(profile: ProfileSnapshot) {
		this.id = profile.id;
		this.name = profile.name;
		this.#load(profile.revision, profile.document);
	}

	#load(revision: number, document: ProfileDocument): void {
		this.baseRevision = revision;
		this.document = structuredClone(document);
		this.#saved = structuredClone(document);
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
	 * Takes back a draft kept in the browser, if there is one and nothing was typed meanwhile.
	 * A draft that cannot be read is dropped.
	 */
	async restoreStored(drafts: DraftStore): Promise<boolean> {
		try {
			const stored = await drafts.get(this.id);
			if (!stored || this.dirty) return false;
			this.document = stored.document;
			this.baseRevision = stored.baseRevision;
			this.restored = true;
			return true;
		} catch {
			await drafts.delete(this.id).catch(() => {});
			return false;
		}
	}

	/** Keeps the draft in the browser while it has unsaved changes, and forgets it after. */
	async store(drafts: DraftStore): Promise<void> {
		if (!this.dirty) await drafts.delete(this.id);
		else await drafts.put(this.id, { baseRevision: this.baseRevision, document: this.document });
	}

	/** Drops the unsaved changes. */
	discard(drafts: DraftStore, head: ProfileSnapshot): void {
		void drafts.delete(this.id).catch(() => {});
		this.#load(head.revision, head.document);
		this.conflict = null;
	}

	settingsOf(serviceId: string): Record<string, string> {
		return this.document.services[serviceId as keyof ProfileDocument['services']] ?? {};
	}

	setSetting(serviceId: string, key: string, value: string): void {
		const settings = { ...this.settingsOf(serviceId) };
		if (value === '') delete settings[key];
		else settings[key] = value;
		this.document = {
			...this.document,
			services: { ...this.document.services, [serviceId]: settings }
		};
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
		return (this.document.scenarios[this.scenarioIndex]?.values ?? {}) as Values;
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

	/** Saves the draft as a new revision; on 409 keeps it and records the conflict. */
	async save(message: string, fetcher: typeof fetch = fetch): Promise<boolean> {
		this.saving = true;
		this.error = null;
		try {
			const response = await fetcher(`/api/profiles/${this.id}`, {
				method: 'PUT',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					baseRevision: this.baseRevision,
					document: this.document,
					message: message || undefined
				})
			});
			const body = await response.json();
			if (response.ok) {
				this.#load(body.profile.revision, body.profile.document);
				this.conflict = null;
				return true;
			}
			if (response.status === 409) {
				this.conflict = { current: body.current, yours: this.document };
			}
			this.error = body.error?.message ?? `The save failed (${response.status}).`;
			return false;
		} catch (error) {
			this.error = `The save failed: ${error instanceof Error ? error.message : 'network error'}. Nothing was lost: the draft is kept.`;
			return false;
		} finally {
			this.saving = false;
		}
	}

	/** Resolves a conflict by keeping this draft on top of the other revision. */
	keepMine(): void {
		if (this.conflict) this.baseRevision = this.conflict.current.revision;
		this.conflict = null;
		this.error = null;
	}

	/** Resolves a conflict by taking the other revision and dropping this draft. */
	takeTheirs(drafts: DraftStore): void {
		if (this.conflict) this.discard(drafts, this.conflict.current);
		this.error = null;
	}
}
