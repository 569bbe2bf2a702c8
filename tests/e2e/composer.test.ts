import type { Page } from '@playwright/test';
import { expect, expectAccessible, test, uniqueName, watchClipboard } from './fixtures';

/**
 * The push composer in a real browser against the built app: compose, send to a sandbox, read
 * the verdicts, see the push in the sandbox's device view; multisend with a token the sandbox
 * calls unregistered; the keyboard; a malformed JSON that keeps its text.
 */

/** Creates a sandbox on its page and returns its id (the page stays on the sandbox). */
async function createSandbox(page: Page, name: string): Promise<string> {
	await page.goto('/sandboxes');
	await page.getByLabel('Name', { exact: true }).fill(name);
	await page.getByRole('button', { name: 'Create sandbox' }).click();
	await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
	return new URL(page.url()).pathname.split('/').at(-1)!;
}

/** Opens the composer from the navigation with `sandbox` as the target. */
async function openComposer(page: Page, sandbox: string): Promise<void> {
	await page
		.getByRole('navigation', { name: 'Main' })
		.getByRole('link', { name: 'Push composer' })
		.click();
	await expect(page.getByRole('heading', { level: 1, name: 'Push composer' })).toBeVisible();
	await page.getByLabel('A push sandbox').check();
	await page.getByLabel('Sandbox', { exact: true }).selectOption({ label: sandbox });
}

