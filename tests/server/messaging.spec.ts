import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagingFinding, PhoneState } from '../../src/lib/core/phones';
import type { ProfileDocument } from '../../src/lib/core/profile';
import type { FlowRunSummary, FlowRunView } from '../../src/lib/server/flows';
import type { SandboxView } from '../../src/lib/server/push/sandboxes';
import { createProfile, createUser, serverWithAdmin, type TestUser } from '../helpers/fixtures';
import {
	providerServices,
	startProvider,
	type Provider,
	type ProviderMistakes
} from '../helpers/provider';
import { Client, stopAllServers } from '../helpers/server';
import { sse, type StreamEvent } from '../helpers/sse';

/**
 * The messaging journey over HTTP through the real built server: virtual phones against a real
 * local provider that pushes to one of the app's sandboxes, once doing everything right and
 * then with each mistake a provider makes. Time limits are short so a hanging provider ends fast.
 */

interface Answer extends Partial<FlowRunView> {
	error?: { code: string; message: string };
	missing?: { name: string; service: string | null }[];
	run?: FlowRunSummary & { record: { steps: FlowRunView['steps'] } };
	sandbox?: SandboxView;
	pushes?: unknown[];
}

interface Result {
	verdict: string;
	findings: MessagingFinding[];
	phones: PhoneState[];
	smsId: string | null;
	pushes: { seen: number; omitted: number };
}

const TEST_ENV = {
	OUTBOUND_ALLOW: '127.0.0.1/32',
	OUTBOUND_PORTS: '1024-65535',
	OUTBOUND_HEADERS_TIMEOUT_MS: '1000',
	OUTBOUND_TOTAL_TIMEOUT_MS: '1500'
};

let admin: Client;
let editor: TestUser;
const providers: Provider[] = [];
let names = 0;

beforeAll(async () => {
	({ admin } = await serverWithAdmin(TEST_ENV));
	editor = await createUser(admin, 'editor', 'phones-editor@example.test');
});

afterAll(async () => {
	await Promise.all(providers.map((p) => p.stop()));
	await stopAllServers();
});

/** A profile document over `services`, pushing through `gatewayUrl`. */
function profile(services: ProfileDocument['services'], gatewayUrl: string): ProfileDocument {
	return {
		version: 1,
		services,
		push: { gatewayUrl, appId: gatewayUrl ? 'com.example.app' : '', target: 'unknown' },
		scenarios: [],
		rawSubstitution: false,
		preservedXml: []
	};
}

/** A sandbox, a provider pushing to it, and a profile pointing at both. */
async function setup(mistakes: ProviderMistakes = {}, sandbox: Record<string, unknown> = {}) {
	const created = await editor.client.json<Answer>('/api/sandboxes', {
		method: 'POST',
		json: { name: 'Phones', ...sandbox }
	});
	expect(created.status).toBe(201);
	const pushUrl = created.body.sandbox!.pushUrl;
	const provider = await startProvider(pushUrl, mistakes);
	providers.push(provider);
	const profileId = await createProfile(
		editor.client,
		`Messaging ${++names}`,
		profile(providerServices(provider.url), pushUrl)
	);
	return { provider, profileId, sandbox: created.body.sandbox! };
}

function accounts() {
	const n = ++names;
	return {
		sender: { username: `alice${n}`, password: `alice-secret-${n}` },
		recipient: { username: `bob${n}`, password: `bob-secret-${n}` }
	};
}

async function journey(
	profileId: string,
	values: Record<string, unknown> = {},
	extra: Record<string, unknown> = {}
) {
	const answer = await editor.client.json<Answer>('/api/flows/messaging', {
		method: 'POST',
		json: {
			...extra,
			profileId,
			values: { ...accounts(), sms_body: 'Dinner at 7? 🍝', secondDevice: true, ...values }
		}
	});
	return { answer, result: answer.body.result as unknown as Result };
}

const checks = (result: Result) => result.findings.map((f) => f.check);

