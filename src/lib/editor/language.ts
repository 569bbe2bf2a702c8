import type { Extension } from '@codemirror/state';
import type { Encoding } from '$lib/core/template';

/**
 * JSON and XML highlighting of a body, loaded when a body first needs it: most pages open on a
 * URL and never pay for either parser.
 */

const loaders: Partial<Record<Encoding, () => Promise<Extension>>> = {
	json: () => import('@codemirror/lang-json').then((m) => m.json()),
	xml: () => import('@codemirror/lang-xml').then((m) => m.xml())
};

const loaded = new Map<Encoding, Promise<Extension>>();

/** The language of a body with this encoding; null when its text has no highlighting. */
export function bodyLanguage(encoding: Encoding): Promise<Extension> | null {
	const load = loaders[encoding];
	if (!load) return null;
	let language = loaded.get(encoding);
	if (!language) {
		language = load();
		loaded.set(encoding, language);
	}
	return language;
}
