import type { Page } from '@playwright/test';
import {
	createProfile,
	createUser,
	expect,
	PASSWORD,
	signIn,
	test,
	uniqueEmail,
	uniqueName
} from './fixtures';

/** Saves a new revision through the JSON API, as the editor will. */
async function saveRevision(page: Page, id: string, baseRevision: number, document: object) {
	const response = await page.request.put(`/api/profiles/${id}`, {
		headers: { origin: new URL(page.url()).origin },
		data: { baseRevision, document, message: 'Set the SMS URL' }
	});
	expect(response.status()).toBe(200);
}

test.describe('profiles', () => {
	test('an admin creates, renames, duplicates, deletes and restores a profile', async ({
		page
	}) => {
		const name = uniqueName('Acme');
		await createProfile(page, name);
		await page.goto('/profiles');
		const table = page.getByRole('table', { name: 'Profiles', exact: true });
		const row = table.getByRole('row').filter({ hasText: name });
		await expect(row.getByRole('cell').first()).toHaveText('1');

		// Rename: the form sits in a disclosure; an empty name is refused and kept open.
		await row.getByText('Rename').click();
		const field = row.getByLabel(`New name for ${name}`);
		await field.fill('');
		await row.getByRole('button', { name: 'Save name' }).click();
		await expect(field).toHaveAccessibleDescription('Error: Enter a name.');
		const renamed = `${name} renamed`;
		await field.fill(renamed);
		await row.getByRole('button', { name: 'Save name' }).click();
		await expect(page.getByRole('status')).toHaveText(`Renamed “${name}” to “${renamed}”.`);
		await expect(table.getByRole('link', { name: renamed, exact: true })).toBeVisible();

		await table.getByRole('button', { name: `Duplicate ${renamed}` }).click();
		await expect(page.getByRole('status')).toHaveText(`Created “${renamed} (copy)”.`);
		await expect(table.getByRole('link', { name: `${renamed} (copy)` })).toBeVisible();

		await table.getByRole('button', { name: `Delete ${renamed}`, exact: true }).click();
		await expect(page.getByRole('status')).toContainText(`Deleted “${renamed}”.`);
		await expect(table.getByRole('link', { name: renamed, exact: true })).toHaveCount(0);
		const deleted = page.getByRole('table', { name: 'Deleted profiles' });
		await expect(deleted.getByRole('link', { name: renamed, exact: true })).toBeVisible();

		await deleted.getByRole('button', { name: `Restore ${renamed}` }).click();
		await expect(page.getByRole('status')).toHaveText(`Restored “${renamed}”.`);
		await expect(table.getByRole('link', { name: renamed, exact: true })).toBeVisible();
	});

	test('the history shows revisions, one document, a diff, and restores a revision', async ({
		page
	}) => {
		const name = uniqueName('History');
		const id = await createProfile(page, name);
		await saveRevision(page, id, 1, {
			services: { sendMessage: { genericSmsSendUrl: 'https://sms.example.com/send?to=%sms_to%' } },
			scenarios: [{ name: 'Default', values: { 'account[password]': 'hunter2-secret' } }]
		});

		await page.goto('/profiles');
		await page.getByRole('link', { name, exact: true }).click();
		await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
		await expect(page.getByText('Revision 2, updated')).toBeVisible();
		const history = page.getByRole('table', { name: /Revisions of/ });
		await expect(history.getByRole('row')).toHaveCount(3);
		await expect(history.getByRole('row').nth(1)).toContainText('Set the SMS URL');

		await history.getByRole('link', { name: 'View revision 2' }).click();
		const documentView = page.getByRole('region', { name: 'Revision 2' });
		await expect(documentView.locator('pre')).toContainText('"genericSmsSendUrl"');
		await expect(documentView.locator('pre')).toContainText('••••••••');
		await expect(documentView.locator('pre')).not.toContainText('hunter2');

		await history.getByRole('link', { name: 'Changes in revision 2' }).click();
		const diff = page.getByRole('table', { name: 'Changes from revision 1 to revision 2' });
		const url = diff.getByRole('row').filter({ hasText: 'Send Message · URL' });
		await expect(url).toContainText('Added');
		await expect(url).toContainText('https://sms.example.com/send?to=%sms_to%');
		const secret = diff.getByRole('row').filter({ hasText: 'account[password]' });
		await expect(secret).toContainText('••••••••');
		await expect(diff).not.toContainText('hunter2');

		// The compare form does the same, from the keyboard.
		await page.getByLabel('From revision').selectOption('2');
		await page.getByLabel('To revision').selectOption('1');
		await page.getByRole('button', { name: 'Compare' }).press('Enter');
		await expect(
			page.getByRole('table', { name: 'Changes from revision 2 to revision 1' })
		).toContainText('Removed');

		await history.getByRole('button', { name: 'Restore revision 1' }).click();
		await expect(page.getByRole('status')).toHaveText('Restored revision 1 as revision 3.');
		await expect(history.getByRole('row').nth(1)).toContainText('Restored revision 1');
		await expect(history.getByRole('row').nth(1)).toContainText('head');
	});

	test('a viewer sees the profiles without any write control', async ({ page, browser }) => {
		const name = uniqueName('Read only');
		const id = await createProfile(page, name);
		await saveRevision(page, id, 1, { rawSubstitution: true });
		const email = uniqueEmail('reader');
		await createUser(page, { email, name: 'Rita Reader', role: 'viewer' });

		const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
		const viewer = await context.newPage();
		await signIn(viewer, email, PASSWORD);
		await expect(viewer.getByRole('banner')).toContainText('Rita Reader');
		await expect(viewer.getByRole('banner')).toContainText('viewer');
		const nav = viewer.getByRole('navigation', { name: 'Main' });
		await expect(nav.getByRole('link')).toHaveText(['Services', 'Profiles', 'Push sandboxes']);

		await viewer.goto('/profiles');
		await expect(viewer.getByRole('link', { name, exact: true })).toBeVisible();
		await expect(viewer.getByRole('main').getByRole('button')).toHaveCount(0);
		await expect(viewer.getByRole('main').getByRole('textbox')).toHaveCount(0);

		await viewer.goto(`/profiles/${id}`);
		await expect(viewer.getByRole('heading', { level: 1, name })).toBeVisible();
		await expect(viewer.getByRole('button', { name: /Restore/ })).toHaveCount(0);

		const response = await viewer.goto('/admin/users');
		expect(response?.status()).toBe(403);
		await context.close();
	});
});
