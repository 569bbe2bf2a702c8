import { readFile } from 'node:fs/promises';
import { readBySecondParser } from '../helpers/xml';
import { createProfile, expect, expectAccessible, holdChunk, test, uniqueName } from './fixtures';

/**
 * The profile's push settings: a page beside the services, edited by keyboard on the profile's
 * draft, with a sandbox as a one-click gateway URL; saved like the services, shown again after a
 * reload, left out of the provisioning XML and carried by the JSON backup.
 */
test.describe('push settings of a profile', () => {
	test('the mark in the list says "not set" at once, and "checking…" for set settings until their checks arrive', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Push mark'));
		// The checks' code (with the rules' messages) is held back until the test lets it through.
		const release = await holdChunk(page, 'your server adds /pnm2/send');
		await page.goto(`/profiles/${id}/services/sendMessage`);
		const nav = page.getByRole('navigation', { name: 'Services of this profile' });
		const mark = nav.getByRole('link', { name: 'Push settings' });
		await expect(page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' })).toBeVisible();
		await expect(mark).toHaveAccessibleDescription('not set');

		const saved = await page.request.put(`/api/profiles/${id}`, {
			headers: { origin: new URL(page.url()).origin },
			data: {
				baseRevision: 1,
				document: { push: { gatewayUrl: '', appId: 'com.provider.app', target: 'platformB' } }
			}
		});
		expect(saved.status()).toBe(200);
		await page.reload();
		await expect(page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' })).toBeVisible();
		await expect(mark).toHaveAccessibleDescription('checking…');
		release();
		await expect(mark).toHaveAccessibleDescription(/1 warning/);
	});

	test('set by keyboard with a sandbox as the gateway, saved, shown after a reload, in the backup and not in the XML', async ({
		page
	}) => {
		// A sandbox to choose as the gateway.
		const sandboxName = uniqueName('Push lab');
		await page.goto('/sandboxes');
		await page.getByLabel('Name', { exact: true }).fill(sandboxName);
		await page.getByRole('button', { name: 'Create sandbox' }).click();
		const pushUrl = (await page.getByTestId('push-url').textContent())!;

		const id = await createProfile(page, uniqueName('Push profile'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		const nav = page.getByRole('navigation', { name: 'Services of this profile' });
		await expect(nav.getByRole('link', { name: 'Push settings' })).toHaveAccessibleDescription(
			'not set'
		);
		await nav.getByRole('link', { name: 'Push settings' }).click();
		await expect(page.getByRole('heading', { level: 1, name: 'Push settings' })).toBeVisible();

		// The endpoint written into the address is an error with a fix, in words.
		const url = page.getByLabel('Push gateway URL');
		await url.focus();
		await page.keyboard.type('https://push.example.com/gw/pnm2/send');
		await expect(url).toHaveAttribute('aria-invalid', 'true');
		await expect(url).toHaveAccessibleDescription(/without the endpoint/);
		await page.keyboard.press('Tab');
		await expect(page.getByRole('button', { name: 'Remove /pnm2/send' })).toBeFocused();
		await page.keyboard.press('Enter');
		await expect(url).toHaveValue('https://push.example.com/gw');
		await expect(url).toHaveAttribute('aria-invalid', 'false');
		await expect(nav.getByRole('link', { name: 'Push settings' })).toHaveAccessibleDescription(
			/1 warning/
		);

		// The sandbox, chosen by keyboard, replaces the address with its push URL.
		const sandbox = page.getByRole('button', { name: new RegExp(sandboxName) });
		await sandbox.focus();
		await page.keyboard.press('Enter');
		await expect(url).toHaveValue(pushUrl);
		await expect(sandbox).toHaveAttribute('aria-pressed', 'true');
		await expect(page.getByText(`The push sandbox “${sandboxName}”`)).toBeVisible();
		await expect(page.getByText(`POST ${pushUrl}/pnm2/send`)).toBeVisible();

		await page.getByLabel('Push app ID').focus();
		await page.keyboard.type('com.provider.app');
		await page.getByRole('radio', { name: /Platform not known/ }).focus();
		await page.keyboard.press('ArrowUp');
		await expect(page.getByRole('radio', { name: /^Mobile platform B/ })).toBeChecked();
		await expect(nav.getByRole('link', { name: 'Push settings' })).toHaveAccessibleDescription(
			'no problems'
		);
		await expect(page.getByText('● Unsaved changes')).toBeVisible();
		await expectAccessible(page);

		await page.keyboard.press('Control+s');
		await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
		await expect(page.getByText('revision 2')).toBeVisible();

		await page.reload();
		await expect(url).toHaveValue(pushUrl);
		await expect(page.getByLabel('Push app ID')).toHaveValue('com.provider.app');
		await expect(page.getByRole('radio', { name: /^Mobile platform B/ })).toBeChecked();
		await expect(page.getByText('● Unsaved changes')).toBeHidden();

		// The provisioning XML does not carry them (the app does not read them); the backup does.
		await page.goto(`/profiles/${id}/export`);
		await expect(page.getByText('The push settings, which your own server uses')).toBeVisible();
		const xml = await (await page.request.get(`/api/profiles/${id}/export.xml`)).text();
		expect(readBySecondParser(xml).documentElement.tagName).toBe('provisioning');
		expect(xml).not.toContain(pushUrl);
		expect(xml).not.toContain('com.provider.app');

		await page.goto(`/profiles/${id}/backup`);
		const downloading = page.waitForEvent('download');
		await page.getByRole('link', { name: 'Download backup' }).click();
		const backup = JSON.parse(await readFile((await (await downloading).path())!, 'utf8'));
		expect(backup.document.push).toEqual({
			gatewayUrl: pushUrl,
			appId: 'com.provider.app',
			target: 'platformB'
		});
	});
});
