import { json } from '@sveltejs/kit';
import type { TestCallEntry } from '$lib/api-schemas/calls';
import { serverContext } from '$lib/server/platform/context';
import { apiError, requireUser } from '$lib/server/http/body';
import { historyEntry } from '$lib/server/test-calls';
import type { RequestHandler } from './$types';

/** One of the signed-in user's test calls, with its whole answer (secrets masked). */
export const GET: RequestHandler = async (event) => {
	const id = Number(event.params.id);
	const call = Number.isInteger(id)
		? await historyEntry(serverContext(), requireUser(event).id, id)
		: undefined;
	return call
		? json({ call } satisfies TestCallEntry)
		: apiError(404, 'not_found', 'No such test call of yours.');
};
