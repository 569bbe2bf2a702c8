import { readJsonBody } from '$lib/core/request/json-read';
import { readXmlBody } from '$lib/core/request/strict-build';
import type { BodyCheck } from './body-checks.svelte';

/**
 * Reads large expanded bodies of previews off the page's main thread, with the readers the
 * server uses (`body-checks.svelte.ts` sends the bodies and keeps the verdicts). Only the
 * verdict goes back: the document read is not needed, and copying it would cost the page as
 * much as reading it.
 */

const scope = self as unknown as {
	onmessage: ((event: MessageEvent<{ kind: BodyCheck; body: string }>) => void) | null;
	postMessage(message: unknown): void;
};

scope.onmessage = (event) => {
	const { kind, body } = event.data;
	const read = kind === 'json' ? readJsonBody(body) : readXmlBody(body);
	scope.postMessage(
		read === null || read.ok
			? { ok: true }
			: { ok: false, fault: { message: read.fault.message, offset: read.fault.offset } }
	);
};
