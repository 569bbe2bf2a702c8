import type { XmlBodyReader } from '$lib/core/request';
import { LazyModule } from './lazy.svelte';

/**
 * The strict XML reader of previews, loaded the first time an XML body needs it (or once the
 * editor's page has settled), so a page's first load carries only what typing needs. Until it has
 * loaded, an XML body's preview is unchecked and says it is updating; reading the reader in a
 * derived value makes the preview build again once it is there. Large bodies are read in a
 * worker (`xml-checks.svelte.ts`).
 */

const checks = new LazyModule(() => import('./xml-checks.svelte'));

/** The strict reader of XML bodies if it has loaded in this page, without asking for it. */
export function loadedXmlReader(): XmlBodyReader | null {
	return checks.value?.previewReader() ?? null;
}

/** The strict reader of XML bodies; null (and asked for) until it has loaded in this page. */
export function previewXmlReader(): XmlBodyReader | null {
	// A failed load is asked for again by the next preview that needs it.
	checks.load();
	return loadedXmlReader();
}

/** True while an expanded XML body's preview is not checked yet: the reader or its verdict is on its way. */
export function xmlCheckPending(body: string): boolean {
	previewXmlReader();
	return checks.value === null || checks.value.pending(body);
}
