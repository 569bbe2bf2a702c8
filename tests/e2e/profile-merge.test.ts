import type { Page } from '@playwright/test';
import { createProfile, expect, expectAccessible, test, uniqueName } from './fixtures';

/**
 * Nothing lost: two browsers editing one profile (their saves merge field by field, and only a
 * field both changed asks for a choice), discarding a draft asks first, switching profiles
 * creates no draft, and single-line fields stay single-line.
 */

const URL_FIELD = 'URL (genericSmsSendUrl)';
const BODY_FIELD = 'Post data (genericSmsSendPostData)';
/** The URL field in the screens' words. */
const URL_LABEL = 'Send Message · URL';

/** Types `text` at the end of a template field. */
async function typeAtEnd(page: Page, field: string, text: string) {
	await page.getByRole('textbox', { name: field }).click();
	await page.keyboard.press('Control+End');
	await page.keyboard.type(text);
	await page.keyboard.press('Escape');
}

async function saveAndWait(page: Page, revision: number) {
	await page.getByRole('button', { name: 'Save', exact: true }).click();
	await expect(page.getByText(`revision ${revision}`, { exact: true })).toBeVisible();
}

async function headDocument(page: Page, id: string) {
	const answer = await (await page.request.get(`/api/profiles/${id}`)).json();
	return answer.profile;
}