test.describe('push composer', () => {
	test('composes a NotifyTextMessage, sends it to a sandbox, explains the answer and the device shows it', async ({
		page
	}) => {
		const name = uniqueName('Composer');
		const id = await createSandbox(page, name);
		await openComposer(page, name);

		await page.getByLabel('Message').fill('Dinner at eight?');
		await page.getByLabel('UserDisplayName').fill('Bob');
		await expect(page.getByLabel('The request body as JSON')).toHaveValue(
			/"Message": "Dinner at eight\?"/
		);

		// Badge sent as a string is named inline before anything is sent.
		await page.getByLabel('Badge').fill('3a');
		await expect(page.locator('#push-0-Badge-issue-0')).toContainText(
			'must be an integer (a JSON number without quotes), but it is the string "3a"'
		);
		await page.getByLabel('Badge').fill('5');
		await expect(page.getByLabel('The request body as JSON')).toHaveValue(/"Badge": 5,/);

		// The platform choice makes Badge required.
		await expect(page.locator('label[for="push-0-Badge"]')).not.toContainText('required');
		await page.getByLabel('Device platform').selectOption('platformA13');
		await expect(page.locator('label[for="push-0-Badge"]')).toContainText('required');

		await page.getByLabel('Sound').selectOption('s3.caf');
		await expect(page.getByLabel('Sound')).toContainText('Glass');

		// Copy as cURL copies the exact request: the sandbox's address and the JSON as sent.
		const copied = await watchClipboard(page);
		await page.getByRole('button', { name: 'Copy as cURL' }).click();
		await expect(page.getByText('Copied to the clipboard.')).toBeVisible();
		const curl = (await copied())!;
		const body = JSON.stringify(
			JSON.parse(await page.getByLabel('The request body as JSON').inputValue())
		);
		expect(curl).toMatch(
			/^curl --globoff -X POST 'http:\/\/127\.0\.0\.1:\d+\/sandbox\/[A-Za-z0-9_-]{32}\/pnm2\/send' -H 'Content-Type: application\/json' --data-binary '/
		);
		expect(curl.endsWith(`--data-binary '${body}'`)).toBe(true);

		await page.getByRole('button', { name: 'Send', exact: true }).click();
		const verdicts = page.getByRole('list', { name: 'Verdicts' });
		await expect(verdicts).toContainText('Accepted upstream, not delivered');
		await expect(page.getByText('HTTP 200', { exact: true })).toBeVisible();
		await page.getByText('Request as sent').click();
		await expect(page.locator('details pre').first()).toContainText(body);

		await expectAccessible(page);
		await page.emulateMedia({ colorScheme: 'dark' });
		await expectAccessible(page);
		await page.emulateMedia({ colorScheme: 'light' });

		await page.getByRole('link', { name: 'Open the device view of the sandbox' }).click();
		await expect(page).toHaveURL(new RegExp(`/sandboxes/${id}$`));
		const pushes = page.getByRole('list', { name: 'Pushes received' });
		await expect(pushes).toContainText('Dinner at eight?');
		await expect(pushes).toContainText('Bob');
	});

	test('a multisend with a good element and an unregistered token shows both verdicts; Ctrl+Enter sends', async ({
		page
	}) => {
		const name = uniqueName('Multi');
		await createSandbox(page, name);
		await page.getByLabel('Device tokens no longer registered').fill('gone-token-1');
		await page.getByRole('button', { name: 'Save the settings' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();

		await openComposer(page, name);
		await page.getByLabel('Multiple pushes').check();
		const list = page.getByRole('list', { name: 'Elements of the list' });
		await expect(list.getByRole('listitem')).toHaveCount(1);
		await page.getByRole('button', { name: 'Duplicate element 1' }).click();
		await expect(list.getByRole('listitem')).toHaveCount(2);
		await expect(page.getByRole('group', { name: 'Element 2' })).toBeVisible();
		await page.getByLabel('DeviceToken').fill('gone-token-1');

		// Reorder by keyboard: the unregistered element moves first, and back.
		await page.locator('#element-1').focus();
		await page.keyboard.press('Alt+ArrowUp');
		await expect(list.getByRole('listitem').first()).toContainText('gone-token-1');
		await expect(page.locator('#element-0')).toBeFocused();
		await page.keyboard.press('Alt+ArrowDown');
		await expect(list.getByRole('listitem').nth(1)).toContainText('gone-token-1');
		const json = JSON.parse(await page.getByLabel('The request body as JSON').inputValue());
		expect(json.map((e: { DeviceToken: string }) => e.DeviceToken)[1]).toBe('gone-token-1');

		await page.getByLabel('Message').focus();
		await page.keyboard.press('Control+Enter');
		const verdicts = page.getByRole('list', { name: 'Verdicts' }).getByRole('listitem');
		await expect(verdicts).toHaveCount(2);
		await expect(verdicts.nth(0)).toContainText('Element 1:');
		await expect(verdicts.nth(0)).toContainText('Accepted upstream, not delivered');
		await expect(verdicts.nth(1)).toContainText('Element 2:');
		await expect(verdicts.nth(1)).toContainText('Stop sending to this token');
		await expect(verdicts.nth(1)).toContainText('status 404');
	});

	test('a malformed JSON shows its line and column, keeps the text, and the form follows once fixed', async ({
		page
	}) => {
		const name = uniqueName('Json');
		await createSandbox(page, name);
		await openComposer(page, name);
		const area = page.getByLabel('The request body as JSON');
		const broken = '{\n  "verb": "NotifyGenericTextMessage",\n  "AppId": "app",,\n}';
		await area.fill(broken);
		await expect(page.getByRole('alert')).toContainText(
			'The JSON is not valid at line 3, column 18'
		);
		await expect(area).toHaveValue(broken);
		await expect(page.getByRole('button', { name: 'Copy as cURL' })).toHaveCount(0);
		// Sending is refused while the JSON is broken, and nothing is lost.
		await page.keyboard.press('Control+Enter');
		await expect(area).toHaveValue(broken);
		await expect(page.getByRole('list', { name: 'Verdicts' })).toHaveCount(0);

		const fixed =
			'{\n  "verb": "NotifyGenericTextMessage",\n  "AppId": "app",\n  "DeviceToken": "t",\n  "Message": "Sale"\n}';
		await area.fill(fixed);
		await expect(page.getByRole('alert')).toHaveCount(0);
		await expect(page.getByLabel('verb')).toHaveValue('NotifyGenericTextMessage');
		await expect(page.getByLabel('Message')).toHaveValue('Sale');
		await expect(page.getByLabel('AppId')).toHaveValue('app');
		await expect(page.getByRole('button', { name: 'Copy as cURL' })).toBeVisible();
	});
});
