import { callApi } from './call-api';

/**
 * Asks the API for a file with a POST of `json` (so that no link can make the browser fetch it:
 * the downloads of secrets) and saves it under the name the server gives in its
 * Content-Disposition, else `fallbackName`. Resolves to null once saved, or to the message of
 * the refusal.
 */
export async function downloadPosted(
	path: `/${string}`,
	json: unknown,
	fallbackName: string
): Promise<string | null> {
	const answer = await callApi(path, { json, read: false });
	if (!answer.ok) return answer.message;
	const { response } = answer;
	const url = URL.createObjectURL(await response.blob());
	const link = document.createElement('a');
	link.href = url;
	link.download =
		/filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
		fallbackName;
	link.click();
	// The browser has started the download by then; the object URL is only needed until it has.
	setTimeout(() => URL.revokeObjectURL(url), 10_000);
	return null;
}
