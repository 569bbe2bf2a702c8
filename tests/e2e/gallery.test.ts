import type { Page } from '@playwright/test';
import {
	createProfile,
	createSink,
	holdChunk,
	expect,
	expectAccessible,
	test,
	uniqueName
} from './fixtures';

/** The gallery on a service's editor page: read, preview, apply into the draft, undo. */

async function openGallery(page: Page, id: string, service = 'sendMessage') {
	await page.goto(`/profiles/${id}/services/${service}`);
	const gallery = page.locator('details.gallery');
	// The editor is ready (hydrated) once its first field is editable.
	await expect(
		page.getByRole('textbox', { name: /\(genericSmsSendUrl\)|\(pushTokenReporterUrl\)/ })
	).toBeVisible();
	await gallery.locator('summary').click();
	await expect(gallery).toHaveAttribute('open', '');
	return gallery;
}

test.describe('the gallery in the editor', () => {
	test('by keyboard: read a template, see what it changes, apply it to the draft, undo it', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Gallery'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		await expect(page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' })).toBeVisible();
		const summary = page.locator('details.gallery > summary');
		await expect(summary).toHaveText(/^Gallery: 7 real-world\s+templates for Send Message$/);
		await summary.focus();
		await page.keyboard.press('Enter');
		const gallery = page.locator('details.gallery');
		await expect(gallery).toHaveAttribute('open', '');

		await gallery
			.getByRole('button', { name: 'An error flag in the body, always HTTP 200' })
			.focus();
		await page.keyboard.press('Enter');
		const detail = gallery.getByRole('region', { name: 'An error flag in the body' });
		await expect(detail).toContainText('"error": 1');
		// The platform's reading, with the shape it matched and its warning.
		await expect(detail.getByRole('region', { name: 'What the caller does' })).toContainText(
			'Success'
		);
		await expect(detail).toContainText('Misread by the platform');
		// The preview names what applying would add.
		const table = detail.getByRole('list', { name: 'Changes applying makes' });
		await expect(table).toContainText('Send Message · URL');
		await expect(table).toContainText('https://voip.example.com/api/v1/sms');
		await expect(page.getByText('● Unsaved changes')).toHaveCount(0);

		await detail.getByRole('button', { name: 'Apply to the draft' }).focus();
		await page.keyboard.press('Enter');
		const url = page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		await expect(url).toHaveText('https://voip.example.com/api/v1/sms');
		await expect(page.getByText('● Unsaved changes')).toBeVisible();
		await expect(gallery.getByRole('status')).toContainText('Applied');
		// Focus is on Undo: Enter takes it back.
		await expect(gallery.getByRole('button', { name: 'Undo' })).toBeFocused();
		await page.keyboard.press('Enter');
		await expect(url).toHaveText('');
		await expect(page.getByText('● Unsaved changes')).toHaveCount(0);
		await expect(gallery.getByRole('status')).toContainText('the draft is as it was');
		await expectAccessible(page);
	});

	test('its shell is there from the start: nothing moves when its contents arrive, and opened early it says it is loading', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Gallery'));
		// The contents' code is held back until the test lets it through.
		const release = await holdChunk(page, 'Gallery templates');
		await page.goto(`/profiles/${id}/services/sendMessage`);
		const url = page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		await expect(url).toBeVisible();
		const gallery = page.locator('details.gallery');
		await expect(gallery.locator('summary')).toHaveText(
			/^Gallery: 7 real-world\s+templates for Send Message$/
		);
		const before = await url.boundingBox();

		await gallery.locator('summary').click();
		await expect(gallery.getByRole('status')).toHaveText('Loading the gallery…');
		await gallery.locator('summary').click();
		await expect(gallery).not.toHaveAttribute('open', '');
		release();
		// Inside the closed gallery: in the page, not in the accessibility tree.
		await expect(gallery.locator('ul[aria-label="Gallery templates"]')).toBeAttached();
		expect(await url.boundingBox()).toEqual(before);

		await gallery.locator('summary').click();
		await expect(gallery.getByRole('list', { name: 'Gallery templates' })).toBeVisible();
		await expect(gallery.getByText('Loading the gallery…')).toHaveCount(0);
	});

	test('applying over unsaved edits asks first; nothing is saved until Save', async ({ page }) => {
		const id = await createProfile(page, uniqueName('Gallery'));
		const gallery = await openGallery(page, id);
		const url = page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		await url.click();
		await page.keyboard.type('https://mine.example.com/send');
		await page.keyboard.press('Escape');

		await gallery.getByRole('button', { name: /GET with everything in the query/ }).click();
		await gallery.getByRole('button', { name: 'Apply to the draft' }).click();
		const confirm = gallery.getByRole('alertdialog');
		await expect(confirm).toContainText('replaces your unsaved change to Send Message');
		await expect(confirm.getByRole('button', { name: 'Replace my changes' })).toBeFocused();
		await confirm.getByRole('button', { name: 'Cancel' }).click();
		await expect(url).toHaveText('https://mine.example.com/send');

		await gallery.getByRole('button', { name: 'Apply to the draft' }).click();
		await gallery.getByRole('button', { name: 'Replace my changes' }).click();
		await expect(url).toContainText('https://bridge.example.net/send?username=');

		// The server still has the saved revision until the user saves.
		const origin = new URL(page.url()).origin;
		const before = await (await page.request.get(`/api/profiles/${id}`)).json();
		expect(JSON.stringify(before)).not.toContain('bridge.example.net');
		await page.getByRole('button', { name: 'Save', exact: true }).click();
		await expect(page.getByText('● Unsaved changes')).toHaveCount(0);
		const after = await (
			await page.request.get(`/api/profiles/${id}`, { headers: { origin } })
		).json();
		expect(JSON.stringify(after)).toContain('bridge.example.net');
	});

	test('a template with the provider’s own account keys declares them: completed, filled, not flagged', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Gallery'));
		const gallery = await openGallery(page, id);
		await gallery.getByRole('button', { name: /own account keys/ }).click();
		await expect(gallery.getByRole('list', { name: 'Changes applying makes' })).toContainText(
			'apiUser'
		);
		await gallery.getByRole('button', { name: 'Apply to the draft' }).click();

		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview).toContainText('acme-bridge');
		await expect(preview).not.toContainText('not a documented account key');
		await expect(page.locator('.cm-lintRange-warning, .cm-lintRange-error')).toHaveCount(0);

		const url = page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		await url.click();
		await page.keyboard.press('End');
		await page.keyboard.type('?u=%account[api');
		await expect(page.getByRole('option', { name: /%account\[apiUser\]%/ })).toBeVisible();
		await expect(page.getByRole('option', { name: /%account\[apiKey\]%/ })).toBeVisible();
	});

	test('a test call names the answer shape and warns of an error answered with HTTP 200', async ({
		page
	}) => {
		const address = await createSink(page, uniqueName('Error flag sink'));
		await page.getByLabel('Status').fill('200');
		await page.getByLabel('Content type').fill('application/json');
		await page
			.getByLabel('Body')
			.fill('{"response": {"error": 1, "description": "Insufficient credit"}}');
		await page.getByRole('button', { name: 'Save the answer' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'now answers 200' })).toBeVisible();

		const id = await createProfile(page, uniqueName('Gallery'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		await page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' }).click();
		await page.keyboard.type(`${address}send?to=%sms_to%`);
		await page.keyboard.press('Escape');
		await page.keyboard.press('Control+Enter');

		const caller = page
			.getByRole('region', { name: 'Test call' })
			.getByRole('region', { name: 'What the caller does' });
		await expect(caller).toContainText('Success');
		await expect(caller).toContainText('Answer shape: An error flag in the body');
		await expect(caller).toContainText(
			'The body reports an error (error = 1, “Insufficient credit”) with HTTP 200'
		);
	});

	for (const width of [390, 1440]) {
		for (const scheme of ['light', 'dark'] as const) {
			test(`fits ${width} px wide, ${scheme}, and is accessible`, async ({ page }) => {
				await page.setViewportSize({ width, height: 900 });
				await page.emulateMedia({ colorScheme: scheme });
				const id = await createProfile(page, uniqueName('Gallery'));
				const gallery = await openGallery(page, id);
				await gallery.getByRole('button', { name: /static token in the query/ }).click();
				await expect(gallery.getByRole('list', { name: 'Changes applying makes' })).toBeVisible();
				const overflow = await page.evaluate(
					() => document.documentElement.scrollWidth - document.documentElement.clientWidth
				);
				expect(overflow).toBeLessThanOrEqual(0);
				await expectAccessible(page);
				await gallery.screenshot({ path: `test-results/gallery-${width}-${scheme}.png` });
			});
		}
	}

	test('says where a style comes from, and reads a checker’s answer as the app shows it', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Gallery sources'));
		await page.goto(`/profiles/${id}/services/balanceChecker`);
		await expect(page.getByRole('textbox', { name: 'URL (genericBalanceCheckUrl)' })).toBeVisible();
		const gallery = page.locator('details.gallery');
		await gallery.locator('summary').click();
		await gallery
			.getByRole('button', { name: 'Balance Checker as a GET, answered with the legacy XML' })
			.click();
		const detail = gallery.getByRole('region', { name: 'Balance Checker as a GET' });
		await expect(
			detail.getByRole('button', {
				name: "Source: From the platform's public documentation: api/client/balance_checker; FAQ."
			})
		).toBeVisible();
		await expect(detail.getByRole('region', { name: 'What the caller does' })).toContainText(
			'The app shows the balance “$60.20”.'
		);
		await gallery
			.getByRole('button', { name: 'Balance Checker as a JSON POST, answered with balanceString' })
			.click();
		await expect(
			gallery.getByRole('button', { name: /^Source: From real providers' implementations: / })
		).toBeVisible();
	});
});
