import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { readBySecondParser } from '../helpers/xml';
import { createProfile, expect, pickCompletion, test, uniqueName } from './fixtures';

/** Profiles imported from providers' own XML: their account keys and legacy keys in the editor. */

async function importXml(page: Page, id: string, xml: string): Promise<void> {
	const response = await page.request.post(`/api/profiles/${id}/import`, {
		headers: { origin: new URL(page.url()).origin },
		data: { baseRevision: 1, xml }
	});
	expect(response.status()).toBe(200);
}

test.describe("providers' account XML", () => {
	test('completion offers the account keys the XML declares, and the preview fills their values', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Bridge'));
		await importXml(
			page,
			id,
			'<account>\n<apiUser>acme-bridge</apiUser>\n<apiPass>api-S3cret-9f2c</apiPass>\n<authUsername>alice-sip-7</authUsername>\n</account>'
		);
		await page.goto(`/profiles/${id}/services/sendMessage`);
		const url = page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		await url.click();
		await page.keyboard.type('https://api.example.com/sms?u=%account[api');
		await expect(page.getByRole('option', { name: /%account\[apiPass\]%/ })).toBeVisible();
		await pickCompletion(
			page,
			/%account\[apiUser\]%/,
			url,
			'https://api.example.com/sms?u=%account[apiUser]%'
		);
		await page.keyboard.type('&a=%account[authUsername]%');
		await page.keyboard.press('Escape');

		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview.getByLabel('URL', { exact: true })).toHaveText(
			'https://api.example.com/sms?u=acme-bridge&a=alice-sip-7'
		);
		await expect(preview).not.toContainText('not a documented account key');
		await expect(page.locator('.cm-lintRange-warning')).toHaveCount(0);
		// The credential is a secret: the page never holds it.
		expect(await page.content()).not.toContain('api-S3cret-9f2c');
	});

	test('a JSON body under the legacy content-type key is previewed as JSON, and says where its type comes from', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Legacy'));
		const response = await page.request.put(`/api/profiles/${id}`, {
			headers: { origin: new URL(page.url()).origin },
			data: {
				baseRevision: 1,
				document: {
					services: {
						sendMessage: {
							genericSmsSendUrl: 'https://sms.example.com/send',
							genericSmsPostData: '{"to": "%sms_to%", "body": "%sms_body%"}',
							genericSmsContentType: 'application/json'
						}
					}
				}
			}
		});
		expect(response.status()).toBe(200);
		await page.goto(`/profiles/${id}/services/sendMessage`);
		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview).toContainText('Content-Type: application/json');
		await expect(preview).toContainText('"body": "Tom said \\"meet at 7 & bring snacks\\"');
		await expect(preview).toContainText(
			'The platform sends Content-Type: application/json, taken from the deprecated genericSmsContentType'
		);
		await expect(page.getByLabel(/Content type/)).toHaveAttribute(
			'placeholder',
			'application/json'
		);
	});

	test('the export leaves credentials out, and an admin downloads them only when asked', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Credentials'));
		await importXml(
			page,
			id,
			'<account>\n<username>5551234567</username>\n<password>hunter2&amp;more</password>\n<genericSmsSendUrl>https://bridge.example.net/send</genericSmsSendUrl>\n</account>'
		);
		await page.goto(`/profiles/${id}/export?form=account`);
		const output = page.getByRole('textbox', { name: /Account document/ });
		await expect(output).toHaveValue(/<username>5551234567<\/username>/);
		await expect(output).not.toHaveValue(/password/);
		readBySecondParser(await output.inputValue());
		await expect(page.getByText(/One credential element \(<password>\) is left out/)).toBeVisible();

		const download = page.getByRole('button', { name: 'Download XML with secrets' });
		await expect(download).toBeDisabled();
		await page.getByLabel(/Include secrets/).check();
		const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
		expect(file.suggestedFilename()).toMatch(/-account-with-secrets\.xml$/);
		const text = await readFile((await file.path())!, 'utf8');
		expect(text).toContain('\t<password>hunter2&amp;more</password>\n');
		const read = readBySecondParser(text);
		expect(read.getElementsByTagName('password')[0].textContent).toBe('hunter2&more');
		await expect(page.getByRole('status').filter({ hasText: 'audit log' })).toBeVisible();
	});
});
