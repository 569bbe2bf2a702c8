import {
	createProfile,
	createSink,
	holdChunk,
	expect,
	expectAccessible,
	test,
	uniqueName
} from './fixtures';

test.describe('test calls and echo sinks', () => {
	test('a test call to a sink shows the response, what the caller does, and the sink sees it live', async ({
		page,
		context
	}) => {
		page.on('dialog', (dialog) => {
			throw new Error(`A dialog opened: ${dialog.message()}`);
		});
		const address = await createSink(page, uniqueName('Credit sink'));

		const payload = '<img src=x onerror=alert(1)>';
		await page.getByLabel('Status').fill('402');
		await page.getByLabel('Content type').fill('application/json');
		await page.getByLabel('Body').fill(JSON.stringify({ message: `No credit ${payload}` }));
		await page.getByRole('button', { name: 'Save the answer' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'now answers 402' })).toBeVisible();
		await expectAccessible(page);

		// The sink's page stays open in another tab and lists requests as they arrive.
		const sinkPage = await context.newPage();
		await sinkPage.goto(page.url());
		await expect(sinkPage.getByText('Live: new requests appear here.')).toBeVisible();

		await page.goto('/services/sendMessage');
		const url = page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		await url.click();
		await page.keyboard.type(`${address}send?to=%sms_to%`);
		await page.keyboard.press('Escape');
		await page.keyboard.press('Control+Enter');

		const panel = page.getByRole('region', { name: 'Test call' });
		const caller = panel.getByRole('region', { name: 'What the caller does' });
		await expect(caller).toContainText('Failure');
		await expect(caller).toContainText(`The user sees: No credit ${payload}`);
		await expect(panel.getByText('402', { exact: true })).toBeVisible();
		await expect(panel.getByLabel('Response body')).toContainText(
			`"message": "No credit ${payload}"`
		);
		await expect(url).toHaveText(`${address}send?to=%sms_to%`);
		await expect(page.locator('img[src="x"]')).toHaveCount(0);

		await expect(sinkPage.getByRole('list', { name: 'Received requests' })).toContainText(
			'/send?to=%2B14155550123'
		);
		await expect(sinkPage.getByText('test call').first()).toBeVisible();

		await panel.getByRole('button', { name: 'Raw' }).click();
		await expect(panel.getByLabel('Response body')).toHaveText(
			JSON.stringify({ message: `No credit ${payload}` })
		);
		await expectAccessible(page);
		await page.emulateMedia({ colorScheme: 'dark' });
		await expectAccessible(page);
	});

	test('a refused call says which rule and address, and the history reopens it', async ({
		page
	}) => {
		await page.goto('/services/pushTokenReporter');
		await page.getByRole('textbox', { name: /^URL/ }).click();
		await page.keyboard.type('http://169.254.169.254/latest/meta-data/');
		await page.keyboard.press('Escape');
		const panel = page.getByRole('region', { name: 'Test call' });
		await panel.getByRole('button', { name: 'Send' }).click();
		await expect(panel.getByRole('alert')).toContainText('blocked_address');
		await expect(panel.getByRole('alert')).toContainText(
			'169.254.169.254 is a cloud metadata address'
		);

		await page.reload();
		const history = panel.getByText(/Your test calls of this service/);
		await history.click();
		await panel
			.getByRole('listitem')
			.filter({ hasText: '169.254.169.254' })
			.first()
			.getByRole('button')
			.click();
		await expect(panel.getByText(/Reopened from your history/)).toBeVisible();
		await expect(panel.getByRole('alert')).toContainText('cloud metadata address');
	});

	test('from the profile editor, two recipients give two test calls to a sink', async ({
		page
	}) => {
		const address = await createSink(page, uniqueName('Recipients sink'));
		const sinkUrl = page.url();

		const id = await createProfile(page, uniqueName('Calls'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		await page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' }).click();
		await page.keyboard.type(`${address}send?to=%sms_to%`);
		await page.keyboard.press('Escape');
		await page.getByLabel('Scenario', { exact: true }).selectOption({ label: 'Two recipients' });
		await page.keyboard.press('Control+Enter');

		const panel = page.getByRole('region', { name: 'Test call' });
		const responses = panel.getByRole('tablist', { name: 'Responses' }).getByRole('tab');
		await expect(responses).toHaveCount(2);
		await expect(panel.getByRole('region', { name: 'What the caller does' })).toContainText(
			'Success'
		);
		await page.goto(sinkUrl);
		const received = page.getByRole('list', { name: 'Received requests' });
		await expect(received).toContainText('/send?to=%2B14155550123');
		await expect(received).toContainText('/send?to=%2B447700900456');
	});

	test('Ctrl+Enter pressed before the test-call panel has loaded sends once it is there', async ({
		page
	}) => {
		const address = await createSink(page, uniqueName('Early sink'));
		const id = await createProfile(page, uniqueName('Early call'));

		// The panel's code is held back until the shortcut has been pressed, whenever it is asked for.
		const release = await holdChunk(page, 'testcall-title');
		await page.goto(`/profiles/${id}/services/sendMessage`);
		await page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' }).click();
		await page.keyboard.type(`${address}early`);
		await page.keyboard.press('Escape');
		await page.keyboard.press('Control+Enter');
		const panel = page.getByRole('region', { name: 'Test call' });
		await expect(panel).toHaveCount(0);
		// The shortcut did not reach the editor: no line break was inserted into the URL.
		await expect(page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' })).toHaveText(
			`${address}early`
		);
		release();
		await expect(panel.getByRole('region', { name: 'What the caller does' })).toContainText(
			'Success'
		);
		await expect(panel.locator('.sent code')).toHaveText(`${address}early`);
		await expect(
			panel.getByRole('group').getByText('Your test calls of this service (1)')
		).toHaveCount(1);
	});

	test("a profile with no named scenario keeps its test calls in the service's history", async ({
		page
	}) => {
		const address = await createSink(page, uniqueName('No scenario sink'));
		// Made through the API, a profile starts with no named scenario.
		const made = await page.request.post('/api/profiles', {
			headers: { origin: new URL(page.url()).origin },
			data: { name: uniqueName('No scenario') }
		});
		expect(made.status()).toBe(201);
		const { profile } = (await made.json()) as { profile: { id: string } };

		await page.goto(`/profiles/${profile.id}/services/sendMessage`);
		await expect(page.getByText('No named scenario yet')).toBeVisible();
		await page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' }).click();
		await page.keyboard.type(`${address}none`);
		await page.keyboard.press('Escape');
		const panel = page.getByRole('region', { name: 'Test call' });
		await panel.getByRole('button', { name: 'Send' }).click();
		await expect(panel.getByRole('region', { name: 'What the caller does' })).toContainText(
			'Success'
		);
		const history = panel.getByRole('group').getByText('Your test calls of this service (1)');
		await expect(history).toHaveCount(1);
		await page.reload();
		await expect(history).toHaveCount(1);
	});

	test('a slow answer shows the elapsed time and can be cancelled; a quick one its headers, timings and XML', async ({
		page
	}) => {
		const address = await createSink(page, uniqueName('Slow sink'));
		const sinkUrl = page.url();
		await page.getByLabel('Delay (milliseconds)').fill('20000');
		await page.getByRole('button', { name: 'Save the answer' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'now answers' })).toBeVisible();

		const openWithSink = async () => {
			await page.goto('/services/pushTokenReporter');
			await page.getByRole('textbox', { name: /^URL/ }).click();
			await page.keyboard.type(`${address}tokens`);
			await page.keyboard.press('Escape');
		};
		await openWithSink();
		const panel = page.getByRole('region', { name: 'Test call' });
		await panel.getByRole('button', { name: 'Send' }).click();
		const progress = panel.getByRole('status').filter({ hasText: 'Sending…' });
		await expect(progress).toContainText(/Sending… [1-9]\.\d s/);
		await panel.getByRole('button', { name: 'Cancel' }).click();
		await expect(panel.getByRole('alert')).toContainText('Cancelled.');
		await expect(progress).toHaveCount(0);

		await page.goto(sinkUrl);
		await page.getByLabel('Delay (milliseconds)').fill('0');
		await page.getByLabel('Content type').fill('application/xml');
		await page.getByLabel('Body').fill('<response><ok>yes</ok></response>');
		await page.getByRole('button', { name: 'Save the answer' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'now answers' })).toBeVisible();

		await openWithSink();
		await page.keyboard.press('Control+Enter');
		await expect(panel.getByText('200', { exact: true })).toBeVisible();
		await expect(panel.getByLabel('Response body')).toHaveText(
			'<response>\n  <ok>yes</ok>\n</response>'
		);
		await panel.getByText(/^Headers \(/).click();
		await expect(panel.getByRole('table', { name: 'Response headers' })).toContainText(
			'application/xml'
		);
		await panel.getByText('Timings').click();
		await expect(panel.locator('dl.timings')).toContainText('ms');
		await expectAccessible(page);
	});
});
