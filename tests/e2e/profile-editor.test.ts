import type { Page } from '@playwright/test';
import { createProfile, expect, expectAccessible, holdChunk, test, uniqueName } from './fixtures';

/** A setting of Send Message (its URL) in the draft of `profile` kept in the page's browser. */
function storedUrl(page: Page, profile: string, key = 'genericSmsSendUrl'): Promise<string | null> {
	return page.evaluate(
		([id, key]) =>
			new Promise<string | null>((resolve) => {
				const opened = indexedDB.open('provisioning-studio', 1);
				// Not made yet: the page makes it with its first draft, not this probe.
				opened.onupgradeneeded = () => opened.transaction!.abort();
				opened.onsuccess = () => {
					const read = opened.result.transaction('drafts').objectStore('drafts').get(id);
					read.onsuccess = () => resolve(read.result?.document.services.sendMessage?.[key] ?? null);
					read.onerror = () => resolve(null);
				};
				opened.onerror = () => resolve(null);
			}),
		[profile, key]
	);
}

test.describe('profile editor', () => {
	test('saves with Ctrl+S, keeps a draft across reloads, and merges a save made meanwhile', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Editor'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		await expect(page.getByText('revision 1')).toBeVisible();

		const url = page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		await url.click();
		await page.keyboard.type('https://sms.example.com/send?to=');
		await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
		// The draft is kept 300 ms after the last key (and, best effort, as the page goes): what is
		// tested is that a kept draft comes back, so the reload waits until it is kept.
		await expect.poll(() => storedUrl(page, id)).toBe('https://sms.example.com/send?to=');

		await page.reload();
		await expect(url).toHaveText('https://sms.example.com/send?to=');
		await expect(page.getByText('draft restored from this browser')).toBeVisible();

		await url.click();
		await page.keyboard.press('End');
		await page.keyboard.type('%sms_to%');
		await page.keyboard.press('Escape');
		await page.keyboard.press('Control+s');
		await expect(page.getByText('revision 2')).toBeVisible();
		await expect(page.getByText('Unsaved changes')).toHaveCount(0);

		// Someone else saves revision 3 while this page still edits on top of 2.
		const head = await (await page.request.get(`/api/profiles/${id}`)).json();
		const other = structuredClone(head.profile.document);
		other.services.sendMessage.genericSmsSendContentType = 'application/json';
		const saved = await page.request.put(`/api/profiles/${id}`, {
			data: { baseRevision: 2, document: other },
			headers: { origin: new URL(page.url()).origin }
		});
		expect(saved.status()).toBe(200);

		await url.click();
		await page.keyboard.press('End');
		await page.keyboard.type('&x=1');
		await page.getByRole('button', { name: 'Save', exact: true }).click();
		// Their content type and my URL are different fields: the save merges them.
		await expect(page.getByText('revision 4')).toBeVisible();
		await expect(
			page.getByRole('status').filter({ hasText: 'Merged with a save made meanwhile' })
		).toContainText('Send Message · Content type');
		await expect(page.getByRole('region', { name: /was saved by/ })).toHaveCount(0);
		const merged = await (await page.request.get(`/api/profiles/${id}`)).json();
		expect(merged.profile.document.services.sendMessage.genericSmsSendContentType).toBe(
			'application/json'
		);

		await page.reload();
		await expect(url).toHaveText('https://sms.example.com/send?to=%sms_to%&x=1');

		// Ctrl+S with nothing unsaved sends nothing: the next save is the only one.
		const saves: string[] = [];
		page.on('request', (r) => r.method() === 'PUT' && saves.push(r.url()));
		await url.click();
		await page.keyboard.press('Control+s');
		await page.keyboard.press('End');
		await page.keyboard.type('&y=2');
		await page.keyboard.press('Escape');
		await page.keyboard.press('Control+s');
		await expect(page.getByText('revision 5')).toBeVisible();
		await expect(page.getByText('Unsaved changes')).toHaveCount(0);
		expect(saves).toHaveLength(1);
	});

	test('a page left right after its first keys keeps what was typed before the code that shares drafts is there', async ({
		page
	}) => {
		// The code that saves and shares drafts (it alone reads a writer's `former` name) is held
		// back: the page goes before it has loaded, as one left at once after typing may.
		const release = await holdChunk(page, '.former');
		const id = await createProfile(page, uniqueName('Early leave'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		const url = page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		await url.click();
		await page.keyboard.type('https://sms.example.com/');
		await expect(page.getByText('Unsaved changes')).toBeVisible();
		await page.reload();
		// The next page takes it back once that code is there.
		release();
		await expect(url).toHaveText('https://sms.example.com/');
		await expect(page.getByText('draft restored from this browser')).toBeVisible();
	});

	test('a reload keeps what was typed even when the browser’s draft store did not take it', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Reload'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		const url = page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		await url.click();
		await page.keyboard.type('https://sms.example.com/');
		await expect.poll(() => storedUrl(page, id)).toBe('https://sms.example.com/');

		// From now on no draft write lands in this page (a store that is full, or a page gone
		// before its write is done): what follows is kept only as the page goes.
		await page.evaluate(() => {
			IDBObjectStore.prototype.put = () => {
				throw new DOMException('The store is full.', 'QuotaExceededError');
			};
		});
		await page.keyboard.type('send?to=%sms_to%');
		await expect(page.getByText('Unsaved changes')).toBeVisible();
		await page.reload();
		await expect(url).toHaveText('https://sms.example.com/send?to=%sms_to%');
		await expect(page.getByText('draft restored from this browser')).toBeVisible();
		// Shared again from the page that took it back, and kept once only.
		await expect.poll(() => storedUrl(page, id)).toBe('https://sms.example.com/send?to=%sms_to%');
		expect(
			await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.includes(':draft:')))
		).toEqual([]);
	});

	test('a tab closed or left at once after its last key keeps it for the next page of any tab', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Closed at once'));
		const address = `/profiles/${id}/services/sendMessage`;
		const urlIn = (p: Page) => p.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		const context = page.context();
		const closed = await context.newPage();
		await closed.goto(address);
		await urlIn(closed).click();
		await closed.keyboard.type('https://sms.example.com/');
		// Shared once: the code that shares drafts is there.
		await expect.poll(() => storedUrl(closed, id)).toBe('https://sms.example.com/');
		await closed.keyboard.type('send');
		await expect(urlIn(closed)).toHaveText('https://sms.example.com/send');
		await closed.close();

		const next = await context.newPage();
		await next.goto(address);
		await expect(urlIn(next)).toHaveText('https://sms.example.com/send');

		// No draft write lands from now on in this page (one gone before its write is done): its
		// last keys reach a new tab all the same.
		await expect.poll(() => storedUrl(next, id)).toBe('https://sms.example.com/send');
		await next.evaluate(() => {
			IDBObjectStore.prototype.put = () => {
				throw new DOMException('The store is full.', 'QuotaExceededError');
			};
		});
		await urlIn(next).click();
		await next.keyboard.press('End');
		await next.keyboard.type('?to=%sms_to%');
		await expect(urlIn(next)).toHaveText('https://sms.example.com/send?to=%sms_to%');
		await next.goto('about:blank');

		const last = await context.newPage();
		await last.goto(address);
		await expect(urlIn(last)).toHaveText('https://sms.example.com/send?to=%sms_to%');
		// Shared again from the page that took it, and kept in the browser once only.
		await expect.poll(() => storedUrl(last, id)).toBe('https://sms.example.com/send?to=%sms_to%');
		expect(
			await last.evaluate(() => Object.keys(localStorage).filter((k) => k.includes(':left:')))
		).toEqual([]);
		await next.close();
		await last.close();
	});

	test('two tabs of a browser share the draft: each takes what the other types, and follows its save', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Two tabs'));
		const address = `/profiles/${id}/services/sendMessage`;
		const urlIn = (p: Page) => p.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		const bodyIn = (p: Page) =>
			p.getByRole('textbox', { name: 'Post data (genericSmsSendPostData)' });
		const noteIn = (p: Page) =>
			p.getByRole('status').filter({ hasText: 'Took changes made in another tab' });

		// A tab opened on a kept draft starts from it.
		await page.goto(address);
		await urlIn(page).click();
		await page.keyboard.type('https://sms.example.com/send');
		await expect.poll(() => storedUrl(page, id)).toBe('https://sms.example.com/send');
		const other = await page.context().newPage();
		await other.goto(address);
		await expect(urlIn(other)).toHaveText('https://sms.example.com/send');
		await expect(other.getByText('draft restored from this browser')).toBeVisible();

		// Typed in the second tab: the first shows it without a reload, and says where it came from.
		await bodyIn(other).click();
		await other.keyboard.type('to=%sms_to%');
		await expect(bodyIn(page)).toHaveText('to=%sms_to%');
		await expect(noteIn(page)).toContainText('Send Message · Post data');

		// Typed in the first tab meanwhile: the second takes it, and keeps its own body. Its note
		// does not cover the body being typed in, low on the screen.
		const caretIn = (p: Page) =>
			p.evaluate(() => getSelection()!.getRangeAt(0).getBoundingClientRect().toJSON() as DOMRect);
		const low = await caretIn(other);
		const viewport = other.viewportSize()!;
		await other.evaluate((by) => window.scrollBy(0, by), low.bottom - viewport.height * 0.95);
		await urlIn(page).click();
		await page.keyboard.press('End');
		await page.keyboard.type('?x=1');
		await expect(urlIn(other)).toHaveText('https://sms.example.com/send?x=1');
		await expect(noteIn(other)).toContainText('Send Message · URL');
		const caret = await caretIn(other);
		expect(caret.bottom).toBeGreaterThan(viewport.height / 2);
		const note = (await other
			.getByText('Took changes made in another tab')
			.locator('..')
			.boundingBox())!;
		expect(caret.bottom <= note.y || caret.top >= note.y + note.height).toBe(true);
		await expect(bodyIn(other)).toHaveText('to=%sms_to%');
		await expect(other.getByText('Unsaved changes')).toBeVisible();

		// A reload of either brings both back.
		await other.reload();
		await expect(urlIn(other)).toHaveText('https://sms.example.com/send?x=1');
		await expect(bodyIn(other)).toHaveText('to=%sms_to%');

		// Saved in the first tab: the second follows, with nothing left unsaved.
		await page.keyboard.press('Control+s');
		await expect(page.getByText('revision 2')).toBeVisible();
		await expect(other.getByText('revision 2', { exact: true })).toBeVisible();
		await expect(other.getByRole('status').filter({ hasText: 'was saved meanwhile' })).toHaveText(
			/Revision 2 was saved meanwhile: this tab is on it now, as another tab is\./
		);
		await expect(other.getByText('Unsaved changes')).toHaveCount(0);
		const saved = await (await page.request.get(`/api/profiles/${id}`)).json();
		expect(saved.profile.document.services.sendMessage).toMatchObject({
			genericSmsSendUrl: 'https://sms.example.com/send?x=1',
			genericSmsSendPostData: 'to=%sms_to%'
		});
		await other.close();
	});

	test('a field two tabs changed before either heard of the other keeps this tab’s value, says so, and can take the other’s', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Same field'));
		const address = `/profiles/${id}/services/sendMessage`;
		const other = await page.context().newPage();
		// The second tab does not hear of the first one's draft (as when both keep theirs at the
		// same moment): it finds it when it keeps its own, with its own value by then.
		await other.addInitScript(() => {
			const set = Object.getOwnPropertyDescriptor(BroadcastChannel.prototype, 'onmessage')!.set!;
			Object.defineProperty(BroadcastChannel.prototype, 'onmessage', {
				set(this: BroadcastChannel) {
					set.call(this, null);
				}
			});
		});
		for (const tab of [page, other]) {
			await tab.goto(address);
			await expect(tab.getByText('revision 1', { exact: true })).toBeVisible();
		}
		const urlIn = (p: Page) => p.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		// The second tab keeps a draft first (its body), so it has read the shared draft already.
		await other.getByRole('textbox', { name: 'Post data (genericSmsSendPostData)' }).click();
		await other.keyboard.type('to=%sms_to%');
		await expect.poll(() => storedUrl(other, id, 'genericSmsSendPostData')).toBe('to=%sms_to%');
		await urlIn(page).click();
		await page.keyboard.type('https://first.example.com/');
		await expect.poll(() => storedUrl(other, id)).toBe('https://first.example.com/');
		await urlIn(other).click();
		await other.keyboard.type('https://second.example.com/');

		const conflict = other.getByRole('alert').filter({ hasText: 'Another tab of this browser' });
		await expect(conflict).toContainText(
			'Send Message · URL: the other tab has https://first.example.com/'
		);
		await expect(urlIn(other)).toHaveText('https://second.example.com/');
		// The second tab's value is kept, and the first tab takes it, with an undo.
		await expect(urlIn(page)).toHaveText('https://second.example.com/');
		const took = page.getByRole('status').filter({ hasText: 'Took changes made in another tab' });
		await expect(took).toContainText('Send Message · URL');
		await took.getByRole('button', { name: 'Undo' }).focus();
		await page.keyboard.press('Enter');
		await expect(urlIn(page)).toHaveText('https://first.example.com/');
		await expect(took).toHaveCount(0);
		await expect.poll(() => storedUrl(page, id)).toBe('https://first.example.com/');

		// The second tab takes the first one's value when asked.
		await conflict.getByRole('button', { name: "Use the other tab's" }).click();
		await expect(conflict).toHaveCount(0);
		await expect(urlIn(other)).toHaveText('https://first.example.com/');
		await other.reload();
		await expect(urlIn(other)).toHaveText('https://first.example.com/');
		await expect(other.getByText('Unsaved changes')).toBeVisible();
		await other.close();
	});

	test('shows every service with a status mark and has no accessibility violations', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Marks'));
		await page.goto(`/profiles/${id}/services/invitationAccepted`);
		const nav = page.getByRole('navigation', { name: 'Services of this profile' });
		// The contract's eight template services, the seven beyond it, and the push settings.
		await expect(nav.getByRole('link')).toHaveCount(16);
		await expect(nav.getByRole('link').last()).toHaveText('Push settings');
		await expect(nav.getByRole('link', { name: 'Invitation Accepted' })).toHaveAttribute(
			'aria-current',
			'page'
		);
		await expectAccessible(page);
	});
	test('a key repaints the preview apart from the page, and leaves the services list as drawn', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Contained'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		const styleOf = (selector: string) =>
			page.locator(selector).evaluate((element) => {
				const style = getComputedStyle(element);
				return { contain: style.contain, isolation: style.isolation };
			});
		expect((await styleOf('section[aria-label="Request preview"]')).contain).toMatch(
			/layout.*paint|paint.*layout/
		);
		expect(await styleOf('nav[aria-label="Services of this profile"]')).toEqual({
			contain: 'layout',
			isolation: 'isolate'
		});
	});

	test('a body starter that replaces a typed body and content type says so, and Undo puts both back', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Starter'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		const body = page.getByRole('textbox', { name: 'Post data (genericSmsSendPostData)' });
		const contentType = page.locator('#ct-genericSmsSendContentType');
		await body.click();
		await page.keyboard.type('text=%sms_body%');
		await page.keyboard.press('Escape');
		await contentType.fill('text/x-mine');

		await page.getByRole('button', { name: 'XML body' }).click();
		await expect(contentType).toHaveValue('application/xml');
		await expect(body).not.toHaveText('text=%sms_body%');
		const said = page.getByRole('status').filter({ hasText: 'Replaced the body' });
		await expect(said).toHaveText(
			'Replaced the body and the content type (text/x-mine) with an XML body. Undo'
		);
		await said.getByRole('button', { name: 'Undo' }).press('Enter');
		await expect(body).toHaveText('text=%sms_body%');
		await expect(contentType).toHaveValue('text/x-mine');
		await expect(said).toHaveCount(0);

		// Into an empty body, nothing is replaced: nothing to undo, nothing said.
		await body.click();
		await page.keyboard.press('Control+a');
		await page.keyboard.press('Delete');
		await contentType.fill('');
		await page.getByRole('button', { name: 'JSON body' }).click();
		await expect(contentType).toHaveValue('application/json');
		await expect(page.getByRole('status').filter({ hasText: 'Replaced the body' })).toHaveCount(0);
	});
});
