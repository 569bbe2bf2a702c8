import type { XmlBodyReader } from '$lib/core/request';
import type { LatestBuild } from './preview-builds.svelte';

/**
 * Code a preview needs only for some templates, loaded the first time one needs it, so a page's
 * first load carries only what typing needs: the strict XML reader (for XML bodies) and the
 * off-thread builder (for large templates). Until one has loaded, the preview says it is
 * updating; reading these in a derived value makes it run again once they are there.
 */

/** Above this many characters in a service's settings, its preview is built off the main thread. */
export const OFF_THREAD_CHARS = 64 * 1024;

/** The characters a service's settings hold: what decides where its preview is built. */
export function settingsSize(settings: Record<string, string>): number {
	let size = 0;
	for (const value of Object.values(settings)) size += value.length;
	return size;
}

let xmlReader = $state.raw<XmlBodyReader | null>(null);
let xmlLoading = false;

/** The strict reader of XML bodies; null (and asked for) until it has loaded in this page. */
export function previewXmlReader(): XmlBodyReader | null {
	if (xmlReader === null && !xmlLoading && typeof window !== 'undefined') {
		xmlLoading = true;
		import('$lib/core/request/strict-build').then(
			(loaded) => (xmlReader = loaded.readXmlBody),
			// Asked for again by the next preview that needs it.
			() => (xmlLoading = false)
		);
	}
	return xmlReader;
}

let builds = $state.raw<typeof import('./preview-builds.svelte') | null>(null);
let buildsLoading = false;
/** The page's one off-thread builder, made when a large template first needs it. */
let builder: LatestBuild | null | undefined;

/**
 * The off-thread builder; null where there are no workers (the server), until its code has
 * loaded, and once it has failed (previews are then built in place).
 */
export function offThreadBuilder(): LatestBuild | null {
	if (typeof Worker === 'undefined') return null;
	if (builds === null) {
		if (!buildsLoading) {
			buildsLoading = true;
			import('./preview-builds.svelte').then(
				(loaded) => (builds = loaded),
				() => (buildsLoading = false)
			);
		}
		return null;
	}
	if (builder === undefined) {
		const channel = builds.workerChannel();
		builder = channel ? new builds.LatestBuild(channel) : null;
	}
	return builder?.fault === null ? builder : null;
}