describe('a provider doing everything right', () => {
	it('carries the message from one phone to the other, once, and to the second device', async () => {
		const { provider, profileId } = await setup();
		const { answer, result } = await journey(profileId);
		expect(answer.status).toBe(200);
		expect(result.findings).toEqual([]);
		expect(answer.body.ok).toBe(true);
		expect(answer.body.flow).toBe('messaging');
		const steps = answer.body.steps!;
		expect(steps.map((s) => [s.service, s.contractRow.id, s.decision.status])).toEqual([
			['pushTokenReporter', 'pushTokenReported', 'ok'],
			['pushTokenReporter', 'pushTokenReported', 'ok'],
			['pushTokenReporter', 'pushTokenReported', 'ok'],
			['sendMessage', 'sendPerRecipient', 'ok'],
			['pushReceived', 'incomingMessagePush', 'ok'],
			['fetchMessages', 'incomingMessagePush', 'ok'],
			['fetchMessages', 'fetchForeground', 'ok'],
			['fetchMessages', 'fetchSentSync', 'ok']
		]);
		// The provider got one call per phone and one message, with both fields it must keep.
		expect(provider.messages).toHaveLength(1);
		expect(provider.messages[0]).toMatchObject({ contentType: 'text/plain' });
		expect(provider.messages[0].disposition).toMatch(/:positive-delivery,display$/);
		expect(result.smsId).toBe(provider.messages[0].id);
		expect(steps[4].received).toMatchObject({ status: 200, push: { Id: result.smsId } });
		// The fetch after the push sends no last known id; the foreground fetch sends the moved one.
		expect(steps[5].filled).toEqual({ last_known_sms_id: '', last_known_sent_sms_id: '' });
		expect(steps[6].filled.last_known_sms_id).toBe(result.smsId);
		const [recipient, sender, second] = result.phones;
		expect(recipient.lastKnownSmsId).toBe(result.smsId);
		expect(recipient.messages).toMatchObject([
			{ smsId: result.smsId, direction: 'received', ticks: { pushed: true, fetched: true } }
		]);
		expect(sender.messages).toMatchObject([{ smsId: result.smsId, ticks: { sent: true } }]);
		expect(second.identity.device).toBe('second');
		expect(second.identity.selector).not.toBe(sender.identity.selector);
		expect(second.lastKnownSentSmsId).toBe(result.smsId);
		expect(result.verdict).toMatch(/^The message went from alice\d+ to bob\d+/);
		// Passwords are masked in everything answered and kept.
		expect(answer.text).not.toMatch(/alice-secret|bob-secret/);
		const kept = await editor.client.json<Answer>(
			`/api/profiles/${profileId}/flows/${answer.body.id}`
		);
		expect(kept.body.run!.flow).toBe('messaging');
		expect(kept.body.run!.record.steps).toHaveLength(8);
		expect(kept.text).not.toMatch(/alice-secret|bob-secret/);
	});
});

describe('a message other than text/plain', () => {
	const MEDIA = 'application/x-acro-filetransfer+json';
	const MEDIA_BODY = JSON.stringify({
		body: 'The beach',
		attachments: [{ 'content-type': 'image/jpeg', 'content-url': 'https://media.example/1.jpg' }]
	});

	it('a media message and its disposition notification come back as they were sent', async () => {
		const { provider, profileId } = await setup();
		const values = {
			sms_body: MEDIA_BODY,
			content_type: MEDIA,
			disposition_notification: 'Msg-42:display'
		};
		const { answer, result } = await journey(profileId, values);
		expect(answer.status).toBe(200);
		expect(result.findings).toEqual([]);
		expect(provider.messages[0]).toMatchObject({
			contentType: MEDIA,
			disposition: 'Msg-42:display'
		});
		const send = answer.body.steps!.find((s) => s.service === 'sendMessage')!;
		expect(send.filled).toMatchObject({
			content_type: MEDIA,
			disposition_notification: 'Msg-42:display'
		});
		expect(result.phones[0].messages[0]).toMatchObject({
			contentType: MEDIA,
			dispositionNotification: 'Msg-42:display'
		});
	});

	it('no disposition notification asked for: none sent, none expected back', async () => {
		const { provider, profileId } = await setup({ dropFields: true });
		const { result } = await journey(profileId, {
			secondDevice: false,
			disposition_notification: ''
		});
		expect(provider.messages[0].disposition).toBe('');
		expect(checks(result)).toEqual(['contentType']);
	});

	it('a provider that forgets the fields is told what was sent', async () => {
		const { profileId } = await setup({ dropFields: true });
		const { result } = await journey(profileId, {
			secondDevice: false,
			sms_body: MEDIA_BODY,
			content_type: MEDIA,
			disposition_notification: 'Msg-43:positive-delivery'
		});
		const messages = Object.fromEntries(result.findings.map((f) => [f.check, f.message]));
		expect(messages.contentType).toBe(`content_type did not come back (sent as “${MEDIA}”).`);
		expect(messages.dispositionNotification).toBe(
			'disposition_notification did not come back (sent as “Msg-43:positive-delivery”).'
		);
	});

	it('refuses a content type or disposition notification the contract does not allow', async () => {
		const { profileId, provider } = await setup();
		const before = provider.hits['/report'] ?? 0;
		const refused = async (values: Record<string, unknown>) => {
			const answer = await editor.client.json<Answer>('/api/flows/messaging', {
				method: 'POST',
				json: { profileId, values: { ...accounts(), sms_body: 'Hi', ...values } }
			});
			expect(answer.status).toBe(400);
			expect(answer.body.error!.code).toBe('invalid_input');
			return answer.body.error!.message;
		};
		expect(await refused({ content_type: 'image/png' })).toMatch(
			/content_type is text\/plain, application\/x-<vendor>-filetransfer\+json/
		);
		expect(await refused({ content_type: MEDIA })).toMatch(
			/A media message's body is the file-transfer JSON: it is not JSON/
		);
		expect(
			await refused({
				content_type: 'application/x-acro-disposition-notification',
				disposition_notification: ''
			})
		).toMatch(/A disposition notification message needs a disposition_notification/);
		expect(await refused({ disposition_notification: 'Msg-1' })).toMatch(
			/disposition_notification is <identifier>:<kinds>/
		);
		expect(await refused({ disposition_notification: 'Msg-1:read' })).toMatch(
			/“read” is not a kind/
		);
		expect(provider.hits['/report'] ?? 0).toBe(before);
	});
});

