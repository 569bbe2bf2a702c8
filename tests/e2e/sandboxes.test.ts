import { expect, expectAccessible, test, uniqueName } from './fixtures';

/** A call as a provider's server makes it: Node's fetch, no cookie, no Origin. */
async function post(url: string, body: unknown, contentType = 'application/json') {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': contentType },
		body: typeof body === 'string' ? body : JSON.stringify(body)
	});
	return { status: response.status, body: (await response.json()) as unknown };
}

const SELECTOR = '0123456789abcdef0123456789abcdef01234567:acct';

test.describe('push sandboxes', () => {
	test('a push sent by a provider server appears live as the device presents it, and a refusal with its row', async ({
		page
	}) => {
		page.on('dialog', (dialog) => {
			throw new Error(`A dialog opened: ${dialog.message()}`);
		});
		const name = uniqueName('Gateway');
		await page.goto('/sandboxes');
		await page.getByLabel('Name', { exact: true }).fill(name);
		await page.getByRole('button', { name: 'Create sandbox' }).click();
		await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
		await expect(page.getByText('Live: pushes appear here as they arrive.')).toBeVisible();
		const pushUrl = (await page.getByTestId('push-url').textContent())!;
		expect(pushUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/[A-Za-z0-9_-]{32}$/);

		// The device of token-new runs platform A 13+, every other one platform B.
		await page.getByRole('button', { name: 'Add a device' }).click();
		await page.getByLabel('Device token 1').fill('token-new');
		await page.getByLabel('Platform of device 1').selectOption('platformA13');
		await page.getByLabel('Platform of any other device token').selectOption('platformB');
		await page.getByRole('button', { name: 'Save the settings' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
		await expect(page.getByText('Live: pushes appear here as they arrive.')).toBeVisible();

		const accepted = await post(`${pushUrl}/pnm2/send`, {
			verb: 'NotifyTextMessage',
			AppId: 'com.provider.app',
			DeviceToken: 'token-new',
			Selector: SELECTOR,
			UserName: 'Alice',
			Message: 'See you at 8 <b>sharp</b>',
			Badge: 4,
			Sound: 's2.caf',
			ThreadId: 'alice',
			Id: 'msg-17'
		});
		expect(accepted).toEqual({ status: 200, body: { status: 200, response: expect.any(String) } });

		const pushes = page.getByRole('list', { name: 'Pushes received' });
		const notification = pushes.locator('[data-kind="notification"]');
		await expect(notification).toContainText('Alice');
		await expect(notification).toContainText('See you at 8 <b>sharp</b>');
		await expect(notification).toContainText('Chime (s2.caf)');
		await expect(notification).toContainText('4');
		await expect(notification).toContainText('alice');
		await expect(notification).toContainText('Mobile platform A, version 13 or later');
		await expect(notification).toContainText('sms_id "msg-17"');

		// An older device gets a silent push and a fetch; without Id it warns of a double notification.
		await post(`${pushUrl}/pnm2/send`, {
			verb: 'NotifyTextMessage',
			AppId: 'com.provider.app',
			DeviceToken: 'token-other',
			Selector: SELECTOR,
			Message: 'Hi'
		});
		const fetch = pushes.locator('[data-kind="background-fetch"]');
		await expect(fetch).toContainText('Silent push');
		await expect(fetch).toContainText('Mobile platform B');
		await expect(fetch).toContainText('notified twice');

		// A form post from a server is refused whole, with the row of the Errors table.
		const form = await post(
			`${pushUrl}/pnm2/send`,
			'verb=NotifyReprovision',
			'application/x-www-form-urlencoded'
		);
		expect(form.status).toBe(400);
		const refused = pushes.locator('[data-outcome="bad_request"]');
		await expect(refused).toContainText('lacks the proper Content-Type');
		await expect(refused).toContainText('application/x-www-form-urlencoded');

		// A multisend: element 1 misses its DeviceToken and is refused alone; a reprovision reloads.
		const list = await post(`${pushUrl}/pnm2/multisend`, [
			{
				verb: 'NotifyReprovision',
				AppId: 'com.provider.app',
				DeviceToken: 'x',
				Selector: SELECTOR
			},
			{ verb: 'NotifyGenericTextMessage', AppId: 'com.provider.app', Message: 'Sale' }
		]);
		expect((list.body as { status: number }[]).map((o) => o.status)).toEqual([200, 400]);
		await expect(pushes.locator('[data-kind="reprovision"]')).toContainText(
			'Configuration reloaded'
		);
		const missing = pushes.locator('[data-outcome="missing_core_attribute"]');
		await expect(missing).toContainText('Element 1');
		await expect(missing).toContainText('Missing attribute among verb, AppId, DeviceToken');
		await expect(missing).toContainText('DeviceToken');
		await expectAccessible(page);

		// After a reload the pushes are still there, newest first.
		await page.reload();
		await expect(pushes.getByRole('article')).toHaveCount(4);
		await expect(pushes.getByRole('article').first()).toContainText('/pnm2/multisend');
	});

	test('a new push URL replaces the old one at once', async ({ page }) => {
		page.on('dialog', (dialog) => dialog.accept());
		await page.goto('/sandboxes');
		await page.getByLabel('Name', { exact: true }).fill(uniqueName('Rotated'));
		await page.getByRole('button', { name: 'Create sandbox' }).click();
		const old = (await page.getByTestId('push-url').textContent())!;
		await page.getByRole('button', { name: 'New push URL' }).click();
		await expect(page.getByTestId('push-url')).not.toHaveText(old);
		const fresh = (await page.getByTestId('push-url').textContent())!;
		const push = { verb: 'NotifyReprovision', AppId: 'a', DeviceToken: 'd', Selector: SELECTOR };
		expect((await post(`${old}/pnm2/send`, push)).status).toBe(404);
		expect((await post(`${fresh}/pnm2/send`, push)).status).toBe(200);
	});
});
