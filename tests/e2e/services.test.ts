import { expect, expectAccessible, test } from './fixtures';

test.describe('services page', () => {
	test('lists every service of the catalogue grouped by caller', async ({ page }) => {
		await page.goto('/');
		await expect(page.getByRole('heading', { level: 1, name: 'Services' })).toBeVisible();

		const groups = ['The app', 'The SSO server', 'The contacts server'];
		for (const name of groups) {
			await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
		}
		const provider = page.getByRole('region', { name: /push gateway/ });
		await expect(provider.getByRole('article')).toHaveCount(2);

		const app = page.getByRole('region', { name: 'The app', exact: true });
		await expect(app.getByRole('heading', { level: 3 })).toHaveText([
			/Send Message/,
			/Media Reference Send/,
			/Phone Number Verifier/,
			/Push Token Reporter/
		]);

		// Beyond the contract, each service and rule says where it comes from.
		const beyond = page.getByRole('region', { name: 'The app, beyond the contract' });
		await expect(beyond.getByRole('heading', { level: 3 })).toHaveText([
			/Fetch Messages/,
			/Balance Checker/,
			/Rate Checker/,
			/Account Removal Reporter/,
			/Push Notification Reporter/,
			/Initial provisioning/,
			/Web Service Contacts/
		]);
		// Each of them, by its purpose, says where it comes from.
		await expect(
			beyond
				.getByRole('article')
				.getByRole('paragraph')
				.getByRole('button', {
					name: /^Source: From the platform's public documentation/
				})
		).toHaveCount(7);
		const fetch = beyond.getByRole('article', { name: /Fetch Messages/ });
		await expect(
			fetch.getByRole('paragraph').getByRole('button', {
				name: "Source: From the platform's public documentation: api/client/fetch_messages_modern."
			})
		).toBeVisible();
		const keys = fetch.getByRole('table', { name: 'Configuration keys of Fetch Messages' });
		await expect(keys.getByRole('button', { name: /^Source: From real providers/ })).toHaveCount(3);
		await expect(
			app.getByRole('button', { name: 'Source: From the contract.' }).first()
		).toBeVisible();
	});

	test('shows each service with its purpose and configuration keys', async ({ page }) => {
		await page.goto('/');
		const send = page.getByRole('article', { name: /Send Message/ }).first();
		await expect(send).toContainText('Sends one outgoing one-to-one text');
		const keys = send.getByRole('table', { name: 'Configuration keys of Send Message' });
		await expect(keys.getByRole('cell', { name: 'genericSmsSendUrl' })).toBeVisible();
		await expect(keys.getByRole('cell', { name: 'genericSmsPostData deprecated' })).toBeVisible();

		await send.getByText('Variables (5)').click();
		const variables = send.getByRole('table', { name: 'Variables of Send Message' });
		await expect(variables.getByRole('cell', { name: '%sms_to%' })).toBeVisible();
		await expect(variables.getByRole('cell', { name: '+14155550123' })).toBeVisible();

		const invitation = page.getByRole('article', { name: /Invitation Accepted/ });
		await expect(invitation).toContainText('Only status 204');
		await expect(invitation).toContainText('invitationAcceptedContentType');

		const verifier = page.getByRole('article', { name: /Phone Number Verifier/ });
		await expect(verifier).toContainText('Portal, White-label configuration');
	});

	test('has no accessibility violations', async ({ page }) => {
		await page.goto('/');
		await expectAccessible(page);
	});
});
