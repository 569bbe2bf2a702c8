import { describe, expect, it } from 'vitest';
import { emptyDocument, type ProfileDocument } from '$lib/core/profile';
import { ProfileDraft, type ProfileSnapshot } from './profile-draft.svelte';

const URL_PATH = 'services.sendMessage.genericSmsSendUrl';

function snapshot(revision: number, document: ProfileDocument = emptyDocument()): ProfileSnapshot {
	return { id: 'p1', name: 'P', revision, author: 'alice', savedAt: 0, document };
}

function withUrl(url: string): ProfileDocument {
	return { ...emptyDocument(), services: { sendMessage: { genericSmsSendUrl: url } } };
}

/** A server that answers the queued responses in turn and keeps what it was sent. */
function server(...answers: [number, unknown][]) {
	const sent: Record<string, unknown>[] = [];
	const fetcher = (async (_url: string, init?: RequestInit) => {
		sent.push(JSON.parse(String(init?.body)));
		const [status, body] = answers.shift()!;
		return new Response(JSON.stringify(body), { status });
	}) as typeof fetch;
	return { sent, fetcher };
}

describe('ProfileDraft', () => {
	it('is not dirty after writing the value a setting already has, or an empty one', () => {
		const draft = new ProfileDraft(snapshot(1, withUrl('https://a.test/')));
		draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://a.test/');
		draft.setSetting('invitationAccepted', 'invitationAcceptedUrl', '');
		expect(draft.dirty).toBe(false);
		draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://b.test/');
		expect(draft.dirty).toBe(true);
	});

	it('turns a 409 into per-field choices, and sends them with the head they were made for', async () => {
		const draft = new ProfileDraft(snapshot(1, withUrl('https://a.test/')));
		draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://mine.test/');
		const conflict = {
			path: URL_PATH,
			base: 'https://a.test/',
			mine: 'https://mine.test/',
			theirs: 'https://theirs.test/',
			secret: false
		};
		const saved = withUrl('https://theirs.test/');
		const { sent, fetcher } = server(
			[409, { error: { code: 'conflict' }, current: snapshot(2, saved), conflicts: [conflict] }],
			[
				200,
				{
					profile: snapshot(3, saved),
					merged: { base: 1, theirs: 2, fromTheirs: [], chosen: [URL_PATH] }
				}
			]
		);
		expect(await draft.save('', fetcher)).toBe(false);
		expect(draft.conflict?.conflicts).toEqual([conflict]);
		expect(draft.resolved).toBe(false);
		expect(draft.dirty).toBe(true);

		draft.choose(URL_PATH, 'theirs');
		expect(draft.resolved).toBe(true);
		expect(await draft.save('', fetcher)).toBe(true);
		expect(sent[1]).toMatchObject({
			baseRevision: 1,
			choices: { [URL_PATH]: 'theirs' },
			theirsRevision: 2
		});
		expect(draft.baseRevision).toBe(3);
		expect(draft.conflict).toBeNull();
		expect(draft.merged).toEqual({
			theirs: 2,
			author: 'alice',
			fromTheirs: [],
			chosen: [URL_PATH]
		});
		expect(draft.dirty).toBe(false);
	});

	it('discards back to the revision it saved last, not the one it was opened at', async () => {
		const draft = new ProfileDraft(snapshot(1, withUrl('https://a.test/')));
		draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://b.test/');
		const { fetcher } = server([200, { profile: snapshot(2, withUrl('https://b.test/')) }]);
		expect(await draft.save('', fetcher)).toBe(true);
		draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://c.test/');
		const drafts = { get: async () => undefined, put: async () => {}, delete: async () => {} };
		draft.discard(drafts);
		expect(draft.savedRevision).toBe(2);
		expect(draft.baseRevision).toBe(2);
		expect(draft.settingsOf('sendMessage').genericSmsSendUrl).toBe('https://b.test/');
		expect(draft.dirty).toBe(false);
	});

	it('gives a discarded draft back exactly, and stores it in the browser again', async () => {
		const draft = new ProfileDraft(snapshot(3, withUrl('https://a.test/')));
		draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://b.test/?q=%sms_to%');
		draft.setSetting('sendMessage', 'genericSmsSendPostData', 'line 1\nline 2\t\u00e9');
		draft.rawSubstitution = true;
		const before = JSON.parse(JSON.stringify(draft.document));
		const stored = new Map<string, unknown>();
		const drafts = {
			get: async () => undefined,
			put: async (id: string, value: unknown) => void stored.set(id, value),
			delete: async (id: string) => void stored.delete(id)
		};
		const dropped = draft.discard(drafts);
		expect(draft.dirty).toBe(false);
		expect(stored.has('p1')).toBe(false);
		expect(await draft.undoDiscard(dropped, drafts)).toBe(true);
		expect(draft.document).toEqual(before);
		expect(draft.baseRevision).toBe(3);
		expect(draft.dirty).toBe(true);
		expect(stored.get('p1')).toEqual({ baseRevision: 3, document: before });
	});

	it('does not give a discarded draft back over a newer edit', async () => {
		const draft = new ProfileDraft(snapshot(1, withUrl('https://a.test/')));
		draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://b.test/');
		const drafts = { get: async () => undefined, put: async () => {}, delete: async () => {} };
		const dropped = draft.discard(drafts);
		draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://new.test/');
		expect(await draft.undoDiscard(dropped, drafts)).toBe(false);
		expect(draft.settingsOf('sendMessage').genericSmsSendUrl).toBe('https://new.test/');
	});

	it('edits the push settings on the same draft and saves them with the same request', async () => {
		const draft = new ProfileDraft(snapshot(1));
		draft.setPush('target', 'unknown');
		expect(draft.dirty).toBe(false);
		draft.setPush('gatewayUrl', 'https://push.example.com/gw');
		draft.setPush('appId', 'com.provider.app');
		draft.setPush('target', 'platformB');
		expect(draft.dirty).toBe(true);
		const saved = { ...emptyDocument(), push: draft.document.push };
		const { sent, fetcher } = server([200, { profile: snapshot(2, saved) }]);
		expect(await draft.save('push', fetcher)).toBe(true);
		expect(sent[0]).toMatchObject({
			baseRevision: 1,
			document: {
				push: {
					gatewayUrl: 'https://push.example.com/gw',
					appId: 'com.provider.app',
					target: 'platformB'
				}
			}
		});
		expect(draft.dirty).toBe(false);
		expect(draft.saved.push.target).toBe('platformB');
	});
});
