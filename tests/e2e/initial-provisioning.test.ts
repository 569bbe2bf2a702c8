import {
	atEveryWidthAndScheme,
	createAnsweringSink,
	createProfile,
	expect,
	layoutScreenshot,
	test,
	uniqueName
} from './fixtures';

/**
 * Initial provisioning in a profile's editor, at a phone's and a laptop's width, light and dark:
 * its portal keys with where their rules come from, a test call whose <account> answer the panel
 * shows as the settings the app merges against the profile, and the answer's web-service keys
 * read into the profile through the import review, accepted only there.
 */

const FETCH_URL = 'https://sms.example.com/fetch?last=%last_known_sms_id%';
const ANSWER = `<?xml version="1.0"?>
<account>
  <title>Alice at Example</title>
  <username>sip-alice</username>
  <password>sip-s3cret</password>
  <genericSmsFetchUrl>${FETCH_URL.replace('&', '&amp;')}</genericSmsFetchUrl>
</account>`;

test('Initial provisioning: a test call, its merge and the import review at 390 and 1440 px, light and dark', async ({
	page
}) => {
	const address = await createAnsweringSink(
		page,
		uniqueName('Provisioning sink'),
		'application/xml',
		ANSWER
	);
	const id = await createProfile(page, uniqueName('Provisioned'));

	await atEveryWidthAndScheme(page, async (width, scheme) => {
		await page.goto(`/profiles/${id}/services/initialProvisioning`);
		await expect(
			page.getByRole('heading', { level: 1, name: /Initial provisioning/ })
		).toBeVisible();
		await expect(page.getByText('Portal, Provisioning Options (step 2)').first()).toBeVisible();
		await expect(
			page
				.getByRole('button', {
					name: "Source: From the platform's public documentation: provisioning/external_provisioning."
				})
				.first()
		).toBeVisible();

		const url = page.getByRole('textbox', { name: 'URL (InitialProvisioningUrl)' });
		await url.click();
		await page.keyboard.press('ControlOrMeta+A');
		await page.keyboard.type(`${address}provision?u=%username%`);
		await page.keyboard.press('Escape');
		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview.getByLabel('URL')).toContainText('provision?u=alice');

		await page.keyboard.press('Control+Enter');
		const panel = page.getByRole('region', { name: 'Test call' });
		const caller = panel.getByRole('region', { name: 'What the caller does' });
		await expect(caller).toContainText(
			'The app merges 4 settings into its own; the account is “Alice at Example”.'
		);
		const merged = caller.getByRole('table', { name: 'Settings the app merges' });
		await expect(merged.getByRole('columnheader')).toHaveText([
			'Setting',
			'Value, against this profile'
		]);
		await expect(merged.getByRole('row')).toHaveCount(5);
		await expect(merged.getByRole('row', { name: /genericSmsFetchUrl/ })).toContainText(
			'Fetch Messages · URL, line 6'
		);
		await expect(merged.getByRole('row', { name: /genericSmsFetchUrl/ })).toContainText(
			'added to the profile'
		);
		await expect(merged.getByRole('row', { name: /^password/ })).toContainText(
			'a credential: not compared'
		);
		await expect(panel).not.toContainText('sip-s3cret');
		await layoutScreenshot(page, caller, `initial-provisioning-${width}-${scheme}`);

		// The answer's web-service keys go through the import review: nothing is saved yet.
		await caller.getByRole('button', { name: 'Review the import into this profile' }).click();
		await expect(page).toHaveURL(new RegExp(`/profiles/${id}/import`));
		const changes = page.getByRole('table', { name: /What will change/ });
		await expect(changes.getByRole('row', { name: 'Fetch Messages · URL Added' })).toContainText(
			FETCH_URL
		);
		// Only the web-service key: the account's title and credentials stay the account's.
		await expect(changes.getByRole('row')).toHaveCount(2);
		await expect(page.getByRole('main')).not.toContainText('sip-s3cret');
		await layoutScreenshot(page, changes, `initial-provisioning-review-${width}-${scheme}`);
	});

	await page.getByRole('button', { name: 'Apply as a new revision' }).click();
	// Leaving before the revision is kept would cancel the save: wait for what the admin sees.
	await expect(page.getByRole('status')).toContainText('Imported as revision');
	await page.goto(`/profiles/${id}/services/fetchMessages`);
	await expect(page.getByRole('textbox', { name: 'URL (genericSmsFetchUrl)' })).toContainText(
		FETCH_URL
	);
});

test('the initial provisioning URL is one portal field, said so in both editors and the sheet', async ({
	page
}) => {
	const id = await createProfile(page, uniqueName('One field'));
	await page.goto(`/profiles/${id}/services/initialProvisioning`);
	await expect(
		page.getByText(
			'One portal field with External provisioning on SSO’s initialProvisioningUrl: the portal holds one value, used by both.'
		)
	).toBeVisible();
	await page.goto(`/profiles/${id}/services/extSSOProv`);
	await expect(
		page.getByText(
			'One portal field with Initial provisioning’s InitialProvisioningUrl: the portal holds one value, used by both.'
		)
	).toBeVisible();
	await page.goto(`/profiles/${id}/portal`);
	const rows = page.getByRole('row', { name: /Initial provisioning URL|InitialProvisioningUrl/i });
	await expect(rows).toHaveCount(1);
	await expect(rows).toContainText('also initialProvisioningUrl of External provisioning on SSO');
	// On a phone the field's name and description take most of the row, not a narrow column.
	await page.setViewportSize({ width: 390, height: 800 });
	const row = (await rows.boundingBox())!;
	const field = (await rows.getByRole('rowheader').boundingBox())!;
	expect(field.width).toBeGreaterThan(row.width / 2);
});
