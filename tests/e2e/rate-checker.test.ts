import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { createSink, expect, expectAccessible, test, uniqueName } from './fixtures';

/**
 * Rate Checker in the editor, at a phone's and a laptop's width, light and dark: its keys and
 * number setting with where their rules come from, the live preview of the number sent, and a
 * test call whose answer the panel shows as the rates the app shows beside the number.
 */

const ANSWER = { callRateString: '$0.02 per minute', messageRateString: '$0.01 per message' };

/** Screenshots of the editor's first screen and of the panel's reading, when asked for. */
async function screenshot(page: Page, panel: Locator, name: string): Promise<void> {
	const dir = process.env.LAYOUT_SCREENSHOTS;
	if (!dir) return;
	mkdirSync(dir, { recursive: true });
	await page.evaluate(() => window.scrollTo(0, 0));
	await page.screenshot({ path: path.join(dir, `${name}-editor.png`) });
	await panel.screenshot({ path: path.join(dir, `${name}-panel.png`) });
}

test('Rate Checker: edit, preview and a test call at 390 and 1440 px, light and dark', async ({
	page
}) => {
	const address = await createSink(page, uniqueName('Rate sink'));
	await page.getByLabel('Status').fill('200');
	await page.getByLabel('Content type').fill('application/json');
	await page.getByLabel('Body').fill(JSON.stringify(ANSWER));
	await page.getByRole('button', { name: 'Save the answer' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'now answers 200' })).toBeVisible();

	for (const width of [390, 1440]) {
		for (const scheme of ['light', 'dark'] as const) {
			await test.step(`${width} px, ${scheme}`, async () => {
				await page.setViewportSize({ width, height: 900 });
				await page.emulateMedia({ colorScheme: scheme });
				await page.goto('/services/rateChecker');
				await expect(page.getByRole('heading', { level: 1, name: 'Rate Checker' })).toBeVisible();
				await expect(
					page.getByRole('button', { name: /^Source: An inference/ }).first()
				).toBeVisible();
				await expect(
					page.getByLabel('Minimum number length rateCheckMinNumberLength')
				).toBeVisible();

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

				await screenshot(page, caller, `rate-checker-${width}-${scheme}`);
				const { scrollWidth, innerWidth } = await page.evaluate(() => ({
					scrollWidth: document.scrollingElement!.scrollWidth,
					innerWidth: window.innerWidth
				}));
				expect(scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(innerWidth);
				if ((width === 390 && scheme === 'light') || (width === 1440 && scheme === 'dark')) {
					await expectAccessible(page);
				}
			});
		}
	}
});
