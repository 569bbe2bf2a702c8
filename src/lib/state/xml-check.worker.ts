import { readXmlBody } from '$lib/core/request/strict-build';

/**
 * Reads large expanded XML bodies of previews off the page's main thread, with the one strict
 * reader the server uses (`xml-checks.svelte.ts` sends the bodies and keeps the verdicts).
 * Only the verdict goes back: the document read is not needed, and copying it would cost the
 * page as much as reading it.
 */

const scope = self as unknown as {
	onmessage: ((event: MessageEvent<string>) => void) | null;
	postMessage(message: unknown): void;
};

scope.onmessage = (event) => {
	const read = readXmlBody(event.data);
	scope.postMessage(
		read === null || read.ok
			? { ok: true }
			: { ok: false, fault: { message: read.fault.message, offset: read.fault.offset } }
	);
};
