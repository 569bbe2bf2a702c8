import {
	atEveryWidthAndScheme,
	createSink,
	expect,
	layoutScreenshot,
	test,
	uniqueName
} from './fixtures';

/**
 * The Account Removal Reporter in the editor, at a phone's and a laptop's width, light and dark:
 * its key names marked as inferred beside them, the preview of the selector sent, and a test
 * call whose panel says the report is delivered, what the provider should do, and that the user
 * sees nothing.
 */

test('Account Removal Reporter: edit, preview and a test call at 390 and 1440 px, light and dark', async ({
	page
}) => {
	const address = await createSink(page, uniqueName('Removal sink'));

	await atEveryWidthAndScheme(page, async (width, scheme) => {
		await page.goto('/services/accountRemovalReporter');
		await expect(
			page.getByRole('heading', { level: 1, name: 'Account Removal Reporter' })
		).toBeVisible();
		const urlField = page.locator('[data-field="accountRemovalReporterUrl"]');
		await expect(
			urlField.getByRole('button', {
				name: 'Source: An inference: not documented by the platform: key names not published by the platform: named by the prefix rule of every service.'
			})
		).toBeVisible();

		const url = page.getByRole('textbox', { name: 'URL (accountRemovalReporterUrl)' });
		await url.click();
		await page.keyboard.type(`${address}remove`);
		await page.keyboard.press('Escape');
		const post = page.getByRole('textbox', { name: 'Post data (accountRemovalReporterPostData)' });
		await post.click();
		await page.keyboard.type('selector=%selector%');
		await page.keyboard.press('Escape');
		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview).toContainText(
			'selector=12869E0E6E553673C54F29105A0647204C416A2A%3A7C3A0D14'
		);

		await page.keyboard.press('Control+Enter');
		const panel = page.getByRole('region', { name: 'Test call' });
		const caller = panel.getByRole('region', { name: 'What the caller does' });
		await expect(caller).toContainText(
			'The report is delivered. The provider should now delete the push tokens it stored for this selector'
		);
		await expect(caller).toContainText('the user sees nothing either way');

		await layoutScreenshot(page, caller, `account-removal-${width}-${scheme}`);
	});
});
