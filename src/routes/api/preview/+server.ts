import { json } from '@sveltejs/kit';
import { readJson } from '$lib/server/http/body';
import { preview, PreviewInputSchema } from '$lib/server/profiles/preview';
import type { RequestHandler } from './$types';

/** The exact request(s) a service's caller sends for these settings and values, with issues. */
export const POST: RequestHandler = async (event) => {
	const body = await readJson(event, PreviewInputSchema);
	if (!body.ok) return body.response;
	return json(preview(body.data));
};
