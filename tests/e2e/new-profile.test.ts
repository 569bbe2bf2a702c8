import type { Page } from '@playwright/test';
import { createProfile, expect, expectAccessible, test, uniqueName } from './fixtures';

/** A new profile three ways: empty, from provisioning XML (pasted or a file), from a backup. */

const SMS_URL = 'https://imported.example.com/send?to=%sms_to%';
const ACCOUNT_XML = `<account>\n<genericSmsSendUrl>${SMS_URL.replace('&', '&amp;')}</genericSmsSendUrl>\n<codec>opus</codec>\n</account>`;

/** The ids of the profiles (not deleted) with that name. */
async function profilesNamed(page: Page, name: string): Promise<string[]> {
	const { profiles } = (await (await page.request.get('/api/profiles')).json()) as {
		profiles: { id: string; name: string }[];
	};
	return profiles.filter((p) => p.name === name).map((p) => p.id);
}

async function startFrom(
	page: Page,
	name: string,
	source: 'Empty' | 'Provisioning XML' | 'JSON backup'
) {
	await page.goto('/profiles');
	const panel = page.getByRole('region', { name: 'New profile' });
	await panel.getByLabel('Name', { exact: true }).fill(name);
	await panel.getByRole('radio', { name: new RegExp(`^${source}`) }).check();
	return panel;
}

async function revisions(page: Page, id: string) {
	const answer = await (await page.request.get(`/api/profiles/${id}/revisions`)).json();
	return answer.revisions as { revision: number; message: string | null }[];
}

async function head(page: Page, id: string) {
	return (await (await page.request.get(`/api/profiles/${id}`)).json()).profile as {
		document: { services: Record<string, Record<string, string>> };
	};
}

