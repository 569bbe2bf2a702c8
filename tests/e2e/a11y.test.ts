import type { Page } from '@playwright/test';
import { createProfile, expect, expectAccessible, signedOut, test, uniqueName } from './fixtures';

/** A profile with two revisions, for the history views. */
async function profileWithHistory(page: Page): Promise<string> {
	const id = await createProfile(page, uniqueName('Accessible'));
	const response = await page.request.put(`/api/profiles/${id}`, {
		headers: { origin: new URL(page.url()).origin },
		data: {
			baseRevision: 1,
			document: {
				services: { sendMessage: { genericSmsSendUrl: 'https://example.com/?a=%sms_to%' } }
			}
		}
	});
	expect(response.status()).toBe(200);
	return id;
}

test.describe('accessibility of the signed-out pages', () => {
	test.use({ storageState: signedOut });

	test('sign-in page, also with errors', async ({ page }) => {
		await page.goto('/login');
		await expectAccessible(page);
		await page.getByRole('button', { name: 'Sign in' }).click();
		await expect(page.getByRole('alert')).toBeVisible();
		await expectAccessible(page);
	});

	test('setup page', async ({ page }) => {
		await page.goto('/setup');
		await expectAccessible(page);
	});
});

test.describe('accessibility of the signed-in pages', () => {
	// The other signed-in pages are checked at every width, in both schemes, in layout.test.ts.
	test('the sign-out page has no violations', async ({ page }) => {
		await page.goto('/logout');
		await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
		await expectAccessible(page);
	});

	test('profile history, one revision and a diff, in light and dark', async ({ page }) => {
		const id = await profileWithHistory(page);
		await page.goto(`/profiles/${id}?rev=1`);
		await expectAccessible(page);
		await page.goto(`/profiles/${id}?from=1&to=2`);
		await expect(page.getByRole('table', { name: /Changes from/ })).toBeVisible();
		await expectAccessible(page);
		await page.emulateMedia({ colorScheme: 'dark' });
		await expectAccessible(page);
	});

	// The export, portal sheet, import, backup and flows pages are checked by the layout tests at
	// every width in both schemes; the account form of the export only here.
	test('the export of an account document, in light and dark', async ({ page }) => {
		const id = await profileWithHistory(page);
		await page.goto(`/profiles/${id}/export?form=account`);
		await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
		for (const scheme of ['light', 'dark'] as const) {
			await page.emulateMedia({ colorScheme: scheme });
			await expectAccessible(page);
		}
	});

	test('forms with errors and results, in dark mode', async ({ page }) => {
		await page.emulateMedia({ colorScheme: 'dark' });
		await page.goto('/admin/users');
		await page.getByRole('button', { name: 'Create user' }).click();
		await expect(page.getByRole('alert')).toBeVisible();
		await expectAccessible(page);

		await page.goto('/account');
		await page.getByLabel('Name of a new token').fill('a11y');
		await page.getByRole('button', { name: 'Create token' }).click();
		await expect(page.getByLabel('New token', { exact: true })).toBeVisible();
		await expectAccessible(page);

		await page.goto('/profiles');
		await page.getByRole('button', { name: 'Create profile' }).click();
		await expect(page.getByRole('alert')).toBeVisible();
		await expectAccessible(page);
	});

	test('error page', async ({ page }) => {
		const response = await page.goto('/no-such-page');
		expect(response?.status()).toBe(404);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 · Not found');
		await expectAccessible(page);
	});
});
