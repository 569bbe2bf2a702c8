import { keyOf, sampleValues, type Service } from '$lib/core/catalogue';
import { buildRequests, type BuildResult, type Values } from '$lib/core/request';
import { encodingForContentType, type Encoding } from '$lib/core/template';

/**
 * The state of one service's editor: its settings, the scenario values and the preview, which is
 * derived (computed again on every change by the same core the server uses).
 */
export class ServiceEditor {
	readonly service: Service;
	settings = $state<Record<string, string>>({});
	values = $state<Values>({});
	rawSubstitution = $state(false);

	readonly #result = $derived.by(() =>
		buildRequests({
			service: this.service,
			settings: this.settings,
			values: this.values,
			rawSubstitution: this.rawSubstitution
		})
	);

	/** The request(s) the caller sends for the current settings and values. */
	get result(): BuildResult {
		return this.#result;
	}

	constructor(service: Service, settings: Record<string, string> = {}) {
		this.service = service;
		this.settings = { ...settings };
		this.values = sampleValues(service) as Values;
	}

	/** The value of a setting ('' when unset). */
	get(key: string | undefined): string {
		return key ? (this.settings[key] ?? '') : '';
	}

	/** Changes a setting. */
	set(key: string, value: string): void {
		this.settings = { ...this.settings, [key]: value };
	}

	/** The encoding values get in the body with the current content type. */
	get bodyEncoding(): Encoding {
		const key = keyOf(this.service, 'contentType');
		const contentType = this.get(key) || this.service.contentType.default;
		return encodingForContentType(contentType);
	}
}
