import type { DeclaredAccountKey } from '$lib/core/catalogue/account-keys';
// The catalogue's modules themselves, not its index: the index brings every service along.
import { findKnownService, isFirstService, knownServices } from '$lib/core/catalogue/known';
import { sampleValues } from '$lib/core/catalogue/samples';
import type { Service } from '$lib/core/catalogue/schema';
// From the request builder's own modules, not its index: the index also brings the strict XML
// reader, which the editor page loads after its first paint.
import { buildRequestsWith, type BuildResult } from '$lib/core/request/build';
import { bodyKind } from '$lib/core/request/checks';
import { resolveSettings } from '$lib/core/request/settings';
import { countIssues, describeCounts, worstOf } from '$lib/core/request/summary';
import type { ScenarioValue, Values } from '$lib/core/request/values';
import { encodingForContentType, type Encoding } from '$lib/core/template';
import type { TemplateMemo } from '$lib/core/template/incremental';
import { settleAfterFrame } from '$lib/editor/text-after';
import { wholeCatalogue } from './catalogue.svelte';
import {
	bodyCheckPending,
	loadedXmlReader,
	newTemplateMemo,
	previewJsonReader,
	previewXmlReader
} from './preview-tools.svelte';

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
 * The one computation behind a service's preview and its status mark: the request builder, with
 * `values` (the scenario's over the catalogue's samples) and the source's raw-substitution switch.
 */
function buildPreview(
	service: Service,
	settings: Record<string, string>,
	values: Values,
	source: Pick<SettingsSource, 'rawSubstitution' | 'accountKeys'>,
	memo?: TemplateMemo
): BuildResult {
	return buildRequestsWith(
		{
			service,
			settings,
			values,
			rawSubstitution: source.rawSubstitution,
			accountKeys: source.accountKeys
		},
		// An XML body is checked once the page has the reader (the preview says it is updating).
		(body) => previewXmlReader()?.(body) ?? null,
		(body) => previewJsonReader()(body),
		memo
	);
}

/** A service's status in a list of services: its worst severity and its counts in words. */
export interface ServiceStatus {
	state: 'unset' | 'error' | 'warning' | 'ok';
	/** "not set", "2 errors, 1 warning", "no problems". */
	words: string;
}

/** The status a build result gives a service. */
export function statusOf(result: BuildResult): ServiceStatus {
	const counts = countIssues(result.issues);
	return { state: worstOf(counts), words: describeCounts(counts) };
}

/**
 * The status of every service of a source, computed as its editor's preview is (same settings,
 * same values over the same samples, same raw-substitution switch), so a list of services says
 * exactly what each service's preview says. Results are kept while a service's settings and the
 * scenario stay the same objects: a keystroke in one service builds that one only.
 */
export class ServiceStatuses {
	readonly #source: SettingsSource;
	readonly #cache = new WeakMap<
		object,
		{
			values: Values;
			raw: boolean;
			keys: unknown;
			xml: unknown;
			known: unknown;
			result: BuildResult;
		}
	>();

	constructor(source: SettingsSource) {
		this.#source = source;
	}

	/** A service's status; `open` is the editor showing it, whose preview is reused. */
	of(serviceId: string, open?: ServiceEditor): ServiceStatus {
		// A set service not known from the start says "checking…" until the page has the whole
		// catalogue, as the server draws it too.
		const pending =
			open?.service.id !== serviceId &&
			wholeCatalogue.value === null &&
			!isFirstService(serviceId) &&
			Object.keys(this.#source.settingsOf(serviceId)).length > 0;
		if (pending) return { state: 'unset', words: 'checking…' };
		const result = this.resultOf(serviceId, open);
		return result ? statusOf(result) : { state: 'unset', words: 'not set' };
	}

	/** A service's build, as its preview shows it; null when the service has no settings. */
	resultOf(serviceId: string, open?: ServiceEditor): BuildResult | null {
		const settings = this.#source.settingsOf(serviceId);
		if (Object.keys(settings).length === 0) return null;
		if (open && open.service.id === serviceId) return open.result;
		const values = this.#source.values;
		const raw = this.#source.rawSubstitution;
		const keys = this.#source.accountKeys;
		// A result built before the page had its XML reader, or before the worker's verdict on
		// its body, is built again once it has it (the readers are new ones then).
		const xml = loadedXmlReader();
		// And once the page has the whole catalogue, whose services the lint's hints may name.
		void wholeCatalogue.value;
		const known = knownServices();
		const kept = this.#cache.get(settings);
		if (
			kept &&
			kept.values === values &&
			kept.raw === raw &&
			kept.keys === keys &&
			kept.xml === xml &&
			kept.known === known
		)
			return kept.result;
		const service = findKnownService(serviceId);
		// The others are built once the page has the whole catalogue.
		if (!service) return null;
		const result = buildPreview(
			service,
			settings,
			{ ...(sampleValues(service, keys ?? []) as Values), ...values },
			this.#source
		);
		this.#cache.set(settings, { values, raw, keys, xml, known, result });
		return result;
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

	/**
	 * What each key's build is derived from: the previous analyses and expansions. Its code
	 * comes with the body checks' once the page has settled; the keys before it are built
	 * whole, as the server builds them.
	 */
	#memo: TemplateMemo | undefined;

	readonly #result = $derived.by(() => {
		// The lint's hints name services beyond the contract once the page has them.
		void wholeCatalogue.value;
		this.#memo ??= newTemplateMemo();
		const result = buildPreview(
			this.service,
			this.source.settingsOf(this.service.id),
			this.#values,
			this.source,
			this.#memo
		);
		// A body derived from the last is made of pieces; copied whole after the frame, the next
		// key's derivation slices it instead of copying it on its way to the screen.
		result.requests.forEach((r, i) => r.body !== null && settleAfterFrame(r.body, `body ${i}`));
		return result;
	});

	/**
	 * Derived, so that what reads them (each editor's configuration) is told only when they
	 * change: the settings object they are read from is a new one on every keystroke.
	 */
	readonly #contentType = $derived.by(
		() =>
			resolveSettings(this.service, this.source.settingsOf(this.service.id)).contentType ||
			this.service.contentType.default
	);

	readonly #bodyEncoding = $derived(encodingForContentType(this.#contentType));

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

	/**
	 * True while the preview is not yet all it will be: an XML body built before the page had its
	 * XML reader, or a large JSON or XML one before the worker's verdict on it, is shown unchecked
	 * until then.
	 */
	get updating(): boolean {
		return this.#result.requests.some((r) => {
			const kind = r.body === null ? null : bodyKind(r.bodyEncoding, r.contentType ?? '');
			return kind !== null && bodyCheckPending(kind === 'XML' ? 'xml' : 'json', r.body!);
		});
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
		return this.#bodyEncoding;
	}

	/**
	 * The content type the caller sends a body with: the setting, else a deprecated key's value
	 * (`genericSmsContentType`) as the caller reads it, else the service's default.
	 */
	get contentType(): string | null {
		return this.#contentType;
	}
}
