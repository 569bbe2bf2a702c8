import { describe, expect, it, vi } from 'vitest';
import { emptyDocument, SECRET_MASK, type ProfileDocument } from '$lib/core/profile';
import {
	leftDrafts,
	tabDrafts,
	type DraftStore,
	type BrowserStorage,
	type StoredDraft
} from './draft-store.svelte';
import type { ProfileSnapshot } from './draft-types';
import { ProfileDraft } from './profile-draft.svelte';
import { ServiceStatuses } from './service-editor.svelte';
import { SETTINGS_PATH } from '$lib/core/xml/forms';

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

/** A tab's session storage, or the browser's local storage, in memory; `room` bounds its size. */
function sessionOf(room = Infinity): BrowserStorage & { items: Map<string, string> } {
	const items = new Map<string, string>();
	return {
		items,
		get length() {
			return items.size;
		},
		key: (index) => [...items.keys()][index] ?? null,
		getItem: (key) => items.get(key) ?? null,
		setItem: (key, value) => {
			if (value.length > room) throw new DOMException('full', 'QuotaExceededError');
			items.set(key, value);
		},
		removeItem: (key) => void items.delete(key)
	};
}

/**
 * One browser's drafts in memory, shared by its tabs: `tab()` answers a tab's view of them
 * (`session`: the tab's own storage, which a reload keeps). What a tab announces reaches the
 * others a moment later, as a `BroadcastChannel` message does, unless the announcements are held
 * (to let two tabs write before either hears of the other). `lose('never')` makes the writes
 * that follow never land, as when a page goes while its write is on its way; `lose('unheard')`
 * lands them but never says so, as when the page goes just after; `lose('abort')` reads and then
 * fails them, as a storage that is full does.
 */
