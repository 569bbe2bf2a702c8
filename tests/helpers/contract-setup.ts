import { Agent, setGlobalDispatcher } from 'undici';
import { afterEach } from 'vitest';
import { isOperationPath, violations } from './contract';
import { isAppOrigin } from './server';

/**
 * Every answer a server test receives from the app through `fetch` is held to the published
 * document (see `contract.ts`): the check runs beside the test, on a copy of the answer, and a
 * test whose answers the document does not describe fails when it ends, naming each one. Event
 * streams are checked by their status, media type and headers (their body never ends).
 */

/**
 * Reading every answer whole hands its connection back to the pool at once, so connections are
 * reused more than before. One idle for a second is dropped by the client: far from the server's
 * five, so a test never sends on a connection the server is closing at that moment (a check that
 * keeps the event loop busy must not make a timer late enough for that race).
 */
setGlobalDispatcher(new Agent({ keepAliveTimeout: 1000, keepAliveMaxTimeout: 1000 }));

/**
 * The answers being checked, and the check around `fetch`: installed once per worker, whose
 * files share their modules and globals (the setup runs again before each file).
 */
interface Checked {
	pending: Promise<string[]>[];
}
const INSTALLED = Symbol.for('provisioning-studio.tests.contract-fetch');
const installed = globalThis as typeof globalThis & { [INSTALLED]?: Checked };
const checked: Checked = (installed[INSTALLED] ??= installCheck());

function installCheck(): Checked {
	const state: Checked = { pending: [] };
	const original = globalThis.fetch;
	globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
		const response = await original(input, init);
		const url = response.url || (input instanceof Request ? input.url : String(input));
		const method = (
			init?.method ?? (input instanceof Request ? input.method : 'GET')
		).toUpperCase();
		if (!isAppOrigin(url)) return response;
		const { pathname } = new URL(url);
		if (!isOperationPath(pathname)) return response;
		const streamed = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
		const copy = streamed ? undefined : response.clone();
		state.pending.push(
			(async () => {
				const text = copy ? await copy.text().catch(() => undefined) : undefined;
				return violations({
					method,
					url,
					status: response.status,
					headers: response.headers,
					text
				});
			})()
		);
		return response;
	};
	return state;
}

/**
 * `CONTRACT_PARTIAL=1` (while an area's operations are being written): answers of paths the
 * document has no entry for yet are let through; everything it does describe is still held to it.
 */
const partial = process.env.CONTRACT_PARTIAL === '1';

afterEach(async () => {
	const found = (await Promise.all(checked.pending.splice(0)))
		.flat()
		.filter((v) => !partial || !/the document has no (path|[A-Z]+ for)/.test(v));
	if (found.length) {
		throw new Error(`Answers the API's document does not describe:\n${found.join('\n')}`);
	}
});
