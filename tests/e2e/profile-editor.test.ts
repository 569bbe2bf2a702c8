import AxeBuilder from '@axe-core/playwright';
import { createProfile, expect, test, uniqueName } from './fixtures';

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
		await expect
			.poll(() =>
				page.evaluate(
					(profile) =>
						new Promise<boolean>((resolve) => {
							const opened = indexedDB.open('provisioning-studio', 1);
							// Not made yet: the page makes it with its first draft, not this probe.
							opened.onupgradeneeded = () => opened.transaction!.abort();
							opened.onsuccess = () => {
								const read = opened.result.transaction('drafts').objectStore('drafts').get(profile);
								read.onsuccess = () => resolve(read.result !== undefined);
								read.onerror = () => resolve(false);
							};
							opened.onerror = () => resolve(false);
						}),
					id
				)
			)
			.toBe(true);

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
	});

	test('shows every service with a status mark and has no accessibility violations', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Marks'));
		await page.goto(`/profiles/${id}/services/invitationAccepted`);
		const nav = page.getByRole('navigation', { name: 'Services of this profile' });
		// The eight template services, and the push settings beside them.
		await expect(nav.getByRole('link')).toHaveCount(9);
		await expect(nav.getByRole('link').last()).toHaveText('Push settings');
		await expect(nav.getByRole('link', { name: 'Invitation Accepted' })).toHaveAttribute(
			'aria-current',
			'page'
		);
		const results = await new AxeBuilder({ page }).analyze();
		expect(
			results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)
		).toEqual([]);
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
