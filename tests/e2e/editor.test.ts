import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';

test.describe('service editor', () => {
	test('completes a placeholder and the preview follows each keystroke', async ({ page }) => {
		await page.goto('/services/sendMessage');
		const url = page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		await url.click();
		await page.keyboard.type('https://sms.example.com/send?to=%sms');
		await page.getByRole('option', { name: /%sms_to%/ }).click();
		await expect(url).toHaveText('https://sms.example.com/send?to=%sms_to%');

		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview.getByLabel('URL', { exact: true })).toHaveText(
			'https://sms.example.com/send?to=%2B14155550123'
		);
		await page.keyboard.type('&x=1');
		await expect(preview.getByLabel('URL', { exact: true })).toHaveText(
			'https://sms.example.com/send?to=%2B14155550123&x=1'
		);
	});

	test('flags an unknown name and fixes it with the quick fix', async ({ page }) => {
		await page.goto('/services/sendMessage');
		const url = page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		await url.click();
		await page.keyboard.type('https://sms.example.com/send?to=%sms_too%');
		await page.keyboard.press('Escape');
		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview).toContainText('Did you mean %sms_to%?');
		await preview.getByRole('button', { name: 'Replace with %sms_to%' }).click();
		await expect(url).toHaveText('https://sms.example.com/send?to=%sms_to%');
		await expect(preview).not.toContainText('Did you mean');
	});

	test('switching the content type changes the encoding of the body', async ({ page }) => {
		await page.goto('/services/sendMessage');
		await page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' }).click();
		await page.keyboard.type('https://sms.example.com/send');
		await page.getByRole('button', { name: 'JSON body' }).click();
		const body = page
			.getByRole('region', { name: 'Request preview' })
			.getByLabel('Body', { exact: true });
		await expect(body).toContainText('"sms_body": "Tom said \\"meet at 7 & bring snacks\\"');

		await page.getByRole('button', { name: 'form body' }).click();
		await expect(body).toContainText('sms_body=Tom+said+%22meet+at+7+%26+bring+snacks%22');
	});

	test('has no accessibility violations', async ({ page }) => {
		await page.goto('/services/invitationAccepted');
		await expect(
			page.getByRole('heading', { level: 1, name: 'Invitation Accepted' })
		).toBeVisible();
		const results = await new AxeBuilder({ page }).analyze();
		expect(
			results.violations.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target).join(' ')}`)
		).toEqual([]);
	});
});
