import { digestProtected } from '../helpers/digest';
import { startUpstream, type Upstream } from '../helpers/upstream';
import { atEveryWidthAndScheme, expect, layoutScreenshot, test } from './fixtures';

/**
 * Web Service Contacts in the editor, at a phone's and a laptop's width, light and dark: its keys
 * with where their rules come from, the Digest credentials, the live preview, and a test call to
 * a real local upstream that challenges it, shown as both exchanges and the contacts the app
 * shows.
 */

const PASSWORD = 'Browser-Digest-9';
const CONTACTS = {
	contacts: [
		{
			contactId: 'c1',
			displayName: 'Alice Example',
			contactEntries: [{ entryId: 'e1', type: 'tel', uri: '+15551231234' }]
		},
		{
			contactId: 'c2',
			company: 'Example Ltd',
			contactEntries: [
				{ entryId: 'e1', type: 'email', uri: 'desk@example.com' },
				{ entryId: 'e2', type: 'url', uri: 'https://example.com/' }
			]
		}
	]
};

let upstream: Upstream;

test.beforeAll(async () => {
	upstream = await startUpstream({
		otherwise: digestProtected({
			algorithm: 'SHA-256',
			username: 'alice',
			password: PASSWORD,
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(CONTACTS)
		})
	});
});

test.afterAll(async () => {
	await upstream.stop();
});

test('Web Service Contacts: edit, preview and a Digest test call at 390 and 1440 px, light and dark', async ({
	page
}) => {
	await atEveryWidthAndScheme(page, async (width, scheme) => {
		await page.goto('/services/webServiceContacts');
		await expect(
			page.getByRole('heading', { level: 1, name: 'Web Service Contacts' })
		).toBeVisible();
		await expect(
			page.getByRole('button', { name: /^Source: From real providers/ }).first()
		).toBeVisible();
		await expect(page.getByLabel('Refresh (s) wsContactsRefresh')).toHaveAttribute(
			'placeholder',
			'180'
		);

		await expect(page.getByLabel('Method wsContactsMethod').locator('option')).toHaveText([
			'Unset (by post data)',
			'GET',
			'POST'
		]);

		const url = page.getByRole('textbox', { name: 'URL (wsContactsUrl)' });
		await url.click();
		await page.keyboard.type(`${upstream.url}/contacts?user=%account[username]%`);
		await page.keyboard.press('Escape');
		await page.getByLabel('Digest user name wsContactsAuthUsername').fill('alice');
		const password = page.getByLabel('Digest password wsContactsAuthPassword');
		await expect(password).toHaveAttribute('type', 'password');
		await password.fill(PASSWORD);
		const preview = page.getByRole('region', { name: 'Request preview' });
		await expect(preview.getByLabel('URL')).toContainText('/contacts?user=');

		await page.keyboard.press('Control+Enter');
		const panel = page.getByRole('region', { name: 'Test call' });
		const tabs = panel.getByRole('tab');
		await expect(tabs).toHaveText(['Request 1', 'Request 2 (Digest answer)']);
		const caller = panel.getByRole('region', { name: 'What the caller does' });
		await expect(caller).toContainText(
			'The app answers this Digest challenge once (SHA-256, qop auth)'
		);
		await tabs.last().click();
		await expect(panel.getByText(/^Authorization: Digest username="alice"/)).toContainText(
			'response="••••••••"'
		);
		await expect(caller).toContainText(
			'The app replaces its web service contacts with the answer’s 2 contacts (3 entries).'
		);
		await expect(caller.getByRole('definition').first()).toHaveText('2');
		await expect(panel).not.toContainText(PASSWORD);
		await layoutScreenshot(page, panel, `web-service-contacts-${width}-${scheme}`);
	});
});
