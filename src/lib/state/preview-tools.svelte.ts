import type { JsonBodyReader, XmlBodyReader } from '$lib/core/request/checks';
import type { TemplateMemo } from '$lib/core/template/incremental';
import type { ViewUpdate } from '@codemirror/view';
import { readJsonBody } from '$lib/core/request/json-read';
import type { BodyCheck } from './body-checks.svelte';
import { LazyModule } from './lazy.svelte';

/**
 * The strict XML reader of previews, loaded the first time an XML body needs it (or once the
 * editor's page has settled), so a page's first load carries only what typing needs. Until it has
 * loaded, an XML body's preview is unchecked and says it is updating; reading the reader in a
 * derived value makes the preview build again once it is there. JSON bodies are read in place
 * until then (the parser is the platform's). Large bodies of both are read in a worker
 * (`body-checks.svelte.ts`).
 */

const checks = new LazyModule(() => import('./body-checks.svelte'));

/** The strict reader of XML bodies if it has loaded in this page, without asking for it. */
export function loadedXmlReader(): XmlBodyReader | null {
	return checks.value?.previewReader('xml') ?? null;
}

/** The strict reader of XML bodies; null (and asked for) until it has loaded in this page. */
export function previewXmlReader(): XmlBodyReader | null {
	// A failed load is asked for again by the next preview that needs it.
	checks.load();
	return loadedXmlReader();
}

/**
 * The reader of JSON bodies: in place until the checks have loaded (a JSON body does not ask for
 * them, so the first load stays as it is), then theirs.
 */
export function previewJsonReader(): JsonBodyReader {
	return checks.value?.previewReader('json') ?? readJsonBody;
}

/** True while an expanded body's preview is not checked yet: the reader or its verdict is on its way. */
export function bodyCheckPending(kind: BodyCheck, body: string): boolean {
	if (kind === 'json') return checks.value?.pending('json', body) ?? false;
	previewXmlReader();
	return checks.value === null || checks.value.pending('xml', body);
}

/** A new template memo for an editor once the checks' code (which holds it) has loaded. */
export function newTemplateMemo(): TemplateMemo | undefined {
	return checks.value ? new checks.value.TemplateMemo() : undefined;
}

/**
 * Says an editor's change to the template memos, which then read only what it changed. Before
 * their code has loaded there is no memo to tell, and the first load carries none of this.
 */
export function sayEditorEdit(before: string | undefined, after: string, update: ViewUpdate): void {
	checks.value?.sayEdit(before, after, update);
}