describe('phones that keep their state between runs', () => {
	const fetchesOf = (answer: { body: Answer }) =>
		answer.body.steps!.filter((s) => s.service === 'fetchMessages');

	it('a reply and a next message continue the conversation, ids moved on', async () => {
		const { profileId, provider } = await setup();
		const { sender: alice, recipient: bob } = accounts();
		const send = (from: typeof alice, to: typeof bob, sms_body: string, after?: number) =>
			journey(
				profileId,
				{ sender: from, recipient: to, sms_body, secondDevice: false },
				after === undefined ? {} : { continueFrom: after }
			);
		const first = await send(alice, bob, 'Dinner at 7?');
		const reply = await send(bob, alice, 'Yes!', first.answer.body.id);
		expect(reply.answer.status).toBe(200);
		expect(reply.result.findings).toEqual([]);
		const [, msg1, msg2] = ['', ...provider.messages.map((m) => m.id)];
		// Alice never fetched: her ids are where she left them; her own message syncs back once.
		expect(fetchesOf(reply.answer)[0].filled).toEqual({
			last_known_sms_id: '',
			last_known_sent_sms_id: ''
		});
		const [aliceNow, bobNow] = reply.result.phones;
		expect(aliceNow.identity.username).toBe(alice.username);
		expect(aliceNow.messages.map((m) => [m.smsId, m.direction, m.ticks])).toEqual([
			[msg1, 'sent', { sent: true, pushed: false, fetched: true }],
			[msg2, 'received', { sent: false, pushed: true, fetched: true }]
		]);
		expect(bobNow.messages.map((m) => m.smsId)).toEqual([msg1, msg2]);

		const next = await send(alice, bob, 'See you', reply.answer.body.id);
		expect(next.result.findings).toEqual([]);
		// Bob fetches from the id he had after the first run, not from the start.
		expect(fetchesOf(next.answer)[0].filled).toEqual({
			last_known_sms_id: msg1,
			last_known_sent_sms_id: ''
		});
		const bobLast = next.result.phones[0];
		expect(bobLast.messages.map((m) => m.smsId)).toEqual([msg1, msg2, provider.messages[2].id]);
		expect(bobLast.lastKnownSmsId).toBe(provider.messages[2].id);
		expect(bobLast.lastKnownSentSmsId).toBe(msg2);
	});

	it('nothing fetched twice holds across runs', async () => {
		const { profileId } = await setup({ ignoreLastKnown: true });
		const values = { ...accounts(), secondDevice: false };
		// The first run's foreground fetch already repeats; the next run's fetch after the push does too.
		const first = await journey(profileId, values);
		const next = await journey(profileId, values, { continueFrom: first.answer.body.id });
		const twice = next.result.findings.filter((f) => f.check === 'nothingTwice');
		expect(twice.map((f) => f.message)).toEqual([
			expect.stringMatching(/^the recipient's fetch after the push answered 1 message/),
			expect.stringMatching(/^the recipient's foreground fetch answered 2 messages/)
		]);
	});

	it('continues only a messaging run of the caller, the profile and the sandbox', async () => {
		const { profileId } = await setup();
		const other = await setup();
		const values = { ...accounts(), secondDevice: false };
		const mine = await journey(profileId, values);
		const theirs = await createUser(admin, 'editor', `phones-theirs-${++names}@example.test`);
		const foreign = await theirs.client.json<Answer>('/api/flows/messaging', {
			method: 'POST',
			json: { profileId, values: { ...values, sms_body: 'Theirs' } }
		});
		const refused = async (extra: Record<string, unknown>, id = profileId) => {
			const answer = await editor.client.json<Answer>('/api/flows/messaging', {
				method: 'POST',
				json: { profileId: id, ...extra, values: { ...values, sms_body: 'Hi' } }
			});
			expect(answer.status).toBe(404);
			expect(answer.body.error!.code).toBe('not_found');
			return answer.body.error!.message;
		};
		expect(await refused({ continueFrom: mine.answer.body.id }, other.profileId)).toMatch(
			/^No messaging run \d+ of yours in this profile and sandbox to continue/
		);
		await refused({ continueFrom: foreign.body.id });
		await refused({ continueFrom: mine.answer.body.id, sandboxId: other.sandbox.id });
		await refused({ continueFrom: 999_999 });
		const audit = await admin.json<{
			entries: { action: string; target: string; details: unknown }[];
		}>('/api/audit?action=test_call');
		expect(audit.body.entries[0]).toMatchObject({
			target: 'flow:messaging',
			details: { refused: 'not_found' }
		});
	});
});

describe('following a run live', () => {
	/** The `journey` events of a live stream up to and with the kept run. */
	async function untilDone(events: ReturnType<typeof sse>): Promise<StreamEvent[]> {
		const seen: StreamEvent[] = [];
		while (seen.at(-1)?.data.kind !== 'done') seen.push(await events.next('journey'));
		return seen;
	}

	it('streams each step and change of a phone as it happens, then the kept run', async () => {
		const { profileId } = await setup();
		const key = `live-${++names}-0123456789abcdef`;
		const stream = await editor.client.fetch(`/api/flows/messaging/live/${key}`);
		expect(stream.status).toBe(200);
		expect(stream.headers.get('content-type')).toBe('text/event-stream');
		const events = sse(stream);
		await events.comment('connected');
		const { answer } = await journey(profileId, {}, { live: key });
		expect(answer.status).toBe(200);
		const seen = await untilDone(events);
		await events.close();
		expect(seen.map((e) => e.id)).toEqual(seen.map((_, i) => i + 1));
		const steps = seen.filter((e) => e.data.kind === 'step');
		expect(steps.map((e) => (e.data.step as { service: string }).service)).toEqual(
			answer.body.steps!.map((s) => s.service)
		);
		const states = seen.filter((e) => e.data.kind === 'state');
		const last = (phone: string) =>
			states.findLast((e) => e.data.phone === phone)!.data.state as PhoneState;
		expect(last('recipient').messages).toMatchObject([
			{ direction: 'received', ticks: { pushed: true, fetched: true } }
		]);
		expect(last('sender').messages).toMatchObject([{ ticks: { sent: true } }]);
		expect((seen.at(-1)!.data.run as { id: number }).id).toBe(answer.body.id);
		expect(JSON.stringify(seen)).not.toMatch(/alice-secret|bob-secret/);

		// A stream opened after the run gets what the key kept, from the first item.
		const late = sse(await editor.client.fetch(`/api/flows/messaging/live/${key}`));
		expect((await untilDone(late)).map((e) => e.id)).toEqual(seen.map((e) => e.id));
		await late.close();
	});

	it("reads only the caller's own key", async () => {
		const { profileId } = await setup();
		const key = `shared-${++names}-0123456789abcdef`;
		await journey(profileId, {}, { live: key });
		const other = await createUser(admin, 'editor', `phones-other-${names}@example.test`);
		// Read from the start: what a shared key kept would come before `: connected`.
		const events = sse(await other.client.fetch(`/api/flows/messaging/live/${key}`));
		const answer = await other.client.json<Answer>('/api/flows/messaging', {
			method: 'POST',
			json: { profileId, live: key, values: { ...accounts(), sms_body: 'Mine' } }
		});
		expect(answer.status).toBe(200);
		const seen = await untilDone(events);
		await events.close();
		// The first run the other user's stream ends with is their own, not the editor's.
		expect((seen.at(-1)!.data.run as { id: number }).id).toBe(answer.body.id);
	});

	it("ends when the caller's access does, and the audit log says whose", async () => {
		const watcher = await createUser(admin, 'editor', `phones-watcher-${++names}@example.test`);
		const events = sse(
			await watcher.client.fetch(`/api/flows/messaging/live/ending-${names}-0123456789abcdef`)
		);
		await events.comment('connected');
		expect((await watcher.client.fetch('/api/session', { method: 'DELETE' })).status).toBe(204);
		expect((await events.next('access_ended')).data).toEqual({ reason: 'session_ended' });
		const audit = await admin.json<{
			entries: { action: string; actor: string; target: string; details: unknown }[];
		}>('/api/audit?action=stream.closed');
		expect(audit.body.entries.find((e) => e.actor === watcher.email)).toMatchObject({
			target: 'ending',
			details: { feed: 'messaging', via: 'session', reason: 'session_ended' }
		});
	});

	it('refuses a key that is not one', async () => {
		const answer = await editor.client.json<Answer>('/api/flows/messaging/live/short');
		expect(answer.status).toBe(404);
		expect(answer.body.error!.code).toBe('not_found');
	});
});

describe('signing out', () => {
	it('reports every phone’s removal, and the provider drops its tokens', async () => {
		const { provider, profileId } = await setup();
		const values = accounts();
		const { answer, result } = await journey(profileId, { ...values, signOut: true });
		expect(result.findings).toEqual([]);
		const removals = answer.body.steps!.filter((s) => s.service === 'accountRemovalReporter');
		expect(removals.map((s) => [s.contractRow.id, s.decision.status])).toEqual([
			['accountRemoved', 'ok'],
			['accountRemoved', 'ok'],
			['accountRemoved', 'ok']
		]);
		expect(provider.tokens.get(values.recipient.username)).toEqual([]);
		expect(provider.tokens.get(values.sender.username)).toEqual([]);
		expect(result.phones.map((p) => p.started)).toEqual([false, false, false]);
	});
});

describe('reprovisioning', () => {
	it('a NotifyReprovision makes the phone reload its configuration and say what changed', async () => {
		const { profileId } = await setup({ reprovisionSender: true });
		const { answer, result } = await journey(profileId);
		expect(result.findings).toEqual([]);
		const reloads = answer.body.steps!.filter((s) => s.service === 'initialProvisioning');
		expect(reloads.map((s) => [s.contractRow.id, s.decision.status])).toEqual([
			['reprovisionPush', 'ok'],
			['reprovisionPush', 'ok']
		]);
		expect(reloads[0].decision.text).toMatch(
			/^sender reloads its configuration: answered 200; 2 settings changed: title, voicemailNumber\.$/
		);
		expect(reloads[1].decision.text).toMatch(/^sender-second reloads/);
	});
});

describe('a provider with a mistake', () => {
	it('never pushes: the journey says so after the timeout, with what it saw', async () => {
		const { profileId } = await setup({ neverPush: true });
		const { answer, result } = await journey(profileId, { pushTimeoutMs: 300 });
		expect(answer.body.ok).toBe(false);
		const wait = answer.body.steps!.find((s) => s.service === 'pushReceived')!;
		expect(wait.decision.status).toBe('failed');
		expect(wait.received).toBeNull();
		const arrived = result.findings.find((f) => f.check === 'pushArrived')!;
		expect(arrived.severity).toBe('error');
		expect(arrived.message).toMatch(/within 0.3 s: it saw the token report and the message sent/);
		expect(arrived.message).toContain('no push reached the sandbox');
		expect(result.verdict).toMatch(/^The round did not go as the contract wants/);
	});

	it('pushes to the incoming-call token', async () => {
		const { profileId } = await setup({ pushToVoipToken: true });
		const { result } = await journey(profileId, { pushTimeoutMs: 500 });
		expect(checks(result)).toContain('pushToReportedToken');
		expect(result.findings.find((f) => f.check === 'pushToReportedToken')!.message).toMatch(
			/pushTokenIncomingCall/
		);
	});

	it('pushes 1,000 times: the sandbox limits hold and the journey counts them', async () => {
		const { profileId, sandbox, provider } = await setup({ pushTimes: 1000 }, { rateLimit: 20 });
		const { answer, result } = await journey(profileId, { secondDevice: false });
		expect(answer.status).toBe(200);
		expect(checks(result)).toContain('pushOnce');
		expect(result.findings.find((f) => f.check === 'pushOnce')!.message).toMatch(
			/got \d[\d,]* NotifyTextMessages for one message/
		);
		// The sandbox's rate limit answered the flood and its records stayed capped.
		while (provider.pushes.length < 200) await new Promise((r) => setTimeout(r, 20));
		provider.halted = true;
		expect(provider.pushes.filter((p) => p.status === 429).length).toBeGreaterThan(100);
		const kept = await editor.client.json<Answer>(`/api/sandboxes/${sandbox.id}/pushes`);
		expect(kept.body.pushes!.length).toBeLessThanOrEqual(500);
	});

	it('answers every message every time', async () => {
		const { profileId } = await setup({ ignoreLastKnown: true });
		const { answer, result } = await journey(profileId);
		expect(answer.body.ok).toBe(false);
		const twice = result.findings.find((f) => f.check === 'nothingTwice')!;
		expect(twice.severity).toBe('error');
		expect(twice.message).toMatch(/foreground fetch answered 1 message the phone already had/);
		expect(twice.source).toEqual({ kind: 'docs', ref: 'api/client/fetch_messages_modern' });
	});

	it('answers 10,000 messages: named, and the kept step is cut', async () => {
		const { profileId } = await setup({ extraMessages: 10_000 });
		const { answer, result } = await journey(profileId, { secondDevice: false });
		expect(answer.status).toBe(200);
		const size = result.findings.find((f) => f.check === 'answerSize')!;
		expect(size.severity).toBe('warning');
		expect(size.message).toMatch(/answered 10,001 messages at once/);
		const fetched = answer.body.steps!.find((s) => s.service === 'fetchMessages')!;
		const response = fetched.response as { body: string; truncated: boolean };
		expect(response.truncated).toBe(true);
		expect(response.body.length).toBeLessThanOrEqual(64 * 1024);
		expect(result.phones[0].messages.length).toBeLessThanOrEqual(200);
	});

	it('hangs on fetch: the outbound timeout ends it and says so', async () => {
		const { profileId } = await setup({ hang: ['/fetch'] });
		const { answer, result } = await journey(profileId, { secondDevice: false });
		expect(answer.body.ok).toBe(false);
		const fetches = answer.body.steps!.filter((s) => s.service === 'fetchMessages');
		expect(fetches).toHaveLength(2);
		for (const fetched of fetches) expect(fetched.error?.code).toMatch(/timeout$/);
		expect(checks(result)).toContain('fetchReadable');
	});

	it('leaves out Id, Selector and Badge on platform A 13+', async () => {
		const { profileId } = await setup(
			{ noPushId: true, barePush: true },
			{ defaultPlatform: 'platformA13' }
		);
		const { result } = await journey(profileId, { secondDevice: false });
		expect(checks(result)).toEqual(
			expect.arrayContaining(['pushSelector', 'pushBadge', 'pushIdMissing'])
		);
	});

	it('forgets content_type and disposition_notification', async () => {
		const { profileId } = await setup({ dropFields: true });
		const long = `${'A long message. '.repeat(20)}The end.`;
		const { result } = await journey(profileId, { secondDevice: false, sms_body: long });
		expect(checks(result)).toEqual(
			expect.arrayContaining(['contentType', 'dispositionNotification'])
		);
		const said = (check: string) => result.findings.find((f) => f.check === check)!.message;
		expect(said('contentType')).toBe('content_type did not come back (sent as “text/plain”).');
		// The generated disposition notification is named whole, as it was sent.
		expect(said('dispositionNotification')).toMatch(
			/^disposition_notification did not come back \(sent as “[0-9a-f-]{36}:positive-delivery,display”\)\.$/
		);
		// Both phones show the start of a long message, marked as cut.
		for (const phone of result.phones) {
			expect(phone.messages[0].text).toBe(`${long.slice(0, 200)}…`);
		}
	});

	it('pushes again to a token the gateway answered 404 for', async () => {
		const check = async (keepUnregistered: boolean) => {
			const stale = `stale-token-${++names}`;
			const { provider, profileId } = await setup(
				{ keepUnregistered },
				{ unregisteredTokens: [stale] }
			);
			const values = accounts();
			const device = { selector: 'STALE:1', token: stale, voip: stale, appId: 'com.example.app' };
			provider.tokens.set(values.recipient.username, [device]);
			const first = await journey(profileId, { ...values, secondDevice: false });
			expect(checks(first.result)).not.toContain('noPushAfter404');
			const second = await journey(profileId, { ...values, secondDevice: false });
			return { provider, stale, result: second.result };
		};
		const wrong = await check(true);
		expect(checks(wrong.result)).toContain('noPushAfter404');
		expect(wrong.provider.pushes.filter((p) => p.token === wrong.stale)).toHaveLength(2);
		const right = await check(false);
		expect(checks(right.result)).not.toContain('noPushAfter404');
		expect(right.provider.pushes.filter((p) => p.token === right.stale)).toEqual([
			{ token: right.stale, status: 404 }
		]);
	});
});

describe('input the journey refuses before sending anything', () => {
	let profileId: string;
	let provider: Provider;

	beforeAll(async () => {
		({ profileId, provider } = await setup());
	});

	const post = (body: object) =>
		editor.client.json<Answer>('/api/flows/messaging', { method: 'POST', json: body });

	it('a profile whose push gateway URL is not a sandbox', async () => {
		const other = await createProfile(
			editor.client,
			'No sandbox',
			profile(providerServices(provider.url), 'https://push.example.com/gateway')
		);
		const before = provider.hits['/report'] ?? 0;
		const answer = await post({ profileId: other, values: { ...accounts(), sms_body: 'Hi' } });
		expect(answer.status).toBe(400);
		expect(answer.body.error!.code).toBe('missing_values');
		expect(answer.body.error!.message).toMatch(/not one of this app's sandboxes/);
		expect(answer.body.missing).toEqual([{ name: 'sandboxId', service: null }]);
		expect(provider.hits['/report'] ?? 0).toBe(before);
	});

	it('an unknown sandbox, a missing phone, a timeout over the maximum', async () => {
		const values = { ...accounts(), sms_body: 'Hi' };
		const unknown = await post({ profileId, sandboxId: 'no-such-sandbox', values });
		expect(unknown.status).toBe(404);
		const noRecipient = await post({ profileId, values: { ...values, recipient: undefined } });
		expect(noRecipient.status).toBe(400);
		expect(noRecipient.body.error!.code).toBe('invalid_input');
		const long = await post({ profileId, values: { ...values, pushTimeoutMs: 120_000 } });
		expect(long.status).toBe(400);
		expect(long.body.error!.code).toBe('invalid_input');
	});

	it('a template placeholder neither the phones nor the profile give', async () => {
		const services = providerServices(provider.url);
		services.fetchMessages.genericSmsFetchPostData += '&v=%version%';
		const other = await createProfile(editor.client, 'Version', profile(services, ''));
		const sandboxes = await editor.client.json<{ sandboxes: SandboxView[] }>('/api/sandboxes');
		const answer = await post({
			profileId: other,
			sandboxId: sandboxes.body.sandboxes[0].id,
			values: { ...accounts(), sms_body: 'Hi' }
		});
		expect(answer.status).toBe(400);
		expect(answer.body.missing).toEqual([{ name: 'version', service: 'fetchMessages' }]);
	});
});

describe('the minimal provider of docs/messaging.md', () => {
	let child: ChildProcess;

	afterAll(() => {
		child?.kill();
	});

	it('passes the journey', async () => {
		const created = await editor.client.json<Answer>('/api/sandboxes', {
			method: 'POST',
			json: { name: 'Docs provider' }
		});
		const pushUrl = created.body.sandbox!.pushUrl;
		const script = path.resolve(import.meta.dirname, '../../docs/messaging-provider.mjs');
		child = spawn(process.execPath, [script], {
			env: { PATH: process.env.PATH ?? '', PUSH_URL: pushUrl, PORT: '0' },
			stdio: ['ignore', 'pipe', 'inherit']
		});
		const [line] = (await once(child.stdout!, 'data')) as [Buffer];
		const port = /listening on (\d+)/.exec(line.toString())![1];
		const profileId = await createProfile(
			editor.client,
			'Docs provider',
			profile(providerServices(`http://127.0.0.1:${port}`), pushUrl)
		);
		const { answer, result } = await journey(profileId);
		expect(result.findings).toEqual([]);
		expect(answer.body.ok).toBe(true);
	});
});
