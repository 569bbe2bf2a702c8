import {
	createProfile,
	expect,
	expectAccessible,
	holdChunk,
	test,
	uniqueName,
	watchClipboard
} from './fixtures';
import type { Page } from '@playwright/test';

/** Types into a template editor (CodeMirror) at the end of its text. */
async function typeInto(page: Page, name: string, text: string) {
	const field = page.getByRole('textbox', { name });
	await field.click();
	await page.keyboard.press('Control+End');
	await page.keyboard.type(text);
	await page.keyboard.press('Escape');
}

const URL_FIELD = 'URL (genericSmsSendUrl)';
const BODY_FIELD = 'Post data (genericSmsSendPostData)';

/** Pastes `text` into the body's editor as a clipboard paste would (a large text in one go). */
async function pasteIntoBody(page: Page, text: string) {
	const body = page.getByRole('textbox', { name: BODY_FIELD });
	await body.click();
	await body.evaluate((element, value) => {
		const data = new DataTransfer();
		data.setData('text/plain', value);
		element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
	}, text);
}

test.describe('editor journeys', () => {
	test('named scenarios: two recipients give two requests, a third line a third', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Scenarios'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		await typeInto(page, URL_FIELD, 'https://sms.example.com/send?to=%sms_to%');

		const scenario = page.getByLabel('Scenario', { exact: true });
		await expect(scenario.locator('option')).toHaveText([
			'Text message',
			'Media message',
			'Disposition notification',
			'Two recipients'
		]);
		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview.getByRole('status')).toContainText('1 request ·');

		await scenario.selectOption({ label: 'Two recipients' });
		await expect(preview.getByRole('status')).toContainText('2 requests ·');
		const tabs = preview.getByRole('tab');
		await expect(tabs).toHaveText(['Request 1 → +14155550123', 'Request 2 → +447700900456']);
		await tabs.nth(1).click();
		await expect(preview.getByLabel('URL')).toHaveText(
			'https://sms.example.com/send?to=%2B447700900456'
		);

		const recipients = page.getByRole('textbox', { name: '%sms_to%' });
		await recipients.press('End');
		await recipients.pressSequentially('\n+33612345678');
		await expect(preview.getByRole('status')).toContainText('3 requests ·');

		await scenario.selectOption({ label: 'Media message' });
		await expect(preview.getByRole('status')).toContainText('1 request ·');
		await typeInto(page, URL_FIELD, '&type=%content_type%');
		await expect(preview.getByLabel('URL')).toContainText(
			'type=application%2Fx-acro-filetransfer%2Bjson'
		);

		await page.getByLabel('New scenario from').selectOption({ label: 'Blank (catalogue samples)' });
		await page.getByRole('button', { name: 'Add scenario' }).click();
		await expect(scenario).toHaveValue('4');
		await page.getByRole('button', { name: 'Rename…' }).click();
		await page.getByLabel('New name of the scenario').fill('Text message');
		await page.getByRole('button', { name: 'Rename', exact: true }).click();
		await expect(page.getByRole('alert')).toHaveText('Another scenario is named "Text message".');
		await page.getByLabel('New name of the scenario').fill('Night shift');
		await page.getByRole('button', { name: 'Rename', exact: true }).click();
		await expect(scenario.locator('option:checked')).toHaveText('Night shift');

		await page.keyboard.press('Control+s');
		await expect(page.getByText('revision 2', { exact: true })).toBeVisible();
		await page.reload();
		await expect(scenario.locator('option')).toHaveCount(5);
		await expectAccessible(page);

		// A blank scenario alone (no values of its own) is a change to save too.
		await page.getByLabel('New scenario from').selectOption({ label: 'Blank (catalogue samples)' });
		await page.getByRole('button', { name: 'Add scenario' }).click();
		await expect(page.getByText('Unsaved changes')).toBeVisible();
		await page.keyboard.press('Control+s');
		await expect(page.getByText('revision 3', { exact: true })).toBeVisible();
		await page.reload();
		await expect(scenario.locator('option')).toHaveCount(6);
	});

	test('save, reload, compare and restore an older revision from the editor', async ({ page }) => {
		const id = await createProfile(page, uniqueName('Revisions'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		await typeInto(page, URL_FIELD, 'https://old.example.com/send');
		await page.getByLabel('Message').fill('first server');
		await page.keyboard.press('Control+s');
		await expect(page.getByText('revision 2', { exact: true })).toBeVisible();

		const url = page.getByRole('textbox', { name: URL_FIELD });
		await url.click();
		await page.keyboard.press('Control+a');
		await page.keyboard.type('https://new.example.com/send');
		await page.keyboard.press('Control+s');
		await expect(page.getByText('revision 3', { exact: true })).toBeVisible();
		await page.reload();
		await expect(url).toHaveText('https://new.example.com/send');

		await page.getByRole('button', { name: 'Revisions' }).click();
		const drawer = page.getByRole('complementary', { name: 'Revisions' });
		await expect(drawer.getByText('first server')).toBeVisible();
		await drawer.getByRole('button', { name: 'Compare revision 2 with the draft' }).click();
		const compared = drawer.getByRole('region', { name: 'Revision 2 → your draft' });
		await expect(compared.getByRole('row').nth(1)).toContainText('Send Message · URL');
		await expect(compared).toContainText('https://old.example.com/send');
		await expectAccessible(page);

		page.once('dialog', (dialog) => dialog.accept());
		await drawer.getByRole('button', { name: 'Restore revision 2' }).click();
		await expect(page.getByText('revision 4', { exact: true })).toBeVisible();
		await expect(url).toHaveText('https://old.example.com/send');
		await page.reload();
		await expect(url).toHaveText('https://old.example.com/send');
		await expect(page.getByText('Unsaved changes')).toHaveCount(0);
	});

	test('raw substitution marks what would break, and the body has a pretty view', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Raw'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		await typeInto(page, URL_FIELD, 'https://sms.example.com/send?to=%sms_too%&x=1');
		const diagnostics = page.getByRole('region', { name: 'Request preview' }).getByRole('listitem');
		const unknown = diagnostics.filter({ hasText: 'sms_too' });
		// Jump to source selects the placeholder in its editor: typing replaces it.
		await unknown.getByRole('button', { name: 'genericSmsSendUrl' }).click();
		await page.keyboard.type('%sms_to%');
		await expect(page.getByRole('textbox', { name: URL_FIELD })).toHaveText(
			'https://sms.example.com/send?to=%sms_to%&x=1'
		);
		await expect(unknown).toHaveCount(0);
		await page.getByLabel('Content type genericSmsSendContentType').fill('application/json');
		await typeInto(page, BODY_FIELD, '{"to":"%sms_to%","text":"%sms_body%"}');

		const preview = page.getByRole('region', { name: 'Request preview' });
		await preview.getByRole('button', { name: 'Pretty' }).click();
		await expect(preview.getByLabel('Body (pretty)')).toContainText(
			'{\n  "to": "+14155550123",\n  "text": "Tom said \\"meet at 7'
		);
		await preview.getByRole('button', { name: 'Exact' }).click();
		await expect(preview.getByLabel('Body', { exact: true })).toContainText(
			'{"to":"+14155550123","text":"Tom said \\"meet'
		);

		await page.getByLabel(/Raw substitution/).check();
		await expect(preview).toContainText(
			'Raw substitution: %sms_body% goes in unescaped, but "\\"", "\\n" must be JSON string escaped here'
		);
		// The body's %sms_body% has a quote and a newline; the URL's %sms_to% has a "+".
		const broken = preview.getByLabel('Body', { exact: true }).locator('mark.breaks');
		await expect(broken).toHaveCount(1);
		await expect(preview.getByLabel('URL').locator('mark.breaks')).toHaveCount(1);
		await expect(broken).toHaveAttribute('title', /%sms_body% .*breaks this spot/);
	});

	test('the External Authentication panel follows the URL priority and the skip flag', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('SSO'));
		await page.goto(`/profiles/${id}/services/extSSOProv`);
		const panel = page.getByRole('region', {
			name: 'How the SSO server resolves External Authentication'
		});
		await expect(panel).toContainText('None is set');

		await typeInto(
			page,
			'Initial provisioning URL (initialProvisioningUrl)',
			'https://prov.example.com/i'
		);
		await expect(panel.getByRole('listitem').nth(2)).toContainText('← called');
		await typeInto(page, 'Reprovisioning URL (reprovisioningUrl)', 'https://prov.example.com/re');
		await expect(panel.getByRole('listitem').nth(1)).toContainText('← called');
		await expect(panel.getByRole('listitem').nth(2)).not.toContainText('← called');

		const username = panel.getByRole('listitem').filter({ hasText: '%username%' });
		await expect(username).toContainText("the device's cloud username");
		await panel
			.getByLabel('The account document that URL answers (optional)')
			.fill('<account><username>1001</username></account>');
		await expect(username).toContainText('1001');
		await expect(username).toContainText('the username tag of the account document');
		await panel.getByRole('button', { name: 'Use these values in the scenario' }).click();
		await expect(page.getByRole('textbox', { name: '%username%' })).toHaveValue('1001');

		await page.getByLabel(/Skip on SSO/).check();
		await expect(panel).toContainText('externalProvisioningOnSSODisabled is 1');
		await expect(username).toContainText("the device's cloud username");
		await expectAccessible(page);

		await page.goto(`/profiles/${id}/services/externalAuth`);
		await expect(
			page.getByRole('region', { name: 'How the SSO server resolves External Authentication' })
		).toBeVisible();
	});

	test('the profile switcher opens the same service in another profile', async ({ page }) => {
		const first = uniqueName('First');
		const second = uniqueName('Second');
		const firstId = await createProfile(page, first);
		const secondId = await createProfile(page, second);
		await page.goto(`/profiles/${firstId}/services/pushTokenReporter`);
		await page.getByLabel('Profile', { exact: true }).selectOption({ label: second });
		await page.waitForURL(`**/profiles/${secondId}/services/pushTokenReporter`);
		await expect(page.getByLabel('Profile', { exact: true }).locator('option:checked')).toHaveText(
			second
		);

		await page.getByRole('link', { name: 'Media Reference Send' }).click();
		await expect(page.getByRole('note')).toContainText('Not yet supported by the client');
		await page.getByRole('link', { name: 'Send Message' }).click();
		await expect(page.getByRole('note')).toHaveCount(0);
	});

	test('a profile chosen before the page has come alive is opened once it has', async ({
		page
	}) => {
		const first = uniqueName('Early first');
		const second = uniqueName('Early second');
		const firstId = await createProfile(page, first);
		const secondId = await createProfile(page, second);
		// The app's entry is held back: the server-drawn page is there, its code is not.
		const release = await holdChunk(page, '', '**/_app/immutable/entry/**');
		await page.goto(`/profiles/${firstId}/services/pushTokenReporter`, {
			waitUntil: 'domcontentloaded'
		});
		await page.getByLabel('Profile', { exact: true }).selectOption({ label: second });
		release();
		await page.waitForURL(`**/profiles/${secondId}/services/pushTokenReporter`);
		await expect(page.getByLabel('Profile', { exact: true }).locator('option:checked')).toHaveText(
			second
		);
	});

	test('a long body is laid out as its preview is scrolled', async ({ page }) => {
		// A screenful is laid out per scroll: many scrolls, slow when both cores are busy.
		test.slow();
		await page.goto('/services/sendMessage');
		await typeInto(page, URL_FIELD, 'https://sms.example.com/send');
		const text = `start|${'y'.repeat(20_000)}|middle|${'z'.repeat(20_000)}|end`;
		await pasteIntoBody(page, text);
		const preview = page.getByRole('region', { name: 'Request preview' });
		const shown = preview.getByLabel('Body', { exact: true });
		await expect(preview).toContainText(`Body · ${text.length} bytes`);
		await expect(shown).toContainText('start|');
		await expect(shown).not.toContainText('|middle|');
		// Scrolling to the end of what is laid out lays out more, until the whole is there.
		for (const marker of ['|middle|', '|end']) {
			await expect(async () => {
				await shown.evaluate((element) => (element.scrollTop = element.scrollHeight));
				await expect(shown).toContainText(marker, { timeout: 250 });
			}).toPass({ intervals: [100] });
		}
		await expect(preview).not.toContainText('Showing the first');
	});

	test('a large body is previewed from its start, counted whole, and shown whole on request', async ({
		page
	}) => {
		await page.goto('/services/sendMessage');
		await typeInto(page, URL_FIELD, 'https://sms.example.com/send');
		const text = `${'x'.repeat(70_000)}|%sms_to%|end`;
		await pasteIntoBody(page, text);
		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview).toContainText('Body · 70019 bytes');
		await expect(preview).toContainText('Showing the first 64 K characters; 4483 more are sent.');
		await expect(preview.getByLabel('Body', { exact: true })).not.toContainText('|end');
		await preview.getByRole('button', { name: 'Show the whole body' }).click();
		await expect(preview.getByLabel('Body', { exact: true })).toContainText('|%2B14155550123|end');
		await expect(preview).not.toContainText('Showing the first');
	});

	test('a large body: every key reaches the preview exactly, values marked, the copy current', async ({
		page,
		context
	}) => {
		await context.grantPermissions(['clipboard-read', 'clipboard-write']);
		await page.goto('/services/sendMessage');
		await typeInto(page, URL_FIELD, 'https://sms.example.com/send');
		await page.getByLabel('Content type genericSmsSendContentType').fill('application/json');
		// About 300 KB of JSON with two values per line.
		const line = '{"to":"%sms_to%","text":"%sms_body%","pad":"0123456789abcdefghij"}';
		const text = `[{"note":"start"},\n${Array(4600).fill(line).join(',\n')}]`;
		await pasteIntoBody(page, text);
		const preview = page.getByRole('region', { name: 'Request preview' });
		const shown = preview.getByLabel('Body', { exact: true });
		await expect(shown).toContainText('{"note":"start"}');
		await page.keyboard.press('Control+Home');
		for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
		await page.keyboard.type('abc');
		await expect(shown).toContainText('{"note":"abcstart"}');
		// Counted whole, in UTF-8: the sample message has an emoji and escapes in every line.
		const sent = `${text.slice(0, 10)}abc${text.slice(10)}`
			.replaceAll('%sms_to%', '+14155550123')
			.replaceAll(
				'%sms_body%',
				JSON.stringify('Tom said "meet at 7 & bring snacks" 🎉\nOK?').slice(1, -1)
			);
		await expect(preview).toContainText(`Body · ${new TextEncoder().encode(sent).length} bytes`);
		const marks = shown.locator('mark.value');
		await expect(marks.first()).toHaveText('+14155550123');
		expect(await marks.count()).toBeGreaterThan(20);
		// The count can be the last body's while the worker reads this one: the copy waits for it.
		await expect(preview).toHaveAttribute('aria-busy', 'false');
		await expect(preview).toContainText('0 errors');
		const copied = await watchClipboard(page);
		// By keyboard: the preview may still move as its last lines are laid out, which a pointer's
		// press and release, computed from where the button was, can miss.
		await preview.getByRole('button', { name: 'Copy as cURL' }).focus();
		await page.keyboard.press('Enter');
		// What was copied, not the label's moment of "Copied": a busy machine can miss the moment.
		// The cURL writer loads on this first click and quotes 300 KB, so a loaded machine is slow.
		await expect.poll(copied, { timeout: 20_000 }).toContain('{"note":"abcstart"}');
		expect((await copied())!.length).toBeGreaterThan(300_000);
	});

	test('an XML body is shown unchecked and marked as updating until the XML reader has loaded, then checked', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('XML reader'));
		// The strict XML reader's code is held back, as on a slow connection.
		const release = await holdChunk(page, 'DOCTYPE declarations are not accepted');
		await page.goto(`/profiles/${id}/services/sendMessage`);
		await typeInto(page, URL_FIELD, 'https://sms.example.com/send');
		await page.getByLabel('Content type genericSmsSendContentType').fill('application/xml');
		// Pasted, not typed: the XML language, arriving meanwhile, would close the tags typed.
		await pasteIntoBody(page, '<sms><to>%sms_to%</to></sm>');
		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview.getByLabel('Body', { exact: true })).toContainText('</sm>');
		await expect(preview).toHaveAttribute('aria-busy', 'true');
		await expect(preview).toContainText('Updating…');
		await expect(preview).not.toContainText('not valid XML');
		await expect(preview.getByRole('button', { name: 'Copy as cURL' })).toBeDisabled();
		release();
		await expect(preview).toContainText('After expansion the body is not valid XML');
		await expect(preview).toHaveAttribute('aria-busy', 'false');
		await expect(preview).not.toContainText('Updating…');
		await expect(preview.getByRole('button', { name: 'Copy as cURL' })).toBeEnabled();
	});

	// Large bodies of both kinds are checked in a worker, as the server would read them.
	const largeBodies = [
		{
			kind: 'XML',
			contentType: 'application/xml',
			text: `<r><note>start</note>\n${'<m><to>%sms_to%</to><text>%sms_body%</text></m>\n'.repeat(1200)}</r>`,
			note: '<r><note>start',
			before: '<note>start</note>',
			after: '<note>started</note>',
			// A bare ampersand: the worker's verdict names where, as the check in place does.
			breaker: '&',
			where: /line 1, column \d+/
		},
		{
			kind: 'JSON',
			contentType: 'application/json',
			text: `[{"note":"start"},\n${Array(1200).fill('{"to":"%sms_to%","text":"%sms_body%"}').join(',\n')}]`,
			note: '[{"note":"start',
			before: '{"note":"start"}',
			after: '{"note":"started"}',
			breaker: '"',
			where: /check the template/
		}
	];
	for (const large of largeBodies) {
		test(`a large ${large.kind} body is checked off the page: typing is answered at once, the verdict follows`, async ({
			page
		}) => {
			const id = await createProfile(page, uniqueName(`Large ${large.kind}`));
			// The worker that checks large bodies is held back until the test lets it start.
			const release = await holdChunk(page, 'onmessage', '**/_app/immutable/workers/*.js');
			await page.goto(`/profiles/${id}/services/sendMessage`);
			await typeInto(page, URL_FIELD, 'https://sms.example.com/send');
			await page.getByLabel('Content type genericSmsSendContentType').fill(large.contentType);
			await pasteIntoBody(page, large.text);
			const preview = page.getByRole('region', { name: 'Request preview' });
			const shown = preview.getByLabel('Body', { exact: true });
			await expect(shown).toContainText(large.before);

			// A small body is read in place; this one waits for the worker, and says so.
			await expect(preview).toHaveAttribute('aria-busy', 'true');
			await expect(preview).toContainText('Updating…');
			await expect(preview.getByRole('button', { name: 'Copy as cURL' })).toBeDisabled();
			// Typing is answered meanwhile.
			const body = page.getByRole('textbox', { name: BODY_FIELD });
			await body.click();
			await page.keyboard.press('Control+Home');
			for (let i = 0; i < large.note.length; i++) await page.keyboard.press('ArrowRight');
			await page.keyboard.type('ed');
			await expect(shown).toContainText(large.after);
			await expect(preview).toHaveAttribute('aria-busy', 'true');

			release();
			await expect(preview).toHaveAttribute('aria-busy', 'false');
			await expect(preview).not.toContainText('Updating…');
			await expect(preview).not.toContainText(`not valid ${large.kind}`);

			await page.keyboard.type(large.breaker);
			await expect(preview).toContainText(`After expansion the body is not valid ${large.kind}`);
			await expect(preview).toContainText(large.where);
			await expect(preview).toHaveAttribute('aria-busy', 'false');
			await page.keyboard.press('Control+z');
			await expect(preview).not.toContainText(`not valid ${large.kind}`);
		});
	}

	test('a large XML body is checked in place when the worker cannot start', async ({ page }) => {
		await page.route('**/_app/immutable/workers/*.js', (route) => route.abort());
		await page.goto('/services/sendMessage');
		await typeInto(page, URL_FIELD, 'https://sms.example.com/send');
		await page.getByLabel('Content type genericSmsSendContentType').fill('application/xml');
		const unit = '<m><to>%sms_to%</to></m>\n';
		await pasteIntoBody(page, `<r>\n${unit.repeat(2000)}</r`);
		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview).toContainText('After expansion the body is not valid XML');
		await expect(preview).toHaveAttribute('aria-busy', 'false');
	});
});
