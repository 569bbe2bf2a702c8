/** Sizes and durations as people read them, for the response viewer. */

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
