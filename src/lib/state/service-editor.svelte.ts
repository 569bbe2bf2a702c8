import { sampleValues, type DeclaredAccountKey, type Service } from '$lib/core/catalogue';
import {
	buildRequests,
	resolveSettings,
	type BuildResult,
	type ScenarioValue,
	type Values
} from '$lib/core/request';
import { encodingForContentType, type Encoding } from '$lib/core/template';

/** Where a service editor reads and writes its settings and values. */
export interface SettingsSource {
	settingsOf(serviceId: string): Record<string, string>;
	setSetting(serviceId: string, key: string, value: string): void;
	values: Values;
	rawSubstitution: boolean;
	/** The account keys the profile's own XML declares, with its values. */
	readonly accountKeys?: readonly DeclaredAccountKey[];
}

/** A source kept in memory only: the try-out editor of the services pages. */
export class LocalSource implements SettingsSource {
	settings = $state<Record<string, Record<string, string>>>({});
	values = $state<Values>({});
	rawSubstitution = $state(false);

	settingsOf(serviceId: string): Record<string, string> {
		return this.settings[serviceId] ?? {};
	}

	setSetting(serviceId: string, key: string, value: string): void {
		this.settings = {
			...this.settings,
			[serviceId]: { ...this.settingsOf(serviceId), [key]: value }
		};
	}
}

/**
 * The state of one service's editor: its settings and values come from a source (memory or a
 * profile draft); the preview is derived, computed again on every change by the same core the
 * server uses.
 */
export class ServiceEditor {
	readonly service: Service;
	readonly source: SettingsSource;

	/** The catalogue's samples, with the values of the profile's own account XML. */
	readonly #samples = $derived.by(
		() => sampleValues(this.service, this.source.accountKeys ?? []) as Values
	);

	/** The scenario's values over the catalogue's samples, so every name has a value. */
	readonly #values = $derived.by(() => ({ ...this.#samples, ...this.source.values }));

	readonly #result = $derived.by(() =>
		buildRequests({
			service: this.service,
			settings: this.source.settingsOf(this.service.id),
			values: this.#values,
			rawSubstitution: this.source.rawSubstitution,
			accountKeys: this.source.accountKeys
		})
	);

	constructor(service: Service, source: SettingsSource = new LocalSource()) {
		this.service = service;
		this.source = source;
	}

	/** The account keys the profile's XML declares (none in the try-out editor). */
	get accountKeys(): readonly DeclaredAccountKey[] {
		return this.source.accountKeys ?? [];
	}

	/** The catalogue's sample for a name (what a value falls back to). */
	sampleOf(key: string): ScenarioValue | undefined {
		return this.#samples[key];
	}

	/** Drops the scenario's own value of a name, so the catalogue's sample is used again. */
	resetValue(key: string): void {
		const values = { ...this.source.values };
		delete values[key];
		this.source.values = values;
	}

	/** True when the scenario gives a name its own value. */
	hasOwnValue(key: string): boolean {
		return Object.hasOwn(this.source.values, key);
	}

	/** The values this service's requests are built with. */
	get values(): Values {
		return this.#values;
	}

	/** Changes one sample value of the scenario. */
	setValue(key: string, value: ScenarioValue): void {
		this.source.values = { ...this.source.values, [key]: value };
	}

	/** The request(s) the caller sends for the current settings and values. */
	get result(): BuildResult {
		return this.#result;
	}

	/** The value of a setting ('' when unset). */
	get(key: string | undefined): string {
		return key ? (this.source.settingsOf(this.service.id)[key] ?? '') : '';
	}

	/** Changes a setting. */
	set(key: string, value: string): void {
		this.source.setSetting(this.service.id, key, value);
	}

	/** The encoding values get in the body with the current content type. */
	get bodyEncoding(): Encoding {
		return encodingForContentType(this.contentType);
	}

	/**
	 * The content type the caller sends a body with: the setting, else a deprecated key's value
	 * (`genericSmsContentType`) as the caller reads it, else the service's default.
	 */
	get contentType(): string | null {
		const settings = this.source.settingsOf(this.service.id);
		return resolveSettings(this.service, settings).contentType || this.service.contentType.default;
	}
}
