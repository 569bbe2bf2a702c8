import type { Client, TestServer } from './server';
import { sse, type StreamEvent } from './sse';

/** A generic text push as a provider's server sends it (Node's fetch: no cookie, no Origin). */
export async function sendTextPush(pushUrl: string, message: string): Promise<Response> {
	const response = await fetch(`${pushUrl}/pnm2/send`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			verb: 'NotifyGenericTextMessage',
			AppId: 'com.provider.app',
			DeviceToken: 'device-1',
			Message: message
		})
	});
	await response.body?.cancel();
	return response;
}

/**
 * A live feed a user keeps open (a sink's or a sandbox's events), for tests of what ends it: a
 * request with a label sent to what it watches, and the label of a delivered event.
 */
export interface Feed {
	kind: 'sink' | 'sandbox';
	/** The event type the feed delivers. */
	type: 'request' | 'push';
	stream: ReturnType<typeof sse>;
	/** Sends a request labelled `label` to the sink or sandbox, through `via`. */
	fire(label: string, via?: Pick<TestServer, 'url'>): Promise<void>;
	/** The label an event of this feed carries. */
	label(event: StreamEvent): string;
	/** The labels of everything the sink or sandbox recorded, as `admin` lists them. */
	recorded(admin: Client): Promise<string[]>;
}

/**
 * Creates a sink or a sandbox as `owner` and opens its live feed as `watcher` (its session or
 * its token), once the feed says it is connected.
 */
export async function openFeed(kind: Feed['kind'], owner: Client, watcher: Client): Promise<Feed> {
	if (kind === 'sink') {
		const created = await owner.json<{ sink: { key: string } }>('/api/sinks', {
			method: 'POST',
			json: { name: 'Watched sink' }
		});
		if (created.status !== 201) throw new Error(`No sink: ${created.status}`);
		const key = created.body.sink.key;
		const response = await watcher.fetch(`/api/sinks/${key}/events`);
		if (response.status !== 200) throw new Error(`No feed: ${response.status}`);
		const stream = sse(response);
		await stream.comment('connected');
		return {
			kind,
			type: 'request',
			stream,
			async fire(label, via = owner.server) {
				const sent = await fetch(`${via.url}/sink/${key}/${label}`, { method: 'POST' });
				await sent.body?.cancel();
				if (sent.status !== 200) throw new Error(`The sink answered ${sent.status}`);
			},
			label: (event) => String(event.data.path).replace(/^\//, ''),
			async recorded(admin) {
				const listed = await admin.json<{ requests: { path: string }[] }>(`/api/sinks/${key}`);
				return listed.body.requests.map((r) => r.path.replace(/^\//, ''));
			}
		};
	}
	const created = await owner.json<{ sandbox: { id: string; pushUrl: string } }>('/api/sandboxes', {
		method: 'POST',
		json: { name: 'Watched sandbox' }
	});
	if (created.status !== 201) throw new Error(`No sandbox: ${created.status}`);
	const { id, pushUrl } = created.body.sandbox;
	const response = await watcher.fetch(`/api/sandboxes/${id}/events`);
	if (response.status !== 200) throw new Error(`No feed: ${response.status}`);
	const stream = sse(response);
	await stream.comment('connected');
	const message = (push: unknown) =>
		String((push as { pushes: { request: { Message?: string } }[] }).pushes[0]?.request.Message);
	return {
		kind,
		type: 'push',
		stream,
		async fire(label, via = owner.server) {
			const sent = await sendTextPush(`${via.url}${new URL(pushUrl).pathname}`, label);
			if (sent.status !== 200) throw new Error(`The sandbox answered ${sent.status}`);
		},
		label: (event) => message(event.data),
		async recorded(admin) {
			const listed = await admin.json<{ pushes: unknown[] }>(`/api/sandboxes/${id}/pushes`);
			return listed.body.pushes.map(message);
		}
	};
}

/**
 * What a feed does once its caller's access ended and a request labelled `after` was sent: it
 * must end within `waitMs` with an `access_ended` event, without delivering that request.
 */
export async function afterEnding(feed: Feed, waitMs = 5000) {
	const { ended, events } = await feed.stream.rest(waitMs);
	return {
		ended,
		delivered: events.filter((e) => e.type === feed.type).map(feed.label),
		endedBecause: events.find((e) => e.type === 'access_ended')?.data.reason ?? null
	};
}