test.describe('a new profile', () => {
	test('empty: created at once, with the standard scenarios', async ({ page }) => {
		const name = uniqueName('Empty');
		const panel = await startFrom(page, name, 'Empty');
		await expect(panel.getByRole('textbox', { name: 'XML', exact: true })).toHaveCount(0);
		await panel.getByRole('button', { name: 'Create profile' }).click();
		await page.waitForURL(/\/profiles\/[^/?]+\?created$/);
		const [id] = await profilesNamed(page, name);
		expect((await revisions(page, id)).map((r) => r.message)).toEqual(['Created']);
	});

	test('from pasted XML: reviewed first, created only when applied, holding the XML', async ({
		page
	}) => {
		const name = uniqueName('Pasted');
		const panel = await startFrom(page, name, 'Provisioning XML');
		await panel.getByRole('textbox', { name: 'XML', exact: true }).fill(ACCOUNT_XML);
		await panel.getByRole('button', { name: 'Review the new profile' }).click();

		const changes = page.getByRole('table', { name: /What will change/ });
		await expect(changes.getByRole('row', { name: 'Send Message · URL Added' })).toContainText(
			SMS_URL
		);
		await expect(changes).toContainText('<codec>opus</codec>');
		await expect(
			page.getByRole('heading', { name: `Review the new profile “${name}”` })
		).toBeVisible();
		await expectAccessible(page);
		// Reviewing created nothing.
		expect(await profilesNamed(page, name)).toEqual([]);

		await page.getByRole('button', { name: 'Create the profile' }).click();
		await page.waitForURL(/\/profiles\/[^/?]+\?created=xml$/);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
		await expect(page.getByRole('status')).toContainText('from the imported XML as revision 1');
		const [id] = await profilesNamed(page, name);
		expect((await head(page, id)).document.services.sendMessage.genericSmsSendUrl).toBe(SMS_URL);
		expect((await revisions(page, id)).map((r) => r.message)).toEqual(['Imported XML']);
		const exported = await (
			await page.request.get(`/api/profiles/${id}/export.xml?form=account`)
		).text();
		expect(exported).toContain('<codec>opus</codec>');
	});

	test('from pasted XML, cancelled after the review: nothing is created', async ({ page }) => {
		const name = uniqueName('Cancelled');
		const panel = await startFrom(page, name, 'Provisioning XML');
		await panel.getByRole('textbox', { name: 'XML', exact: true }).fill(ACCOUNT_XML);
		await panel.getByRole('button', { name: 'Review the new profile' }).click();
		await expect(page.getByRole('table', { name: /What will change/ })).toBeVisible();
		await page.getByRole('link', { name: 'Cancel', exact: true }).click();
		await expect(page.getByRole('table', { name: /What will change/ })).toHaveCount(0);
		await expect(page.getByRole('button', { name: 'Create profile' })).toBeVisible();
		await expect(page.getByRole('radio', { name: /^Empty/ })).toBeChecked();
		expect(await profilesNamed(page, name)).toEqual([]);
		await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0);
	});

	test('by keyboard alone: the name, the way in, the XML, the review and Create', async ({
		page
	}) => {
		const name = uniqueName('Keyboard');
		await page.goto('/profiles');
		const panel = page.getByRole('region', { name: 'New profile' });
		await panel.getByLabel('Name', { exact: true }).focus();
		await page.keyboard.type(name);
		await page.keyboard.press('Tab');
		await expect(panel.getByRole('radio', { name: /^Empty/ })).toBeFocused();
		await page.keyboard.press('ArrowDown');
		await expect(panel.getByRole('radio', { name: /^Provisioning XML/ })).toBeChecked();
		await page.keyboard.press('Tab');
		const xml = panel.getByRole('textbox', { name: 'XML', exact: true });
		await expect(xml).toBeFocused();
		await page.keyboard.insertText(ACCOUNT_XML);
		await page.keyboard.press('Tab');
		await expect(panel.getByLabel('XML file')).toBeFocused();
		await page.keyboard.press('Tab');
		await expect(panel.getByRole('button', { name: 'Review the new profile' })).toBeFocused();
		await page.keyboard.press('Enter');
		const create = page.getByRole('button', { name: 'Create the profile' });
		await expect(create).toBeVisible();
		await create.focus();
		await page.keyboard.press('Enter');
		await page.waitForURL(/\?created=xml$/);
		expect(await profilesNamed(page, name)).toHaveLength(1);
	});

	test('from an XML file', async ({ page }) => {
		const name = uniqueName('File');
		const panel = await startFrom(page, name, 'Provisioning XML');
		const xml =
			'<provisioning><account><core>' +
			'<pushTokenReporterUrl>https://push.example.com/t</pushTokenReporterUrl>' +
			'</core></account></provisioning>';
		await panel.getByLabel('XML file').setInputFiles({
			name: 'additional.xml',
			mimeType: 'application/xml',
			buffer: Buffer.from(xml)
		});
		await panel.getByRole('button', { name: 'Review the new profile' }).click();
		await expect(page.getByRole('table', { name: /What will change/ })).toContainText(
			'Push Token Reporter · URL'
		);
		await page.getByRole('button', { name: 'Create the profile' }).click();
		await page.waitForURL(/\?created=xml$/);
		const [id] = await profilesNamed(page, name);
		expect((await head(page, id)).document.services.pushTokenReporter).toEqual({
			pushTokenReporterUrl: 'https://push.example.com/t'
		});
	});

	test('from a JSON backup file', async ({ page }) => {
		const source = await createProfile(page, uniqueName('Backed up'));
		const saved = await page.request.put(`/api/profiles/${source}`, {
			headers: { origin: new URL(page.url()).origin },
			data: {
				baseRevision: 1,
				document: { services: { sendMessage: { genericSmsSendUrl: SMS_URL } } }
			}
		});
		expect(saved.status()).toBe(200);
		const backup = await (await page.request.get(`/api/profiles/${source}/backup`)).body();

		const name = uniqueName('Restored');
		const panel = await startFrom(page, name, 'JSON backup');
		await panel.getByLabel('Backup file').setInputFiles({
			name: 'backup.json',
			mimeType: 'application/json',
			buffer: backup
		});
		await panel.getByRole('button', { name: 'Review the new profile' }).click();
		await expect(page.getByRole('table', { name: /What will change/ })).toContainText(SMS_URL);
		expect(await profilesNamed(page, name)).toEqual([]);
		await page.getByRole('button', { name: 'Create the profile' }).click();
		await page.waitForURL(/\?created=backup$/);
		const [id] = await profilesNamed(page, name);
		expect((await head(page, id)).document.services.sendMessage.genericSmsSendUrl).toBe(SMS_URL);
		expect((await revisions(page, id)).map((r) => r.message)).toEqual(['Restored from a backup']);
	});

	test('bad XML, a DOCTYPE, a bad backup and a taken name are refused, nothing created', async ({
		page
	}) => {
		const name = uniqueName('Broken');
		let panel = await startFrom(page, name, 'Provisioning XML');
		const broken =
			'<account>\n  <genericSmsSendUrl>https://x/?a=1&b=2</genericSmsSendUrl>\n</account>';
		await panel.getByRole('textbox', { name: 'XML', exact: true }).fill(broken);
		await panel.getByRole('button', { name: 'Review the new profile' }).click();
		await expect(page.getByRole('alert')).toContainText('The XML cannot be read.');
		await expect(page.getByRole('list', { name: 'Problems found' })).toContainText(
			'(line 2, column 36)'
		);
		// What was typed is kept, to be corrected.
		await expect(panel.getByRole('textbox', { name: 'XML', exact: true })).toHaveValue(broken);
		await expect(panel.getByLabel('Name', { exact: true })).toHaveValue(name);
		await expectAccessible(page);

		await panel
			.getByRole('textbox', { name: 'XML', exact: true })
			.fill('<!DOCTYPE account [<!ENTITY x "y">]>\n<account/>');
		await panel.getByRole('button', { name: 'Review the new profile' }).click();
		await expect(page.getByRole('list', { name: 'Problems found' })).toContainText(/DOCTYPE/i);

		panel = await startFrom(page, name, 'JSON backup');
		await panel.getByLabel('Or paste the backup').fill('{"format": "something else"}');
		await panel.getByRole('button', { name: 'Review the new profile' }).click();
		await expect(page.getByRole('alert')).toContainText('The backup cannot be read.');
		await expect(page.getByRole('list', { name: 'Problems found' })).not.toBeEmpty();
		expect(await profilesNamed(page, name)).toEqual([]);

		// A name another profile has, in another case, is refused at the field.
		const taken = uniqueName('Taken');
		await createProfile(page, taken);
		panel = await startFrom(page, taken.toUpperCase(), 'Empty');
		await panel.getByRole('button', { name: 'Create profile' }).click();
		await expect(panel.getByLabel('Name', { exact: true })).toHaveAccessibleDescription(
			`Error: A profile named “${taken}” exists already: choose another name.`
		);
		expect(await profilesNamed(page, taken.toUpperCase())).toEqual([]);
	});
});
