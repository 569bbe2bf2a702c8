/**
 * Readable forms of a response body for the viewer. Both are text transformations only: the
 * body is never parsed as HTML or run, and anything that does not parse is shown as it came.
 */

/** The body as indented JSON, or null when it is not JSON. */
export function prettyJson(text: string): string | null {
	try {
		return JSON.stringify(JSON.parse(text), null, 2);
	} catch {
		return null;
	}
}

/**
 * The body with one XML tag per line, indented by depth; null when it does not look like XML.
 * Text between tags stays on its tag's line.
 */
export function prettyXml(text: string): string | null {
	const source = text.trim();
	if (!source.startsWith('<') || !source.endsWith('>')) return null;
	const parts = source.split(/(?=<)|(?<=>)/).filter((p) => p.trim() !== '');
	const lines: string[] = [];
	let depth = 0;
	for (let i = 0; i < parts.length; i++) {
		const part = parts[i].trim();
		const closing = part.startsWith('</');
		const selfContained = /^<[?!]/.test(part) || part.endsWith('/>') || !part.startsWith('<');
		if (closing) depth = Math.max(0, depth - 1);
		// `<a>text</a>` stays on one line.
		const text = parts[i + 1];
		const close = parts[i + 2];
		if (!closing && !selfContained && text && !text.startsWith('<') && close?.startsWith('</')) {
			lines.push('  '.repeat(depth) + part + text.trim() + close.trim());
			i += 2;
			continue;
		}
		lines.push('  '.repeat(depth) + part);
		if (!closing && !selfContained) depth++;
	}
	return lines.join('\n');
}

/** A byte count for people: 512 B, 1.5 KB, 1.0 MB. */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A duration for people: 12 ms, 1.25 s. */
export function formatMs(ms: number | null): string {
	if (ms === null) return '—';
	return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
