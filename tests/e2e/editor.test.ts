import { expect, expectAccessible, holdChunk, pickCompletion, test } from './fixtures';

test.describe('service editor', () => {
	test('completes a placeholder and the preview follows each keystroke', async ({ page }) => {
		await page.goto('/services/sendMessage');
		const url = page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		await url.click();
		await page.keyboard.type('https://sms.example.com/send?to=%sms');
		await pickCompletion(page, /%sms_to%/, url, 'https://sms.example.com/send?to=%sms_to%');

		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview.getByLabel('URL', { exact: true })).toHaveText(
			'https://sms.example.com/send?to=%2B14155550123'
		);
		await page.keyboard.type('&x=1');
		await expect(preview.getByLabel('URL', { exact: true })).toHaveText(
			'https://sms.example.com/send?to=%2B14155550123&x=1'
		);
	});

	test('typing is answered before the editing tools have loaded, and what was typed stays once they come', async ({
		page
	}) => {
		// The chunk of completion, lint and history is held back: the first keys must not need it.
		const release = await holdChunk(page, 'cm-completionLabel');
		await page.goto('/services/sendMessage');
		const url = page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		await url.click();
		await page.keyboard.type('https://sms.example.com/send?x=1');
		const preview = page.getByRole('region', { name: 'Request preview' });
		const shown = preview.getByLabel('URL', { exact: true });
		await expect(shown).toHaveText('https://sms.example.com/send?x=1');
		await page.keyboard.type('&to=%sms');
		await expect(url).toHaveText('https://sms.example.com/send?x=1&to=%sms');
		// No completion, and the unclosed placeholder is not marked in the field (the preview says it).
		const marks = page.locator('[data-field="genericSmsSendUrl"] .cm-lintRange');
		await expect(page.getByRole('listbox')).toHaveCount(0);
		await expect(preview).toContainText('is not closed');
		await expect(marks).toHaveCount(0);

		release();
		// Once they are there, the field marks it and the next key completes, on top of everything
		// typed before.
		await expect(marks).not.toHaveCount(0);
		await page.keyboard.type('_');
		await pickCompletion(page, /%sms_to%/, url, 'https://sms.example.com/send?x=1&to=%sms_to%');
		await expect(shown).toHaveText('https://sms.example.com/send?x=1&to=%2B14155550123');
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

	test('a keystroke reconfigures no editor; a new content type reconfigures the body', async ({
		page
	}) => {
		await page.goto('/services/sendMessage');
		await page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' }).click();
		await page.keyboard.type('https://sms.example.com/send?to=%sms_to%');
		await page.getByRole('button', { name: 'JSON body' }).click();
		const body = page.getByRole('textbox', { name: 'Post data (genericSmsSendPostData)' });
		await expect(body).toContainText('%sms_body%');
		// The editors' configurations as CodeMirror holds them: a reconfiguration makes a new one,
		// an edit keeps it. The view is reached from its DOM as CodeMirror's own findFromDOM does.
		const configurations = () =>
			page.evaluate(() => {
				type Held = { cmTile: { root: { view: { state: { config: object } } } } };
				const w = window as unknown as { configs?: object[] };
				const now = [...document.querySelectorAll('.cm-content')].map(
					(content) => (content as unknown as Held).cmTile.root.view.state.config
				);
				const same = now.map((config, i) => config === w.configs?.[i]);
				w.configs = now;
				return same;
			});
		// Once the page has settled (its tools and highlighting are in, which reconfigure every
		// editor once), two looks a while apart find the same configurations.
		await expect
			.poll(async () => {
				await page.waitForTimeout(400);
				return configurations();
			})
			.toEqual([true, true]);

		await body.click();
		await page.keyboard.press('Control+End');
		await page.keyboard.press('ArrowLeft');
		await page.keyboard.type(',"zq":1', { delay: 50 });
		const preview = page
			.getByRole('region', { name: 'Request preview' })
			.getByLabel('Body', { exact: true });
		await expect(preview).toContainText('"zq"');
		await page.waitForTimeout(300);
		expect(await configurations()).toEqual([true, true]);

		// A form body (its Content-Type with it): the body's values are encoded another way.
		await page.getByRole('button', { name: 'form body' }).click();
		await expect(preview).toContainText('sms_body=Tom+said');
		await page.waitForTimeout(300);
		expect(await configurations()).toEqual([true, false]);
	});

	test('has no accessibility violations', async ({ page }) => {
		await page.goto('/services/invitationAccepted');
		await expect(
			page.getByRole('heading', { level: 1, name: 'Invitation Accepted' })
		).toBeVisible();
		await expectAccessible(page);
	});
});
