import {
	atEveryWidthAndScheme,
	createJsonSink,
	expect,
	layoutScreenshot,
	test,
	uniqueName
} from './fixtures';

/**
 * Rate Checker in the editor, at a phone's and a laptop's width, light and dark: its keys and
 * number setting with where their rules come from, the live preview of the number sent, and a
 * test call whose answer the panel shows as the rates the app shows beside the number.
 */

const ANSWER = { callRateString: '$0.02 per minute', messageRateString: '$0.01 per message' };

test('Rate Checker: edit, preview and a test call at 390 and 1440 px, light and dark', async ({
	page
}) => {
	const address = await createJsonSink(page, uniqueName('Rate sink'), ANSWER);

	await atEveryWidthAndScheme(page, async (width, scheme) => {
		await page.goto('/services/rateChecker');
		await expect(page.getByRole('heading', { level: 1, name: 'Rate Checker' })).toBeVisible();
		await expect(page.getByRole('button', { name: /^Source: An inference/ }).first()).toBeVisible();
		await expect(page.getByLabel('Minimum number length rateCheckMinNumberLength')).toBeVisible();

		const url = page.getByRole('textbox', { name: 'URL (genericRateCheckUrl)' });
		await url.click();
		await page.keyboard.type(`${address}rate?to=%targetNumber%`);
		await page.keyboard.press('Escape');
		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview.getByLabel('URL')).toContainText('rate?to=%2B15551231234');

		await page.keyboard.press('Control+Enter');
		const panel = page.getByRole('region', { name: 'Test call' });
		const caller = panel.getByRole('region', { name: 'What the caller does' });
		await expect(caller).toContainText(
			'The app shows the call rate “$0.02 per minute” and the message rate “$0.01 per message”.'
		);
		const rates = caller.getByRole('definition');
		await expect(rates).toHaveText(['$0.02 per minute', '$0.01 per message']);

		await layoutScreenshot(page, caller, `rate-checker-${width}-${scheme}`);
	});
});
