import { serverContext } from '$lib/server/context';
import { apiError } from '$lib/server/http';
import { sandboxPushes, watchSandbox, type SandboxPushView } from '$lib/server/sandboxes';
import { eventStream } from '$lib/server/sse';
import type { RequestHandler } from './$types';

/**
 * Server-sent events: one `push` event per request the sandbox answers, its id the push id. A
 * reconnect with `Last-Event-ID` (or `?after=<id>`) first gets every kept push after that id,
 * oldest first, so none is lost between two connections.
 */
export const GET: RequestHandler = async ({ params, request, url }) => {
	const ctx = serverContext();
	if (!(await ctx.store.sandboxes.get(params.id))) {
		return apiError(404, 'not_found', 'No such sandbox.');
	}
	const resumeFrom = request.headers.get('last-event-id') ?? url.searchParams.get('after');
	const after = resumeFrom !== null && /^\d{1,15}$/.test(resumeFrom) ? Number(resumeFrom) : null;
	return eventStream(request.signal, (send) => {
		let lastSent = after ?? 0;
		const sendPush = (push: SandboxPushView) => {
			if (push.id <= lastSent) return;
			lastSent = push.id;
			send(`id: ${push.id}\nevent: push\ndata: ${JSON.stringify(push)}\n\n`);
		};
		// Watch first and hold live pushes until the missed ones are out, so none falls between.
		const held: SandboxPushView[] = [];
		let replaying = after !== null;
		const unwatch = watchSandbox(params.id, (push) =>
			replaying ? held.push(push) : sendPush(push)
		);
		if (after !== null) {
			void sandboxPushes(ctx, params.id, after)
				.then((missed) => {
					for (const push of missed.reverse()) sendPush(push);
				})
				.catch(() => {
					// The store failed: the live pushes still follow.
				})
				.finally(() => {
					replaying = false;
					for (const push of held) sendPush(push);
				});
		}
		return unwatch;
	});
};
