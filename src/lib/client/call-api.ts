/**
 * The browser's calls to this app's own JSON API (relative paths only): one place that sends
 * JSON and turns a refusal or a network failure into the message to show.
 */

/**
 * An answer of the API: its body, or the message that says why there is none (with the refusal's
 * own body when it had one, for details such as the fields a refusal names).
 */
export type ApiResult<T> =
	{ ok: true; body: T; response: Response } | { ok: false; message: string; refusal?: unknown };

/** Calls `path` of this app; `json` is sent as the body with its content type. */
export async function callApi<T = unknown>(
	path: `/${string}`,
	init: {
		method?: string;
		json?: unknown;
		/** false: leave the body unread (a download). */ read?: boolean;
	} = {}
): Promise<ApiResult<T>> {
	let response: Response;
	try {
		response = await fetch(path, {
			method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
			headers: init.json === undefined ? {} : { 'content-type': 'application/json' },
			body: init.json === undefined ? undefined : JSON.stringify(init.json)
		});
	} catch (error) {
		const why = error instanceof Error ? error.message : 'network error';
		return { ok: false, message: `The server could not be reached: ${why}.` };
	}
	if (response.ok) {
		const json =
			init.read !== false && (response.headers.get('content-type') ?? '').includes('json');
		const body = (json ? await response.json() : undefined) as T;
		return { ok: true, body, response };
	}
	const answer = await response.json().catch(() => null);
	return {
		ok: false,
		message: answer?.error?.message ?? `The server answered ${response.status}.`,
		refusal: answer ?? undefined
	};
}
