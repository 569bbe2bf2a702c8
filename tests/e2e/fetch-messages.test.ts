import {
	atEveryWidthAndScheme,
	createJsonSink,
	expect,
	layoutScreenshot,
	test,
	uniqueName
} from './fixtures';

/**
 * Fetch Messages in the editor, at a phone's and a laptop's width, light and dark: its settings
 * with where their rules come from, the live preview, and a test call whose answer the panel
 * shows as messages by thread with the ids of the next call.
 */

const ANSWER = {
	date: '2026-03-01T10:00:00Z',
	received_smss: [
		{
			sms_id: 'Msg-7f3a9c22',
			sending_date: '2026-03-01T09:58:00Z',
			sender: '+14155550123',
			sms_text: 'On my way, with a long enough text to wrap on a phone screen',
			content_type: 'text/plain',
			stream_id: '+14155550123'
		},
		{
			sms_id: 'Msg-7f3a9c23',
			sending_date: '2026-03-01T09:59:00',
			sender: '+14155550199',
			sms_text: 'No time zone on this one',
			content_type: 'text/plain'
		}
	],
	sent_smss: []
};

test('Fetch Messages: edit, preview and a test call at 390 and 1440 px, light and dark', async ({
	page
}) => {
	const address = await createJsonSink(page, uniqueName('Fetch sink'), ANSWER);

	await atEveryWidthAndScheme(page, async (width, scheme) => {
		await page.goto('/services/fetchMessages');
		await expect(page.getByRole('heading', { level: 1, name: 'Fetch Messages' })).toBeVisible();

		// Where the rules come from: a mark with its reference, reachable from the keyboard.
		const mark = page.getByRole('button', {
			name: "Source: From the platform's public documentation: api/client/fetch_messages_modern."
		});
		await mark.focus();
		await expect(
			page.getByRole('tooltip').filter({ hasText: 'fetch_messages_modern' }).first()
		).toBeVisible();
		await expect(
			page.getByRole('button', { name: /^Source: From real providers' implementations/ }).first()
		).toBeVisible();

		const url = page.getByRole('textbox', { name: 'URL (genericSmsFetchUrl)' });
		await url.click();
		await page.keyboard.type(`${address}fetch?last=%last_known_sms_id%`);
		await page.keyboard.press('Escape');
		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview.getByLabel('URL')).toContainText('fetch?last=Msg-7f3a9c21');
		await expect(preview).toContainText('GET');

		await page.keyboard.press('Control+Enter');
		const panel = page.getByRole('region', { name: 'Test call' });
		const caller = panel.getByRole('region', { name: 'What the caller does' });
		await expect(caller).toContainText('The app shows 2 new messages in 2 threads');
		await expect(caller).toContainText('no time zone');
		const threads = caller.getByRole('table', { name: 'Messages by thread' });
		await expect(threads.getByRole('row')).toHaveCount(3);
		await expect(caller.getByText('Msg-7f3a9c23', { exact: true })).toBeVisible();

		await layoutScreenshot(page, caller, `fetch-messages-${width}-${scheme}`);
	});
});
