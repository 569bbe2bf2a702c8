import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { readBySecondParser } from '../helpers/xml';
import {
	createProfile,
	expect,
	expectAccessible,
	test,
	uniqueName,
	watchClipboard
} from './fixtures';

/** Export, import with review, the portal field sheet, and backups, as an admin uses them. */

const SMS_URL = 'https://sms.example.com/send?to=%sms_to%&body=%sms_body%';

async function saveServices(page: Page, id: string, services: object): Promise<void> {
	const response = await page.request.put(`/api/profiles/${id}`, {
		headers: { origin: new URL(page.url()).origin },
		data: { baseRevision: 1, document: { services } }
	});
	expect(response.status()).toBe(200);
}

async function headRevision(page: Page, id: string): Promise<number> {
	return (await (await page.request.get(`/api/profiles/${id}`)).json()).profile.headRevision;
}

test.describe('XML export and import', () => {
	test('exports the XML as a download and to the clipboard, in both forms', async ({
		page,
		context
	}) => {
		await context.grantPermissions(['clipboard-read', 'clipboard-write']);
		const id = await createProfile(page, uniqueName('Export'));
		await saveServices(page, id, { sendMessage: { genericSmsSendUrl: SMS_URL } });
		await page.goto(`/profiles/${id}`);
		await page.getByRole('link', { name: 'Export XML' }).click();
		await expect(page.getByRole('heading', { level: 1 })).toContainText('as XML');

		const escaped = 'https://sms.example.com/send?to=%sms_to%&amp;body=%sms_body%';
		const output = page.getByRole('textbox', { name: /Additional provisioning XML/ });
		await expect(output).toHaveValue(
			new RegExp(`<core>\\s*<genericSmsSendUrl>${escapeRe(escaped)}`)
		);

		const [download] = await Promise.all([
			page.waitForEvent('download'),
			page.getByRole('link', { name: 'Download XML' }).click()
		]);
		expect(download.suggestedFilename()).toMatch(/-provisioning\.xml$/);
		const file = await readFile((await download.path())!, 'utf8');
		expect(file).toBe(await output.inputValue());
		readBySecondParser(file);

		const copied = await watchClipboard(page);
		await page.getByRole('button', { name: 'Copy XML' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
		expect(await copied()).toBe(file);

		await page.getByRole('link', { name: /Account document/ }).click();
		const account = page.getByRole('textbox', { name: /Account document/ });
		await expect(account).toHaveValue(/^<\?xml[^>]*\?>\n<account>\n\t<genericSmsSendUrl>/);
		expect(readBySecondParser(await account.inputValue()).documentElement.tagName).toBe('account');
	});

	test('imports pasted XML: review, apply, and the values are in the editor', async ({ page }) => {
		const id = await createProfile(page, uniqueName('Import'));
		await page.goto(`/profiles/${id}`);
		await page.getByRole('link', { name: 'Import XML' }).click();
		await page
			.getByRole('textbox', { name: 'XML', exact: true })
			.fill(
				'<account>\n<genericSmsSendUrl>https://imported.example.com/?pin=007</genericSmsSendUrl>\n<genericSmsPostData>to=%sms_to%</genericSmsPostData>\n<codec>opus</codec>\n</account>'
			);
		await page.getByRole('button', { name: 'Review the changes' }).click();

		const changes = page.getByRole('table', { name: /What will change/ });
		await expect(changes.getByRole('row', { name: 'Send Message · URL Added' })).toContainText(
			'https://imported.example.com/?pin=007'
		);
		await expect(
			changes.getByRole('row', { name: 'Send Message · Post data Added' })
		).toContainText('to=%sms_to%');
		await expect(
			changes
				.getByRole('row')
				.filter({ hasText: 'Kept XML element <codec> in provisioning/account/core' })
		).toContainText('<codec>opus</codec>');
		await expect(changes).not.toContainText(/services\.|preservedXml|#\d/);
		await expect(page.getByText(/<genericSmsPostData> \(line 3\) is deprecated/)).toBeVisible();
		await expect(page.getByText(/One account value \(<codec>\) is kept as written/)).toBeVisible();
		await expectAccessible(page);

		await page.getByRole('button', { name: 'Apply as a new revision' }).click();
		await expect(page.getByRole('status')).toContainText('Imported as revision 2.');
		await page.getByRole('link', { name: 'Edit the services' }).click();
		await expect(page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' })).toHaveText(
			'https://imported.example.com/?pin=007'
		);
		await expect(
			page.getByRole('textbox', { name: 'Post data (genericSmsSendPostData)' })
		).toHaveText('to=%sms_to%');

		const exported = await (
			await page.request.get(`/api/profiles/${id}/export.xml?form=account`)
		).text();
		expect(exported).toContain('\t<codec>opus</codec>\n');
		readBySecondParser(exported);
	});

	test('a conflict must be chosen; cancel leaves the profile unchanged', async ({ page }) => {
		const id = await createProfile(page, uniqueName('Cancel'));
		await page.goto(`/profiles/${id}/import`);
		await page
			.getByRole('textbox', { name: 'XML', exact: true })
			.fill(
				'<genericSmsPostData>old=1</genericSmsPostData><genericSmsSendPostData>new=1</genericSmsSendPostData>'
			);
		await page.getByRole('button', { name: 'Review the changes' }).click();
		const choice = page.getByRole('group', {
			name: 'Choose the value of Send Message · Post data'
		});
		await expect(choice.getByRole('radio')).toHaveCount(2);
		await page.getByRole('button', { name: 'Apply as a new revision' }).click();
		await expect(page.getByRole('alert')).toContainText('cannot be applied');
		await expect(
			page.getByText('Choose a value for Send Message · Post data (2 were given).')
		).toBeVisible();

		await page.getByRole('link', { name: 'Cancel', exact: true }).click();
		await expect(page).toHaveURL(new RegExp(`/profiles/${id}$`));
		expect(await headRevision(page, id)).toBe(1);
	});

	test('an uploaded file is reviewed with its other changes, a conflict chosen, and applied', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Upload'));
		await page.goto(`/profiles/${id}/import`);
		const xml =
			'<provisioning><account><core>' +
			'<genericSmsPostData>old=1</genericSmsPostData>' +
			'<genericSmsSendPostData>new=1</genericSmsSendPostData>' +
			'<pushTokenReporterUrl>https://push.example.com/t</pushTokenReporterUrl>' +
			'</core></account></provisioning>';
		await page.getByLabel('XML file').setInputFiles({
			name: 'additional.xml',
			mimeType: 'application/xml',
			buffer: Buffer.from(xml)
		});
		await page.getByRole('button', { name: 'Review the changes' }).click();
		await expect(page.getByRole('table', { name: /What will change/ })).toContainText(
			'Push Token Reporter · URL'
		);
		const choice = page.getByRole('group', {
			name: 'Choose the value of Send Message · Post data'
		});
		await choice.getByRole('radio').nth(1).check();
		await page.getByRole('button', { name: 'Apply as a new revision' }).click();
		await expect.poll(() => headRevision(page, id)).toBe(2);
		await page.goto(`/profiles/${id}/services/sendMessage`);
		await expect(
			page.getByRole('textbox', { name: 'Post data (genericSmsSendPostData)' })
		).toHaveText('new=1');
	});

	test('a character XML cannot carry is an error in the editor before export', async ({ page }) => {
		const id = await createProfile(page, uniqueName('Control'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		const body = page.getByRole('textbox', { name: 'Post data (genericSmsSendPostData)' });
		await body.click();
		await body.evaluate((element) => {
			const data = new DataTransfer();
			data.setData('text/plain', 'text=a\u0001b');
			element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
		});
		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview.getByRole('listitem').filter({ hasText: 'U+0001' })).toContainText(
			'cannot be written in XML 1.0'
		);
		await expect(page.locator('.cm-lintRange-error')).not.toHaveCount(0);
	});

	test('invalid XML is refused with its line and column, nothing saved', async ({ page }) => {
		const id = await createProfile(page, uniqueName('Invalid'));
		await page.goto(`/profiles/${id}/import`);
		await page
			.getByRole('textbox', { name: 'XML', exact: true })
			.fill('<account>\n  <genericSmsSendUrl>https://x/?a=1&b=2</genericSmsSendUrl>\n</account>');
		await page.getByRole('button', { name: 'Review the changes' }).click();
		await expect(page.getByRole('alert')).toContainText('The XML cannot be read.');
		await expect(page.getByRole('list', { name: 'Problems found' })).toContainText(
			'(line 2, column 36)'
		);
		await expect(page.getByRole('textbox', { name: 'XML', exact: true })).toHaveValue(/a=1&b=2/);
		await expectAccessible(page);
		expect(await headRevision(page, id)).toBe(1);
	});

	test('a value with a script payload is shown as text, never run', async ({ page }) => {
		page.on('dialog', () => {
			throw new Error('A dialog opened: a payload ran.');
		});
		const id = await createProfile(page, uniqueName('Payload'));
		await page.goto(`/profiles/${id}/import`);
		const payload = '<img src=x onerror=alert(1)><script>alert(2)</script>';
		await page
			.getByRole('textbox', { name: 'XML', exact: true })
			.fill(`<genericSmsSendPostData><![CDATA[${payload}]]></genericSmsSendPostData>`);
		await page.getByRole('button', { name: 'Review the changes' }).click();
		await expect(page.getByRole('table', { name: /What will change/ })).toContainText(payload);
	});
});

test.describe('portal field sheet and backups', () => {
	test('lists the portal fields with copy buttons and a Markdown download', async ({ page }) => {
		const id = await createProfile(page, uniqueName('Portal'));
		await saveServices(page, id, {
			externalAuth: { externalAuthUrl: 'https://auth.example.com/check?u=%username%' }
		});
		await page.goto(`/profiles/${id}`);
		await page.getByRole('link', { name: 'Portal field sheet' }).click();
		const step = page.getByRole('region', { name: 'Portal: Provisioning Options (step 2)' });
		await expect(step.getByRole('row', { name: /External Authentication: URL/ })).toContainText(
			'https://auth.example.com/check?u=%username%'
		);
		await expect(
			page.getByRole('region', { name: 'Portal: White-label configuration' })
		).toContainText('Phone Number Verifier: Post data');
		await expect(
			step.getByRole('button', { name: 'Copy External Authentication URL' })
		).toBeVisible();
		const [download] = await Promise.all([
			page.waitForEvent('download'),
			page.getByRole('link', { name: 'Download as Markdown' }).click()
		]);
		const markdown = await readFile((await download.path())!, 'utf8');
		expect(markdown).toContain('```text\nhttps://auth.example.com/check?u=%username%\n```');
		await expectAccessible(page);
	});

	test('restores a downloaded backup after a review, and an admin downloads one with secrets', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Backup'));
		await saveServices(page, id, { sendMessage: { genericSmsSendUrl: SMS_URL } });
		await page.goto(`/profiles/${id}/backup`);
		const [download] = await Promise.all([
			page.waitForEvent('download'),
			page.getByRole('link', { name: 'Download backup', exact: true }).click()
		]);
		const backup = await download.path();

		const withSecrets = page.getByRole('button', { name: 'Download backup with secrets' });
		await expect(withSecrets).toBeDisabled();
		await page.getByLabel(/Include secret values/).check();
		const [secretDownload] = await Promise.all([
			page.waitForEvent('download'),
			withSecrets.click()
		]);
		expect(secretDownload.suggestedFilename()).toMatch(/-backup-with-secrets\.json$/);

		const changed = await page.request.put(`/api/profiles/${id}`, {
			headers: { origin: new URL(page.url()).origin },
			data: {
				baseRevision: 2,
				document: { services: { sendMessage: { genericSmsSendUrl: 'https://changed/' } } }
			}
		});
		expect(changed.status()).toBe(200);

		await page.getByLabel('Backup file').setInputFiles(backup!);
		await page.getByRole('button', { name: 'Review the changes' }).click();
		await expect(page.getByRole('table', { name: /What will change/ })).toContainText(SMS_URL);
		await expectAccessible(page);
		await page.getByRole('button', { name: 'Apply as a new revision' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'Restored' })).toContainText(
			'Restored as revision 4.'
		);
		const head = await (await page.request.get(`/api/profiles/${id}`)).json();
		expect(head.profile.document.services.sendMessage.genericSmsSendUrl).toBe(SMS_URL);
	});
});

function escapeRe(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
