import { Facet } from '@codemirror/state';
import type { DeclaredAccountKey, Service } from '$lib/core/catalogue';
import type { Encoding } from '$lib/core/template';

/** What a template editor edits: which service, which setting, and how values are encoded. */
export interface TemplateEditorConfig {
	service: Service;
	/** The configuration key being edited (`genericSmsSendUrl`), for diagnostics. */
	field: string;
	/** The encoding values get in this template (URL, form, JSON, XML, raw). */
	encoding: Encoding;
	/** Sample values by placeholder key, shown in completion and hover. */
	samples?: Record<string, unknown>;
	/** The account keys the profile's XML declares (`%account[apiUser]%`). */
	accountKeys?: readonly DeclaredAccountKey[];
}

/** The editor's configuration; the last provided value wins. */
export const templateConfig = Facet.define<TemplateEditorConfig, TemplateEditorConfig | null>({
	combine: (values) => (values.length ? values[values.length - 1] : null)
});

/** Two editors' configurations (with their accessible names) that configure an editor alike. */
export function sameConfig(
	a: { config: TemplateEditorConfig; label: string },
	b: { config: TemplateEditorConfig; label: string }
): boolean {
	const x = a.config;
	const y = b.config;
	const noKeys = (keys?: readonly DeclaredAccountKey[]) => !keys || keys.length === 0;
	return (
		a.label === b.label &&
		x.service === y.service &&
		x.field === y.field &&
		x.encoding === y.encoding &&
		x.samples === y.samples &&
		(x.accountKeys === y.accountKeys || (noKeys(x.accountKeys) && noKeys(y.accountKeys)))
	);
}