test.describe('two people editing one profile', () => {
	test('merge different fields on their own, and ask only about the field both changed', async ({
		page,
		browser,
		adminState,
		baseURL
	}) => {
		const id = await createProfile(page, uniqueName('Merge'));
		const editorPath = `/profiles/${id}/services/sendMessage`;
		await page.goto(editorPath);
		await typeAtEnd(page, URL_FIELD, 'https://sms.example.com/send?to=%sms_to%');
		await typeAtEnd(page, BODY_FIELD, 'text=%sms_body%');
		await saveAndWait(page, 2);

		// B: another browser (its own drafts), opened on revision 2.
		const other = await browser.newContext({
			storageState: adminState,
			baseURL
		});
		const b = await other.newPage();
		await b.goto(editorPath);
		await expect(b.getByText('revision 2', { exact: true })).toBeVisible();

		// A changes the URL and saves; B changed only the body, and saves after.
		await typeAtEnd(page, URL_FIELD, '&from=a');
		await saveAndWait(page, 3);
		await typeAtEnd(b, BODY_FIELD, '&sig=b');
		await saveAndWait(b, 4);
		await expect(
			b.getByRole('status').filter({ hasText: 'Merged with a save made meanwhile' })
		).toContainText(URL_LABEL);
		await expect(b.getByRole('region', { name: /was saved by/ })).toHaveCount(0);
		// B's editor shows A's URL, which it never typed.
		await expect(b.getByRole('textbox', { name: URL_FIELD })).toHaveText(
			'https://sms.example.com/send?to=%sms_to%&from=a'
		);
		let head = await headDocument(page, id);
		expect(head.revision).toBe(4);
		expect(head.document.services.sendMessage).toMatchObject({
			genericSmsSendUrl: 'https://sms.example.com/send?to=%sms_to%&from=a',
			genericSmsSendPostData: 'text=%sms_body%&sig=b'
		});

		// Now both change the URL; B also changes the body again.
		await page.reload();
		await expect(page.getByText('revision 4', { exact: true })).toBeVisible();
		await typeAtEnd(page, URL_FIELD, '&by=a');
		await saveAndWait(page, 5);
		await typeAtEnd(b, URL_FIELD, '&by=b');
		await typeAtEnd(b, BODY_FIELD, '&again=b');
		await b.getByRole('button', { name: 'Save', exact: true }).click();

		const conflict = b.getByRole('region', { name: /Revision 5 was saved by/ });
		await expect(conflict).toBeVisible();
		await expect(conflict).toContainText('you both changed one field');
		const fields = conflict.getByRole('group');
		await expect(fields).toHaveCount(1);
		await expect(fields.first()).toContainText(URL_LABEL);
		await expect(fields.first()).toContainText('&from=a&by=b');
		await expect(fields.first()).toContainText('&from=a&by=a');
		const saveChoices = conflict.getByRole('button', { name: 'Save with these choices' });
		await expect(saveChoices).toBeDisabled();
		await expectAccessible(b);
		// Nothing was written meanwhile, and B's draft is intact.
		expect((await headDocument(page, id)).revision).toBe(5);
		await expect(b.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();

		await fields
			.first()
			.getByRole('radio', { name: /Take theirs/ })
			.check();
		await saveChoices.click();
		await expect(b.getByText('revision 6', { exact: true })).toBeVisible();
		await expect(conflict).toHaveCount(0);
		await expect(b.getByRole('textbox', { name: URL_FIELD })).toHaveText(
			'https://sms.example.com/send?to=%sms_to%&from=a&by=a'
		);
		head = await headDocument(page, id);
		expect(head.revision).toBe(6);
		expect(head.document.services.sendMessage).toMatchObject({
			genericSmsSendUrl: 'https://sms.example.com/send?to=%sms_to%&from=a&by=a',
			genericSmsSendPostData: 'text=%sms_body%&sig=b&again=b'
		});
		await other.close();
	});
});

test.describe('drafts', () => {
	test('discarding is undone from a banner, by keyboard, exactly; apart from Save', async ({
		page
	}) => {
		// A long journey typed key by key (two drafts, two discards, a save): on a busy machine it
		// takes longer than the default half minute.
		test.slow();
		const id = await createProfile(page, uniqueName('Discard'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		const url = page.getByRole('textbox', { name: URL_FIELD });
		const body = page.getByRole('textbox', { name: BODY_FIELD });
		await typeAtEnd(page, URL_FIELD, 'https://kept.example/?to=%sms_to%');
		await body.click();
		await page.keyboard.press('Control+End');
		await page.keyboard.insertText('{\n\t"text": "%sms_body%",\n\t"note": "déjà vu ✓"\n}');
		await page.keyboard.press('Escape');
		const typedBody = await body.innerText();
		expect(typedBody).toContain('déjà vu ✓');
		const unsaved = page.getByRole('status').filter({ hasText: 'Unsaved changes' });
		await expect(unsaved).toBeVisible();
		const discard = page.getByRole('button', { name: 'Discard draft' });
		// Not in the save form, beside Save.
		await expect(page.locator('form.save').getByRole('button', { name: /Discard/ })).toHaveCount(0);

		// At once, with a banner that says what went, announced, its Undo in the keyboard's reach.
		await discard.click();
		await expect(url).toHaveText('');
		await expect(unsaved).toHaveCount(0);
		const banner = page.getByRole('status').filter({ hasText: 'Draft discarded' });
		await expect(banner).toHaveAttribute('aria-live', 'polite');
		await expect(banner).toContainText('Draft discarded: 2 changed fields in Send Message.');
		const undo = banner.getByRole('button', { name: 'Undo' });
		await expect(undo).toBeFocused();
		for (const scheme of ['light', 'dark'] as const) {
			await page.emulateMedia({ colorScheme: scheme });
			await expectAccessible(page);
		}
		await page.keyboard.press('Enter');
		await expect(banner).toHaveCount(0);
		await expect(url).toHaveText('https://kept.example/?to=%sms_to%');
		expect(await body.innerText()).toBe(typedBody);
		await expect(unsaved).toBeVisible();
		await expect(discard).toBeFocused();
		// Given back to the browser's storage too: a reload finds it, exactly.
		await page.reload();
		await expect(page.getByText('draft restored from this browser')).toBeVisible();
		await expect(url).toHaveText('https://kept.example/?to=%sms_to%');
		expect(await body.innerText()).toBe(typedBody);

		// On a phone too, inside the screen; Escape closes it and the focus stays in the bar.
		await page.setViewportSize({ width: 390, height: 800 });
		await discard.click();
		await expect(undo).toBeFocused();
		const place = await banner.locator('.undo').boundingBox();
		expect(place!.x).toBeGreaterThanOrEqual(0);
		expect(place!.x + place!.width).toBeLessThanOrEqual(390);
		expect(place!.y + place!.height).toBeLessThanOrEqual(800);
		await page.keyboard.press('Escape');
		await expect(banner).toHaveCount(0);
		await expect(page.getByRole('button', { name: 'Revisions' })).toBeFocused();
		await expect(url).toHaveText('');

		// Left alone, the offer goes after a while, and the draft is gone for good.
		await typeAtEnd(page, URL_FIELD, 'https://dropped.example/');
		await discard.click();
		await expect(undo).toBeFocused();
		await page.locator('h1').click();
		await expect(banner).toHaveCount(0, { timeout: 20_000 });
		await page.reload();
		await expect(url).toBeVisible();
		await expect(page.getByText('draft restored from this browser')).toHaveCount(0);
		await expect(url).toHaveText('');

		// A new edit while it is offered ends the offer: nothing comes back over it.
		await typeAtEnd(page, URL_FIELD, 'https://first.example/');
		await discard.click();
		await expect(undo).toBeVisible();
		await typeAtEnd(page, URL_FIELD, 'https://second.example/');
		await expect(banner).toHaveCount(0);
		await expect(url).toHaveText('https://second.example/');
	});

	test('switching profiles creates no draft, and arrow keys wait for Enter', async ({ page }) => {
		const first = await createProfile(page, uniqueName('Switch from'));
		const second = await createProfile(page, uniqueName('Switch to'));
		await page.goto(`/profiles/${first}/services/sendMessage`);
		await typeAtEnd(page, URL_FIELD, 'https://first.example/');
		await saveAndWait(page, 2);

		const switcher = page.getByRole('combobox', { name: 'Profile' });
		await switcher.selectOption(second);
		await expect(page).toHaveURL(new RegExp(`/profiles/${second}/services/sendMessage$`));
		await expect(page.getByRole('textbox', { name: URL_FIELD })).toHaveText('');
		await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toHaveCount(0);
		await page.reload();
		await expect(page.getByRole('textbox', { name: URL_FIELD })).toBeVisible();
		await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toHaveCount(0);

		// With the keyboard, the choice moves but nothing opens until Enter.
		await switcher.focus();
		const before = await switcher.inputValue();
		await page.keyboard.press('ArrowUp');
		const chosen = await switcher.inputValue();
		expect(chosen).not.toBe(before);
		await expect(page).toHaveURL(new RegExp(`/profiles/${second}/`));
		await expect(page.getByRole('button', { name: 'Open', exact: true })).toBeVisible();
		await page.keyboard.press('Enter');
		await expect(page).toHaveURL(new RegExp(`/profiles/${chosen}/services/sendMessage$`));
		await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toHaveCount(0);
	});

	test('saving with errors says so, with a way to the first one', async ({ page }) => {
		const id = await createProfile(page, uniqueName('Errors'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		await typeAtEnd(page, URL_FIELD, 'ftp://x.example/');
		await saveAndWait(page, 2);
		const note = page.getByRole('status').filter({ hasText: 'Saved with 1 error' });
		await expect(note).toBeVisible();
		await page.getByRole('textbox', { name: 'Message' }).focus();
		await note.getByRole('link', { name: /go to the first/ }).click();
		await expect(page.getByRole('textbox', { name: URL_FIELD })).toBeFocused();

		// Saved from another service, the link leads to the service with the error.
		await page.goto(`/profiles/${id}/services/extSSOProv`);
		await typeAtEnd(
			page,
			'Initial provisioning URL (initialProvisioningUrl)',
			'https://p.example/'
		);
		await saveAndWait(page, 3);
		const again = page.getByRole('status').filter({ hasText: 'Saved with 1 error' });
		await again.getByRole('link', { name: 'go to the first (Send Message)' }).click();
		await expect(page).toHaveURL(new RegExp(`/profiles/${id}/services/sendMessage$`));
		await expect(page.getByRole('textbox', { name: URL_FIELD })).toBeFocused();
	});
});

test.describe('single-line fields', () => {
	test('take no line break, say what a paste lost, and complete %account[ cleanly', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Single line'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		const url = page.getByRole('textbox', { name: URL_FIELD });
		await url.click();
		await page.keyboard.type('https://x.example/?u=');
		await page.keyboard.press('Enter');
		await expect(url).toHaveText('https://x.example/?u=');
		await expect(url.locator('.cm-line')).toHaveCount(1);

		await page.keyboard.type('%account[user');
		await expect(page.getByRole('listbox').getByRole('option').first()).toContainText(
			'%account[username]%'
		);
		// Completion takes Enter once its list has been open a moment; before, Enter does nothing.
		await expect(async () => {
			await page.keyboard.press('Enter');
			await expect(url).toHaveText('https://x.example/?u=%account[username]%', { timeout: 250 });
		}).toPass();

		await url.evaluate((element) => {
			const data = new DataTransfer();
			data.setData('text/plain', '&a=1\n&b=2\r\n&c=3');
			element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
		});
		await expect(url).toHaveText('https://x.example/?u=%account[username]%&a=1&b=2&c=3');
		await expect(
			page.getByRole('status').filter({ hasText: '2 line breaks were removed' })
		).toBeVisible();
	});
});