function browser() {
	const stored = new Map<string, StoredDraft>();
	// The browser's local storage, which every tab shares and closing one keeps.
	const local = sessionOf();
	const listeners = new Set<{ id: string; changed: (writer: string) => void }>();
	const held: (() => void)[] = [];
	let holding = false;
	const writes: StoredDraft[] = [];
	let losing: 'never' | 'unheard' | 'abort' | false = false;
	const tab = (session: BrowserStorage = sessionOf()): DraftStore => ({
		get: async (id) => structuredClone(stored.get(id)),
		update: async (id, change) => {
			if (losing === 'never') return new Promise<void>(() => {});
			const next = change(structuredClone(stored.get(id)));
			if (losing === 'abort') throw new DOMException('full', 'QuotaExceededError');
			if (next) {
				stored.set(id, structuredClone(next));
				writes.push(structuredClone(next));
			} else if (next === null) stored.delete(id);
			if (losing === 'unheard') return new Promise<void>(() => {});
		},
		announce: (id, writer) => {
			const deliver = () => {
				for (const l of listeners) if (l.id === id) l.changed(writer);
			};
			if (holding) held.push(deliver);
			else setTimeout(deliver, 0);
		},
		listen: (id, changed) => {
			const listener = { id, changed };
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		...tabDrafts(() => session),
		...leftDrafts(() => local)
	});
	return {
		stored,
		local,
		writes,
		tab,
		lose: (how: typeof losing) => (losing = how),
		hold: () => (holding = true),
		release: () => {
			holding = false;
			for (const deliver of held.splice(0)) deliver();
		}
	};
}

/**
 * A profile's page in a tab of `of`: its draft, following the other tabs. Pages given the same
 * `session` are pages of the same tab, one after the other.
 */
function page(
	of: ReturnType<typeof browser>,
	revision = 1,
	document = withUrl('https://a.test/'),
	session = sessionOf()
) {
	const drafts = of.tab(session);
	const draft = new ProfileDraft(snapshot(revision, document));
	draft.follow(drafts);
	/** Sets a Send Message setting and keeps the draft, as a pause in typing does. */
	const type = async (key: string, value: string) => {
		draft.setSetting('sendMessage', key, value);
		await draft.store(drafts);
	};
	return { draft, drafts, type };
}

const BODY = 'genericSmsSendPostData';

/** Lets what a page started as it went reach the store (where it is lost), as the page goes. */
const gone = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('ProfileDraft', () => {
	it('is not dirty after writing the value a setting already has, or an empty one', () => {
		const draft = new ProfileDraft(snapshot(1, withUrl('https://a.test/')));
		draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://a.test/');
		draft.setSetting('invitationAccepted', 'invitationAcceptedUrl', '');
		expect(draft.dirty).toBe(false);
		draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://b.test/');
		expect(draft.dirty).toBe(true);
	});

	it('keeps the account keys of its kept XML while a key changes a setting: the other services’ statuses stay built', () => {
		const document: ProfileDocument = {
			...emptyDocument(),
			services: {
				sendMessage: { genericSmsSendUrl: 'https://a.test/' },
				invitationAccepted: { invitationAcceptedUrl: 'https://a.test/' }
			},
			preservedXml: [{ path: SETTINGS_PATH, index: 0, xml: '<apiUser>acme</apiUser>' }]
		};
		const served = [{ name: 'apiUser', value: 'acme', secret: false }];
		const draft = new ProfileDraft({ ...snapshot(1, document), accountKeys: served });
		const statuses = new ServiceStatuses(draft);
		const keys = draft.accountKeys;
		const other = statuses.resultOf('invitationAccepted');
		expect(keys.map((k) => k.name)).toEqual(['apiUser']);
		expect(other).not.toBeNull();

		draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://b.test/');
		expect(draft.accountKeys).toBe(keys);
		expect(statuses.resultOf('invitationAccepted')).toBe(other);
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
		draft.discard(browser().tab());
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
		const kept = browser();
		const drafts = kept.tab();
		await draft.store(drafts);
		const dropped = draft.discard(drafts);
		expect(draft.dirty).toBe(false);
		await vi.waitFor(() => expect(kept.stored.get('p1')?.clean).toBe(true));
		expect(await draft.undoDiscard(dropped, drafts)).toBe(true);
		expect(draft.document).toEqual(before);
		expect(draft.baseRevision).toBe(3);
		expect(draft.dirty).toBe(true);
		expect(kept.stored.get('p1')).toMatchObject({ baseRevision: 3, document: before });
		expect(kept.stored.get('p1')?.clean).toBeUndefined();
	});

	it('does not give a discarded draft back over a newer edit', async () => {
		const draft = new ProfileDraft(snapshot(1, withUrl('https://a.test/')));
		draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://b.test/');
		const drafts = browser().tab();
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

	describe('shared by the tabs of a browser', () => {
		it('gives each tab the fields the other changed, and keeps both in the stored draft', async () => {
			const chrome = browser();
			const a = page(chrome);
			const b = page(chrome);
			await a.type('genericSmsSendUrl', 'https://from-a.test/');
			await vi.waitFor(() =>
				expect(b.draft.settingsOf('sendMessage').genericSmsSendUrl).toBe('https://from-a.test/')
			);
			expect(b.draft.fromOtherTab).toMatchObject({
				fields: ['Send Message · URL'],
				revision: null
			});
			expect(b.draft.dirty).toBe(true);

			await b.type(BODY, 'to=%sms_to%');
			await vi.waitFor(() => expect(a.draft.settingsOf('sendMessage')[BODY]).toBe('to=%sms_to%'));
			expect(a.draft.document).toEqual(b.draft.document);
			expect(chrome.stored.get('p1')?.document.services.sendMessage).toEqual({
				genericSmsSendUrl: 'https://from-a.test/',
				[BODY]: 'to=%sms_to%'
			});
		});

		it('loses neither tab’s change when both write before hearing of the other', async () => {
			const chrome = browser();
			const a = page(chrome);
			const b = page(chrome);
			chrome.hold();
			a.draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://from-a.test/');
			b.draft.setSetting('sendMessage', BODY, 'from b');
			await a.draft.store(a.drafts);
			await b.draft.store(b.drafts);
			// The second writer merged the first one's change into what it wrote.
			expect(chrome.stored.get('p1')?.document.services.sendMessage).toEqual({
				genericSmsSendUrl: 'https://from-a.test/',
				[BODY]: 'from b'
			});
			expect(b.draft.settingsOf('sendMessage').genericSmsSendUrl).toBe('https://from-a.test/');
			chrome.release();
			await vi.waitFor(() => expect(a.draft.settingsOf('sendMessage')[BODY]).toBe('from b'));
			expect(a.draft.otherTabConflict).toBeNull();
			expect(b.draft.otherTabConflict).toBeNull();
		});

		it('keeps this tab’s value of a field both changed, says so, and can take the other’s', async () => {
			const chrome = browser();
			const a = page(chrome);
			const b = page(chrome);
			chrome.hold();
			a.draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://from-a.test/');
			b.draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://from-b.test/');
			await a.draft.store(a.drafts);
			await b.draft.store(b.drafts);
			expect(b.draft.settingsOf('sendMessage').genericSmsSendUrl).toBe('https://from-b.test/');
			expect(b.draft.otherTabConflict?.conflicts).toMatchObject([
				{
					path: URL_PATH,
					label: 'Send Message · URL',
					mine: 'https://from-b.test/',
					theirs: 'https://from-a.test/'
				}
			]);
			await b.draft.useOtherTab();
			expect(b.draft.settingsOf('sendMessage').genericSmsSendUrl).toBe('https://from-a.test/');
			expect(b.draft.otherTabConflict).toBeNull();
			// Said with an Undo, which gives this tab's value back.
			expect(b.draft.fromOtherTab?.fields).toEqual(['Send Message · URL']);
			await b.draft.undoOtherTab();
			expect(b.draft.settingsOf('sendMessage').genericSmsSendUrl).toBe('https://from-b.test/');
			chrome.release();
		});

		it('puts back what it took from another tab when asked, and keeps what was typed since', async () => {
			const chrome = browser();
			const a = page(chrome);
			const b = page(chrome);
			await a.type('genericSmsSendUrl', 'https://mine.test/');
			await vi.waitFor(() =>
				expect(b.draft.settingsOf('sendMessage').genericSmsSendUrl).toBe('https://mine.test/')
			);
			await b.type('genericSmsSendUrl', 'https://theirs.test/');
			await vi.waitFor(() =>
				expect(a.draft.settingsOf('sendMessage').genericSmsSendUrl).toBe('https://theirs.test/')
			);
			a.draft.setSetting('sendMessage', BODY, 'typed after');
			await a.draft.undoOtherTab();
			expect(a.draft.fromOtherTab).toBeNull();
			expect(a.draft.settingsOf('sendMessage')).toEqual({
				genericSmsSendUrl: 'https://mine.test/',
				[BODY]: 'typed after'
			});
			await a.draft.store(a.drafts);
			await vi.waitFor(() =>
				expect(b.draft.settingsOf('sendMessage').genericSmsSendUrl).toBe('https://mine.test/')
			);
		});

		it('does not answer a change it took with a write of its own', async () => {
			const chrome = browser();
			const a = page(chrome);
			const b = page(chrome);
			await a.type('genericSmsSendUrl', 'https://from-a.test/');
			await vi.waitFor(() => expect(b.draft.fromOtherTab).not.toBeNull());
			await b.draft.store(b.drafts);
			await a.draft.store(a.drafts);
			await new Promise((resolve) => setTimeout(resolve, 20));
			expect(chrome.writes).toHaveLength(1);
		});

		it('follows a save made in another tab, keeping what it had not shared yet', async () => {
			const chrome = browser();
			const a = page(chrome);
			const b = page(chrome);
			await a.type('genericSmsSendUrl', 'https://saved.test/');
			await vi.waitFor(() => expect(b.draft.fromOtherTab).not.toBeNull());
			chrome.hold();
			b.draft.setSetting('sendMessage', BODY, 'typed in b');
			const { fetcher } = server([200, { profile: snapshot(2, withUrl('https://saved.test/')) }]);
			expect(await a.draft.save('', fetcher)).toBe(true);
			await a.draft.store(a.drafts);
			expect(chrome.stored.get('p1')).toMatchObject({ baseRevision: 2, clean: true });
			chrome.release();
			await vi.waitFor(() => expect(b.draft.savedRevision).toBe(2));
			expect(b.draft.baseRevision).toBe(2);
			expect(b.draft.fromOtherTab?.revision).toBe(2);
			expect(b.draft.settingsOf('sendMessage')).toEqual({
				genericSmsSendUrl: 'https://saved.test/',
				[BODY]: 'typed in b'
			});
			expect(b.draft.dirty).toBe(true);
			await b.draft.store(b.drafts);
			await vi.waitFor(() => expect(a.draft.settingsOf('sendMessage')[BODY]).toBe('typed in b'));
			expect(a.draft.baseRevision).toBe(2);
		});

		it('follows a discard made in another tab', async () => {
			const chrome = browser();
			const a = page(chrome);
			const b = page(chrome);
			await a.type('genericSmsSendUrl', 'https://dropped.test/');
			await vi.waitFor(() => expect(b.draft.dirty).toBe(true));
			a.draft.discard(a.drafts);
			await vi.waitFor(() => expect(b.draft.dirty).toBe(false));
			expect(b.draft.settingsOf('sendMessage').genericSmsSendUrl).toBe('https://a.test/');
		});

		it.each([
			['nothing it changed', 'https://a.test/', 2],
			['the same field', 'https://a.test/?changed', 1]
		])(
			'takes a draft kept from an earlier visit on top of the newer revision; the revision in between changed %s: base %s',
			async (_, betweenUrl, base) => {
				const chrome = browser();
				const old = page(chrome, 1);
				await old.type('genericSmsSendUrl', 'https://kept.test/');
				const between = withUrl(betweenUrl);
				between.push = { ...between.push, gatewayUrl: 'https://x.test/' };
				const later = new ProfileDraft(snapshot(2, between));
				expect(await later.restoreStored(chrome.tab())).toBe(true);
				expect(later.restored).toBe(true);
				expect(later.fromOtherTab).toBeNull();
				// The draft's own change on top of the newer revision, which the save names only
				// when nothing in between changed the same field.
				expect(later.settingsOf('sendMessage')).toEqual({
					genericSmsSendUrl: 'https://kept.test/'
				});
				expect(later.document.push.gatewayUrl).toBe('https://x.test/');
				expect(later.baseRevision).toBe(base);
			}
		);

		it('restores nothing from a draft that was saved', async () => {
			const chrome = browser();
			const a = page(chrome);
			await a.type('genericSmsSendUrl', 'https://saved.test/');
			const { fetcher } = server([200, { profile: snapshot(2, withUrl('https://saved.test/')) }]);
			await a.draft.save('', fetcher);
			await a.draft.store(a.drafts);
			const later = new ProfileDraft(snapshot(3, withUrl('https://third.test/')));
			expect(await later.restoreStored(chrome.tab())).toBe(false);
			expect(later.dirty).toBe(false);
			expect(later.settingsOf('sendMessage').genericSmsSendUrl).toBe('https://third.test/');
		});
	});

	describe('shared by tabs opened on different revisions', () => {
		/** Revision 2: someone changed the push gateway after the first tab opened revision 1. */
		const revision2 = () => ({
			...withUrl('https://a.test/'),
			push: { ...emptyDocument().push, gatewayUrl: 'https://x.test/' }
		});
		const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

		it('meet on the newer revision and stop writing', async () => {
			const chrome = browser();
			const a = page(chrome, 1);
			const b = page(chrome, 2, revision2());
			await a.type(BODY, 'f');
			await vi.waitFor(() => expect(b.draft.settingsOf('sendMessage')[BODY]).toBe('f'));
			expect(b.draft.document.push.gatewayUrl).toBe('https://x.test/');
			await b.type(BODY, '');
			await vi.waitFor(() => expect(a.draft.savedRevision).toBe(2));
			await settle();
			const writes = chrome.writes.length;
			await settle();
			expect(chrome.writes).toHaveLength(writes);
			expect(a.draft.document.push.gatewayUrl).toBe('https://x.test/');
			expect(a.draft.dirty).toBe(false);
			expect(b.draft.dirty).toBe(false);
		});

		it.each([
			['nothing the draft changed', undefined, 2],
			['the same field', 'set in revision 2', 1]
		])(
			'never take back what a newer revision changed; when it changed %s, the save names base %s',
			async (_, body, base) => {
				const chrome = browser();
				const newer = revision2();
				if (body) newer.services.sendMessage = { ...newer.services.sendMessage, [BODY]: body };
				const a = page(chrome, 1);
				const b = page(chrome, 2, newer);
				chrome.hold();
				await a.type(BODY, 'f');
				await b.type('genericSmsSendUrl', 'https://g.test/');
				const { sent, fetcher } = server([200, { profile: snapshot(3, newer) }]);
				await b.draft.save('', fetcher);
				expect(sent[0]).toMatchObject({
					baseRevision: base,
					document: {
						push: { gatewayUrl: 'https://x.test/' },
						services: { sendMessage: { genericSmsSendUrl: 'https://g.test/', [BODY]: 'f' } }
					}
				});
				chrome.release();
			}
		);

		it('follow a discard made in the tab that is behind', async () => {
			const chrome = browser();
			const a = page(chrome, 1);
			const b = page(chrome, 2, revision2());
			await a.type(BODY, 'f');
			await vi.waitFor(() => expect(b.draft.dirty).toBe(true));
			a.draft.discard(a.drafts);
			await vi.waitFor(() => expect(b.draft.dirty).toBe(false));
			await settle();
			expect(a.draft.settingsOf('sendMessage')[BODY]).toBeUndefined();
			expect(b.draft.settingsOf('sendMessage')[BODY]).toBeUndefined();
		});

		it('move to a revision saved while typing went on, and a discard there holds', async () => {
			const chrome = browser();
			const a = page(chrome);
			const b = page(chrome);
			await a.type('genericSmsSendUrl', 'https://u.test/');
			await vi.waitFor(() => expect(b.draft.dirty).toBe(true));
			let answer: ((response: Response) => void) | undefined;
			const fetcher = (() =>
				new Promise<Response>((resolve) => (answer = resolve))) as typeof fetch;
			const saving = a.draft.save('', fetcher);
			await vi.waitFor(() => expect(answer).toBeDefined());
			a.draft.setSetting('sendMessage', BODY, 't');
			answer!(
				new Response(JSON.stringify({ profile: snapshot(2, withUrl('https://u.test/')) }), {
					status: 200
				})
			);
			await saving;
			await a.draft.store(a.drafts);
			await vi.waitFor(() => expect(b.draft.settingsOf('sendMessage')[BODY]).toBe('t'));
			expect(b.draft.savedRevision).toBe(2);
			expect(b.draft.baseRevision).toBe(2);
			b.draft.discard(b.drafts);
			await vi.waitFor(() => expect(a.draft.dirty).toBe(false));
			await settle();
			expect(b.draft.dirty).toBe(false);
			expect(a.draft.settingsOf('sendMessage')).toEqual({ genericSmsSendUrl: 'https://u.test/' });
		});

		it('move to a revision saved while the same field was typed on, without a conflict of their own', async () => {
			const chrome = browser();
			const a = page(chrome);
			const b = page(chrome);
			a.draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://a.test/x');
			let answer: ((response: Response) => void) | undefined;
			const fetcher = (() =>
				new Promise<Response>((resolve) => (answer = resolve))) as typeof fetch;
			const saving = a.draft.save('', fetcher);
			await vi.waitFor(() => expect(answer).toBeDefined());
			// Typed on while the save is on its way, and shared (a pause in typing): the other tab
			// takes it on revision 1.
			await a.type('genericSmsSendUrl', 'https://a.test/x/typed-during-save');
			await vi.waitFor(() =>
				expect(b.draft.settingsOf('sendMessage').genericSmsSendUrl).toBe(
					'https://a.test/x/typed-during-save'
				)
			);
			answer!(
				new Response(JSON.stringify({ profile: snapshot(2, withUrl('https://a.test/x')) }), {
					status: 200
				})
			);
			expect(await saving).toBe(true);
			await a.draft.store(a.drafts);
			await vi.waitFor(() => expect(b.draft.savedRevision).toBe(2));
			await settle();
			// What the other tab took from this one is no change of its own against revision 2.
			for (const tab of [a, b]) {
				expect(tab.draft.baseRevision).toBe(2);
				expect(tab.draft.settingsOf('sendMessage').genericSmsSendUrl).toBe(
					'https://a.test/x/typed-during-save'
				);
			}
			expect(chrome.stored.get('p1')?.baseRevision).toBe(2);
		});

		it('move to a revision saved meanwhile with no clash over a field typed on after it was shared', async () => {
			const chrome = browser();
			const a = page(chrome);
			const b = page(chrome);
			await a.type('genericSmsSendUrl', 'https://a.test/&a1');
			await b.type(BODY, 'b1');
			await vi.waitFor(() => expect(a.draft.settingsOf('sendMessage')[BODY]).toBe('b1'));
			const saved = {
				...emptyDocument(),
				services: { sendMessage: { genericSmsSendUrl: 'https://a.test/&a1', [BODY]: 'b1' } }
			};
			const { fetcher } = server([200, { profile: snapshot(2, saved) }]);
			// Typed in the other tab while the save is on its way, not shared yet.
			b.draft.setSetting('sendMessage', BODY, 'b1b2');
			expect(await a.draft.save('', fetcher)).toBe(true);
			await a.draft.store(a.drafts);
			await b.draft.store(b.drafts);
			await vi.waitFor(() => expect(a.draft.settingsOf('sendMessage')[BODY]).toBe('b1b2'));
			await settle();
			for (const tab of [a, b]) {
				expect(tab.draft.baseRevision).toBe(2);
				expect(tab.draft.savedRevision).toBe(2);
			}
			expect(b.draft.settingsOf('sendMessage')[BODY]).toBe('b1b2');
		});

		it('give back a discarded draft on top of what another tab typed since the discard', async () => {
			const chrome = browser();
			const a = page(chrome);
			const b = page(chrome);
			await a.type('genericSmsSendUrl', 'https://dropped.test/');
			await a.type(BODY, 'dropped body');
			await vi.waitFor(() => expect(b.draft.settingsOf('sendMessage')[BODY]).toBe('dropped body'));
			const dropped = a.draft.discard(a.drafts);
			await vi.waitFor(() => expect(b.draft.dirty).toBe(false));
			await b.type('genericSmsSendContentType', 'text/plain');
			await vi.waitFor(() => expect(a.draft.dirty).toBe(true));
			expect(a.draft.onlyTaken).toBe(true);
			// Its note dismissed, it is still no edit of this tab's.
			a.draft.fromOtherTab = null;
			expect(a.draft.onlyTaken).toBe(true);

			expect(await a.draft.undoDiscard(dropped, a.drafts)).toBe(true);
			const all = {
				genericSmsSendUrl: 'https://dropped.test/',
				[BODY]: 'dropped body',
				genericSmsSendContentType: 'text/plain'
			};
			expect(a.draft.settingsOf('sendMessage')).toEqual(all);
			expect(a.draft.baseRevision).toBe(1);
			await vi.waitFor(() => expect(b.draft.settingsOf('sendMessage')).toEqual(all));
			// Typed here, it is an edit: no undo over it.
			a.draft.setSetting('sendMessage', BODY, 'typed');
			expect(a.draft.onlyTaken).toBe(false);
		});

		it('give back a discarded draft on top of the revision another tab moved to meanwhile', async () => {
			const chrome = browser();
			const a = page(chrome, 1);
			await a.type(BODY, 'typed');
			// A tab opened on revision 2 takes the draft before the discard is heard of.
			chrome.hold();
			const b = page(chrome, 2, revision2());
			await b.draft.restoreStored(b.drafts);
			expect(b.draft.settingsOf('sendMessage')[BODY]).toBe('typed');
			// The discard finds it, and this tab moves to revision 2 with nothing unsaved.
			const dropped = a.draft.discard(a.drafts);
			await vi.waitFor(() => expect(a.draft.savedRevision).toBe(2));
			expect(a.draft.dirty).toBe(false);
			chrome.release();
			expect(await a.draft.undoDiscard(dropped, a.drafts)).toBe(true);
			expect(a.draft.settingsOf('sendMessage')[BODY]).toBe('typed');
			expect(a.draft.document.push.gatewayUrl).toBe('https://x.test/');
			expect(a.draft.baseRevision).toBe(2);
			await vi.waitFor(() => expect(b.draft.settingsOf('sendMessage')[BODY]).toBe('typed'));
		});

		it('drop a save conflict that a newer revision settled', async () => {
			const chrome = browser();
			const a = page(chrome);
			const b = page(chrome);
			await a.type('genericSmsSendUrl', 'https://mine.test/');
			await vi.waitFor(() => expect(b.draft.dirty).toBe(true));
			const conflict = { path: URL_PATH, base: 'https://a.test/', secret: false };
			const refused = server([
				409,
				{ current: snapshot(2, withUrl('https://t.test/')), conflicts: [conflict] }
			]);
			expect(await a.draft.save('', refused.fetcher)).toBe(false);
			const saved = server([200, { profile: snapshot(3, withUrl('https://mine.test/')) }]);
			expect(await b.draft.save('', saved.fetcher)).toBe(true);
			await b.draft.store(b.drafts);
			await vi.waitFor(() => expect(a.draft.savedRevision).toBe(3));
			expect(a.draft.conflict).toBeNull();
			expect(a.draft.dirty).toBe(false);
		});
	});

	describe('shared by tabs, with stored secrets shown masked', () => {
		const PASSWORD = 'account[password]';
		const withSecret = (url = 'https://a.test/') => ({
			...withUrl(url),
			scenarios: [{ name: 'S', values: { [PASSWORD]: SECRET_MASK } }]
		});
		const password = (draft: ProfileDraft) => draft.document.scenarios[0]?.values[PASSWORD];
		const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

		it('follow a discard of a typed secret: the mask put back is a change', async () => {
			const chrome = browser();
			const a = page(chrome, 1, withSecret());
			const b = page(chrome, 1, withSecret());
			a.draft.values = { [PASSWORD]: 'typed secret' };
			await a.draft.store(a.drafts);
			await vi.waitFor(() => expect(password(b.draft)).toBe('typed secret'));
			a.draft.discard(a.drafts);
			await vi.waitFor(() => expect(b.draft.dirty).toBe(false));
			await settle();
			expect(password(b.draft)).toBe(SECRET_MASK);
			expect(a.draft.dirty).toBe(false);
		});

		it('name the older base when a secret was typed on a revision a newer one replaced', async () => {
			const chrome = browser();
			const a = page(chrome, 1, withSecret());
			// Revision 2 may have changed the password too: masked, nobody can tell.
			const b = page(chrome, 2, withSecret());
			a.draft.values = { [PASSWORD]: 'typed secret' };
			await b.type(BODY, 'k');
			await vi.waitFor(() => expect(a.draft.savedRevision).toBe(2));
			const { sent, fetcher } = server([200, { profile: snapshot(3, withSecret()) }]);
			await a.draft.save('', fetcher);
			expect(sent[0]).toMatchObject({ baseRevision: 1 });
		});
	});

	describe('notes about another tab', () => {
		it('drop a conflict once the drafts it was about are gone, and take nothing of them back', async () => {
			const chrome = browser();
			const a = page(chrome);
			const b = page(chrome);
			chrome.hold();
			a.draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://from-a.test/');
			a.draft.setSetting('sendMessage', BODY, 'a-body');
			b.draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://from-b.test/');
			await a.draft.store(a.drafts);
			await b.draft.store(b.drafts);
			expect(b.draft.otherTabConflict).not.toBeNull();
			chrome.release();
			await vi.waitFor(() =>
				expect(a.draft.settingsOf('sendMessage').genericSmsSendUrl).toBe('https://from-b.test/')
			);
			a.draft.discard(a.drafts);
			await vi.waitFor(() => expect(b.draft.dirty).toBe(false));
			expect(b.draft.otherTabConflict).toBeNull();
			await b.draft.useOtherTab();
			expect(b.draft.dirty).toBe(false);
		});

		it('keep a save conflict when another tab only opens the revision it is about', async () => {
			const chrome = browser();
			const a = page(chrome);
			await a.type('genericSmsSendUrl', 'https://mine.test/');
			const conflict = { path: URL_PATH, base: 'https://a.test/', secret: false };
			const refused = server([
				409,
				{ current: snapshot(2, withUrl('https://t.test/')), conflicts: [conflict] }
			]);
			expect(await a.draft.save('', refused.fetcher)).toBe(false);
			a.draft.choose(URL_PATH, 'mine');
			const b = page(chrome, 2, withUrl('https://t.test/'));
			await b.draft.restoreStored(b.drafts);
			await b.draft.store(b.drafts);
			await vi.waitFor(() => expect(a.draft.savedRevision).toBe(2));
			expect(a.draft.conflict).not.toBeNull();
			expect(a.draft.choices).toEqual({ [URL_PATH]: 'mine' });
			expect(a.draft.baseRevision).toBe(1);
		});
	});

	describe('kept for the tab as its page goes', () => {
		const CONTENT_TYPE = 'genericSmsSendContentType';

		/**
		 * Sets Send Message settings in `tab`'s page and leaves the page before anything it writes
		 * lands: what it typed is kept for the tab only.
		 */
		async function typeAndLeave(
			chrome: ReturnType<typeof browser>,
			tab: ReturnType<typeof page>,
			settings: Record<string, string>
		) {
			chrome.lose('never');
			for (const [key, value] of Object.entries(settings)) {
				tab.draft.setSetting('sendMessage', key, value);
			}
			tab.draft.leave(tab.drafts);
			await gone();
			chrome.lose(false);
		}

		it('gives the next page what was typed when the shared draft’s write did not land', async () => {
			const chrome = browser();
			const tab = sessionOf();
			const before = page(chrome, 1, withUrl('https://a.test/'), tab);
			await before.type('genericSmsSendUrl', 'https://shared.test/');
			await typeAndLeave(chrome, before, { [BODY]: 'typed just before the reload' });
			expect(chrome.stored.get('p1')?.document.services.sendMessage?.[BODY]).toBeUndefined();

			const after = page(chrome, 1, withUrl('https://a.test/'), tab);
			expect(await after.draft.restoreStored(after.drafts)).toBe(true);
			expect(after.draft.settingsOf('sendMessage')).toEqual({
				genericSmsSendUrl: 'https://shared.test/',
				[BODY]: 'typed just before the reload'
			});
			expect(after.draft.restored).toBe(true);
			expect(after.draft.otherTabConflict).toBeNull();
			// Taken once, and shared now.
			expect(tab.items.size).toBe(0);
			expect(chrome.stored.get('p1')?.document).toEqual(after.draft.document);
		});

		it('goes on from the page that kept it: that page’s write that landed unheard is not another tab’s', async () => {
			const chrome = browser();
			const tab = sessionOf();
			const before = page(chrome, 1, withUrl('https://a.test/'), tab);
			await before.type('genericSmsSendUrl', 'https://shared.test/');
			// A write lands, but the page goes before it hears so; what it typed next is not written.
			chrome.lose('unheard');
			before.draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://shared.test/more');
			void before.draft.store(before.drafts);
			await vi.waitFor(() => expect(chrome.writes).toHaveLength(2));
			await typeAndLeave(chrome, before, { genericSmsSendUrl: 'https://shared.test/most' });
			expect(chrome.stored.get('p1')?.document.services.sendMessage?.genericSmsSendUrl).toBe(
				'https://shared.test/more'
			);

			const after = page(chrome, 1, withUrl('https://a.test/'), tab);
			await after.draft.restoreStored(after.drafts);
			expect(after.draft.settingsOf('sendMessage').genericSmsSendUrl).toBe(
				'https://shared.test/most'
			);
			expect(after.draft.otherTabConflict).toBeNull();
			expect(chrome.stored.get('p1')?.document).toEqual(after.draft.document);
		});

		it('gives two windows that took the same kept draft names of their own', async () => {
			const chrome = browser();
			const tab = sessionOf();
			const before = page(chrome, 1, withUrl('https://a.test/'), tab);
			await typeAndLeave(chrome, before, { [BODY]: 'kept by the tab' });
			// A window opened from the tab gets a copy of its session storage.
			const copy = sessionOf();
			for (const [key, value] of tab.items) copy.setItem(key, value);
			const one = page(chrome, 1, withUrl('https://a.test/'), tab);
			const two = page(chrome, 1, withUrl('https://a.test/'), copy);
			await one.draft.restoreStored(one.drafts);
			await two.draft.restoreStored(two.drafts);
			expect(two.draft.settingsOf('sendMessage')[BODY]).toBe('kept by the tab');

			await two.type(CONTENT_TYPE, 'text/plain');
			await vi.waitFor(() =>
				expect(one.draft.settingsOf('sendMessage')[CONTENT_TYPE]).toBe('text/plain')
			);
			await one.type('genericSmsSendUrl', 'https://one.test/');
			await vi.waitFor(() =>
				expect(two.draft.settingsOf('sendMessage').genericSmsSendUrl).toBe('https://one.test/')
			);
			expect(chrome.stored.get('p1')?.document.services.sendMessage).toEqual({
				genericSmsSendUrl: 'https://one.test/',
				[BODY]: 'kept by the tab',
				[CONTENT_TYPE]: 'text/plain'
			});
		});

		it('takes what another tab wrote since, and keeps what the page kept', async () => {
			const chrome = browser();
			const tab = sessionOf();
			const before = page(chrome, 1, withUrl('https://a.test/'), tab);
			await before.type('genericSmsSendUrl', 'https://shared.test/');
			const other = page(chrome);
			await other.draft.restoreStored(other.drafts);
			await typeAndLeave(chrome, before, { [BODY]: 'kept by the tab' });
			await other.type(CONTENT_TYPE, 'text/plain');

			const after = page(chrome, 1, withUrl('https://a.test/'), tab);
			await after.draft.restoreStored(after.drafts);
			expect(after.draft.settingsOf('sendMessage')).toEqual({
				genericSmsSendUrl: 'https://shared.test/',
				[BODY]: 'kept by the tab',
				[CONTENT_TYPE]: 'text/plain'
			});
			expect(after.draft.otherTabConflict).toBeNull();
			await vi.waitFor(() =>
				expect(other.draft.settingsOf('sendMessage')[BODY]).toBe('kept by the tab')
			);
		});

		it('goes on top of a revision saved since', async () => {
			const chrome = browser();
			const tab = sessionOf();
			const before = page(chrome, 1, withUrl('https://a.test/'), tab);
			await typeAndLeave(chrome, before, { [BODY]: 'kept by the tab' });

			const after = page(chrome, 2, withUrl('https://saved.test/'), tab);
			await after.draft.restoreStored(after.drafts);
			expect(after.draft.settingsOf('sendMessage')).toEqual({
				genericSmsSendUrl: 'https://saved.test/',
				[BODY]: 'kept by the tab'
			});
			expect(after.draft.baseRevision).toBe(2);
		});

		it('merges what the page kept with what was typed in the next page before it was taken', async () => {
			const chrome = browser();
			const tab = sessionOf();
			const before = page(chrome, 1, withUrl('https://a.test/'), tab);
			await before.type('genericSmsSendUrl', 'https://shared.test/');
			await typeAndLeave(chrome, before, {
				[BODY]: 'kept by the tab',
				genericSmsSendUrl: 'https://kept.test/'
			});

			const after = page(chrome, 1, withUrl('https://a.test/'), tab);
			after.draft.setSetting('sendMessage', CONTENT_TYPE, 'text/plain');
			after.draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://typed.test/');
			await after.draft.restoreStored(after.drafts);
			expect(after.draft.settingsOf('sendMessage')).toEqual({
				genericSmsSendUrl: 'https://typed.test/',
				[BODY]: 'kept by the tab',
				[CONTENT_TYPE]: 'text/plain'
			});
		});

		it('keeps nothing when the shared draft holds the page’s draft, or when the tab’s storage is full', async () => {
			const chrome = browser();
			const tab = sessionOf(1000);
			const first = page(chrome, 1, withUrl('https://a.test/'), tab);
			await first.type('genericSmsSendUrl', 'https://shared.test/');
			first.draft.leave(first.drafts);
			expect(tab.items.size).toBe(0);

			const second = page(chrome, 1, withUrl('https://a.test/'), tab);
			await second.draft.restoreStored(second.drafts);
			second.draft.setSetting('sendMessage', BODY, 'x'.repeat(2000));
			second.draft.leave(second.drafts);
			expect(tab.items.size).toBe(0);
			// The shared draft is written as before.
			await vi.waitFor(() =>
				expect(chrome.stored.get('p1')?.document.services.sendMessage?.[BODY]).toBe(
					'x'.repeat(2000)
				)
			);
		});

		it('writes a big document once when the draft, its head and its synced copy share it', () => {
			const chrome = browser();
			const tab = sessionOf();
			const body = 'b'.repeat(100_000);
			const before = page(
				chrome,
				1,
				{ ...withUrl('https://a.test/'), services: { sendMessage: { [BODY]: body } } },
				tab
			);
			before.draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://typed.test/');
			chrome.lose('never');
			before.draft.leave(before.drafts);
			const [text] = [...tab.items.values()];
			expect(text.length).toBeGreaterThan(2 * body.length);
			expect(text.length).toBeLessThan(2 * body.length + 2000);
		});

		it('gives a page of any tab what a closed tab typed last when its write did not land', async () => {
			const chrome = browser();
			const closed = page(chrome);
			await closed.type('genericSmsSendUrl', 'https://shared.test/');
			const other = page(chrome);
			await other.draft.restoreStored(other.drafts);
			await typeAndLeave(chrome, closed, { [BODY]: 'typed just before closing' });
			expect(chrome.local.items.size).toBe(1);
			await other.type(CONTENT_TYPE, 'text/plain');

			// A new tab: its session storage holds nothing of the closed one.
			const next = page(chrome);
			expect(await next.draft.restoreStored(next.drafts)).toBe(true);
			expect(next.draft.settingsOf('sendMessage')).toEqual({
				genericSmsSendUrl: 'https://shared.test/',
				[BODY]: 'typed just before closing',
				[CONTENT_TYPE]: 'text/plain'
			});
			expect(next.draft.otherTabConflict).toBeNull();
			// Taken once, and shared now: the tab still open follows.
			expect(chrome.local.items.size).toBe(0);
			expect(chrome.stored.get('p1')?.document).toEqual(next.draft.document);
			await vi.waitFor(() =>
				expect(other.draft.settingsOf('sendMessage')[BODY]).toBe('typed just before closing')
			);
		});

		it('writes the draft at once as the page is hidden, and forgets the copy once it lands', async () => {
			const chrome = browser();
			const hidden = page(chrome);
			await hidden.type('genericSmsSendUrl', 'https://shared.test/');
			hidden.draft.setSetting('sendMessage', BODY, 'typed just before hiding');
			await hidden.draft.hide(hidden.drafts);
			expect(chrome.stored.get('p1')?.document.services.sendMessage?.[BODY]).toBe(
				'typed just before hiding'
			);
			expect(chrome.local.items.size).toBe(0);

			// Hidden while no write lands: the copy stays for the next page, until one lands.
			chrome.lose('never');
			hidden.draft.setSetting('sendMessage', BODY, 'typed while the write is lost');
			void hidden.draft.hide(hidden.drafts);
			await gone();
			expect(chrome.local.items.size).toBe(1);
			chrome.lose(false);
			hidden.draft.setSetting('sendMessage', BODY, 'typed once it is back');
			await hidden.draft.store(hidden.drafts);
			expect(chrome.local.items.size).toBe(0);
		});

		it('does not take back another tab’s older draft after a write of its own failed', async () => {
			const chrome = browser();
			const mine = page(chrome);
			await mine.type('genericSmsSendUrl', 'https://shared.test/');
			const other = page(chrome);
			await other.draft.restoreStored(other.drafts);
			chrome.lose('abort');
			mine.draft.setSetting('sendMessage', BODY, 'typed while the storage was full');
			await expect(mine.draft.store(mine.drafts)).rejects.toThrow();
			chrome.lose(false);

			await other.type(CONTENT_TYPE, 'text/plain');
			await vi.waitFor(() =>
				expect(mine.draft.settingsOf('sendMessage')[CONTENT_TYPE]).toBe('text/plain')
			);
			expect(mine.draft.settingsOf('sendMessage')[BODY]).toBe('typed while the storage was full');
		});
	});

	it('keeps what was typed while a save was on its way as a change on top of it', async () => {
		const draft = new ProfileDraft(snapshot(1, withUrl('https://a.test/')));
		draft.setSetting('sendMessage', 'genericSmsSendUrl', 'https://b.test/');
		let answer: ((response: Response) => void) | undefined;
		const fetcher = (() => new Promise<Response>((resolve) => (answer = resolve))) as typeof fetch;
		const saving = draft.save('', fetcher);
		await vi.waitFor(() => expect(answer).toBeDefined());
		draft.setSetting('sendMessage', BODY, 'typed during the save');
		answer!(
			new Response(JSON.stringify({ profile: snapshot(2, withUrl('https://b.test/')) }), {
				status: 200
			})
		);
		expect(await saving).toBe(true);
		expect(draft.baseRevision).toBe(2);
		expect(draft.settingsOf('sendMessage')).toEqual({
			genericSmsSendUrl: 'https://b.test/',
			[BODY]: 'typed during the save'
		});
		expect(draft.dirty).toBe(true);
	});
});
