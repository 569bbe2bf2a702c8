import { readFile } from 'node:fs/promises';
import { createProfile, expect, test, uniqueName } from './fixtures';

test.describe('audit log (admin)', () => {
	test('filters by action, and the filtered view can be bookmarked', async ({ page }) => {
		const name = uniqueName('Audited');
		await createProfile(page, name);

		await page.getByRole('link', { name: 'Audit log' }).click();
		await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
		await page.getByLabel('Action starts with').fill('profile.');
		await page.getByRole('button', { name: 'Filter' }).click();
		await expect(page).toHaveURL(/[?&]action=profile\./);

		const table = page.getByRole('table', { name: 'Matching entries', exact: true });
		const actions = table.getByRole('row').locator('td:nth-child(3)');
		await expect(actions.first()).toHaveText('profile.created');
		for (const action of await actions.allTextContents()) expect(action).toMatch(/^profile\./);
		const row = table.getByRole('row').filter({ hasText: name }).first();
		await expect(row).toContainText('admin@example.com');
		await expect(row).toContainText(`name=${name}`);
		await expect(row.getByRole('link', { name })).toBeVisible();

		// The export takes the same filters: a download of the matching entries, as CSV.
		const downloading = page.waitForEvent('download');
		await page.getByRole('link', { name: 'CSV' }).click();
		const download = await downloading;
		expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
		const csv = (await readFile(await download.path())).toString('utf8').split('\r\n');
		expect(csv[0]).toBe('id,time,actor_id,actor,action,target,ip,details');
		const exported = csv.slice(1, -1).map((line) => line.split(',')[4]);
		expect(exported.length).toBeGreaterThan(0);
		for (const action of exported) expect(action).toMatch(/^profile\./);
		expect(csv.some((line) => line.includes(name))).toBe(true);

		await page.reload();
		await expect(page.getByLabel('Action starts with')).toHaveValue('profile.');
		await expect(page.getByRole('table', { name: 'Matching entries', exact: true })).toBeVisible();
	});

	test('filters by actor and date range', async ({ page }) => {
		await page.goto('/admin/audit');
		await page.getByLabel('Actor (part of the e-mail)').fill('nobody-matches-this');
		await page.getByRole('button', { name: 'Filter' }).click();
		await expect(page.getByRole('status')).toHaveText('No entries match these filters.');

		await page.getByRole('link', { name: 'Clear filters' }).click();
		// The navigation resets the form to the address's filters: typing before it would be undone.
		await expect(page).toHaveURL(/\/admin\/audit$/);
		await expect(page.getByLabel('Actor (part of the e-mail)')).toHaveValue('');
		await page.getByLabel('From').fill('2100-01-01');
		await page.getByRole('button', { name: 'Filter' }).click();
		await expect(page.getByRole('status')).toHaveText('No entries match these filters.');

		await page.getByLabel('From').fill('2000-01-02');
		await page.getByLabel('To (inclusive)').fill('2000-01-01');
		await page.getByRole('button', { name: 'Filter' }).click();
		await expect(page.getByLabel('To (inclusive)')).toHaveAccessibleDescription(
			'Error: The end is before the start.'
		);

		const today = new Date();
		const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
		await page.getByLabel('From').fill(day);
		await page.getByLabel('To (inclusive)').fill(day);
		await page.getByRole('button', { name: 'Filter' }).click();
		await expect(page.getByRole('table', { name: 'Matching entries', exact: true })).toBeVisible();
	});

	test('older entries are paged by id', async ({ page }) => {
		await page.goto('/profiles');
		const origin = new URL(page.url()).origin;
		for (let i = 0; i < 51; i++) {
			const response = await page.request.post('/api/profiles', {
				headers: { origin },
				data: { name: `Paging ${i}` }
			});
			expect(response.status()).toBe(201);
		}
		await page.goto('/admin/audit?action=profile.created');
		const rows = page
			.getByRole('table', { name: 'Matching entries', exact: true })
			.getByRole('row');
		await expect(rows).toHaveCount(51);
		await page.getByRole('link', { name: 'Older entries' }).click();
		await expect(page).toHaveURL(/before=\d+/);
		await expect(page).toHaveURL(/action=profile\.created/);
		await expect(page.getByRole('table', { name: 'Matching entries (older page)' })).toBeVisible();
		await page.getByRole('link', { name: 'Newest entries' }).click();
		await expect(page.getByRole('table', { name: 'Matching entries', exact: true })).toBeVisible();
		await expect(page).not.toHaveURL(/before=/);
	});
});
