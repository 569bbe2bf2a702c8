import type { Page } from '@playwright/test';
import {
	ADMIN,
	createProfile,
	expect,
	expectAccessible,
	signedOut,
	test,
	uniqueName
} from './fixtures';

const URL_FIELD = 'URL (genericSmsSendUrl)';
const BODY_FIELD = 'Post data (genericSmsSendPostData)';

/** Saves a document as the profile's next revision through the JSON API. */
async function saveDocument(page: Page, id: string, baseRevision: number, document: object) {
	const response = await page.request.put(`/api/profiles/${id}`, {
		headers: { origin: new URL(page.url()).origin },
		data: { baseRevision, document }
	});
	expect(response.status()).toBe(200);
}

/** The status of a service in the editor's list of services, as shown (in words). */
function statusOf(page: Page, title: string) {
	const nav = page.getByRole('navigation', { name: 'Services of this profile' });
	return nav.getByRole('listitem').filter({ has: page.getByRole('link', { name: title }) });
}

test.describe('keyboard', () => {
	test('Ctrl+I and F1 explain the placeholder at the cursor, visibly and for screen readers', async ({
		page
	}) => {
		await page.goto('/services/sendMessage');
		const url = page.getByRole('textbox', { name: URL_FIELD });
		await url.click();
		// Keyboard only from here: a pointer left over the text would open the hover's tooltip
		// beside the keyboard's one once the placeholder is typed under it.
		await page.mouse.move(0, 0);
		await page.keyboard.type('https://sms.example.com/send?to=%sms_to%');
		await page.keyboard.press('Escape');
		for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');

		const tooltip = page.getByRole('tooltip');
		await expect(tooltip).toHaveCount(0);
		await page.keyboard.press('Control+i');
		await expect(tooltip).toContainText('%sms_to%');
		await expect(tooltip).toContainText('Recipient phone number');
		await expect(tooltip).toContainText('Sample: +14155550123');
		await expect(tooltip).toContainText('Here: percent-encoded');
		// CodeMirror's live region reads it out.
		await expect(page.locator('[data-field="genericSmsSendUrl"] .cm-announced')).toContainText(
			'%sms_to%: Recipient phone number'
		);
		// The key explained, it typed nothing.
		await expect(url).toHaveText('https://sms.example.com/send?to=%sms_to%');

		await page.keyboard.press('Escape');
		await expect(tooltip).toHaveCount(0);
		await page.keyboard.press('F1');
		await expect(tooltip).toContainText('%sms_to%');
		await page.keyboard.press('Home');
		await expect(tooltip).toHaveCount(0);

		await page.keyboard.press('Control+i');
		await expect(tooltip).toContainText('No placeholder at the cursor');
	});

	test('Ctrl+Shift+M opens the list of problems, and the editor lists its shortcuts', async ({
		page
	}) => {
		await page.goto('/services/invitationAccepted');
		const url = page.getByRole('textbox', { name: 'URL (invitationAcceptedUrl)' });
		await url.click();
		await page.keyboard.type('https://contacts.example.com/?who=%nobody%');
		await page.keyboard.press('Escape');

		const problems = page.getByRole('listbox', { name: 'Diagnostics' });
		await expect(problems).toHaveCount(0);
		await page.keyboard.press('Control+Shift+M');
		await expect(problems).toBeVisible();
		await expect(problems.getByRole('option').first()).toContainText('%nobody%');
		await page.keyboard.press('Escape');
		await expect(problems).toHaveCount(0);

		await page.getByText('Keyboard shortcuts').click();
		const help = page.locator('details.keys');
		await expect(help).toContainText(/Ctrl\/⌘\+Shift\+M\s*Open the list of problems/);
		await expect(help).toContainText(
			/Ctrl\/⌘\+I or F1\s*Explain the placeholder at the cursor \(also read out by screen readers\)/
		);
		await expect(help).toContainText(/Ctrl\/⌘\+Enter\s*Send the test call/);
		await expect(help).not.toContainText('Save the profile');
		await expectAccessible(page);
	});

	test('Escape closes the revisions panel once nothing else needs it', async ({ page }) => {
		const id = await createProfile(page, uniqueName('Escape'));
		await page.goto(`/profiles/${id}/services/sendMessage`);
		const button = page.getByRole('button', { name: 'Revisions' });
		const drawer = page.getByRole('complementary', { name: 'Revisions' });
		// The editors are mounted once the page is hydrated: a click before that reaches no handler.
		await expect(page.getByRole('textbox', { name: URL_FIELD })).toBeVisible();

		await button.click();
		await expect(drawer).toBeVisible();
		await expect(drawer.getByRole('heading', { name: 'Revisions' })).toBeFocused();
		await page.keyboard.press('Escape');
		await expect(drawer).toHaveCount(0);
		await expect(button).toBeFocused();
		await expect(button).toHaveAttribute('aria-expanded', 'false');

		// In an editor, Escape first closes the completion; the next one closes the panel.
		await button.click();
		await expect(drawer).toBeVisible();
		const url = page.getByRole('textbox', { name: URL_FIELD });
		await url.click();
		await page.keyboard.type('https://sms.example.com/?to=%');
		const completion = page.locator('.cm-tooltip-autocomplete');
		await expect(completion).toBeVisible();
		await page.keyboard.press('Escape');
		await expect(completion).toHaveCount(0);
		await expect(drawer).toBeVisible();
		await page.keyboard.press('Escape');
		await expect(drawer).toHaveCount(0);
		await expect(url).toBeFocused();

		await page.getByText('Keyboard shortcuts').click();
		await expect(page.locator('details.keys')).toContainText(/Ctrl\/⌘\+S\s*Save the profile/);
		await expect(page.locator('details.keys')).toContainText('then the revisions panel');
	});

	test('Ctrl+Enter brings the test call answer into view and keeps the focus', async ({ page }) => {
		await page.setViewportSize({ width: 1280, height: 480 });
		await page.goto('/sinks');
		const sink = await page.request.post('/api/sinks', {
			headers: { origin: new URL(page.url()).origin },
			data: { name: uniqueName('Scroll sink') }
		});
		expect(sink.status()).toBe(201);
		const { key } = ((await sink.json()) as { sink: { key: string } }).sink;
		const address = `${new URL(page.url()).origin}/sink/${key}/`;

		await page.goto('/services/sendMessage');
		const url = page.getByRole('textbox', { name: URL_FIELD });
		await url.click();
		await page.keyboard.type(`${address}send?to=%sms_to%`);
		await page.keyboard.press('Escape');
		const panel = page.getByRole('region', { name: 'Test call' });
		await expect(panel.getByRole('button', { name: 'Send' })).not.toBeInViewport();

		await page.keyboard.press('Control+Enter');
		const caller = panel.getByRole('region', { name: 'What the caller does' });
		await expect(caller).toContainText('Success');
		await expect(caller).toBeInViewport();
		await expect(url).toBeFocused();

		// History times are written as every other time of the app.
		await panel.getByText(/Your test calls of this service/).click();
		const entry = panel.locator('details.history li').first();
		await expect(entry.getByRole('button').locator('time[datetime]')).toBeVisible();
	});
});

test.describe('the list of services', () => {
	test('says in words what each preview says, after a fix and after a save', async ({ page }) => {
		const id = await createProfile(page, uniqueName('Marks'));
		// A JSON body with a number placeholder: valid with a value, broken without one.
		const head = await (await page.request.get(`/api/profiles/${id}`)).json();
		const document = structuredClone(head.profile.document);
		document.services.sendMessage = {
			genericSmsSendUrl: 'https://sms.example.com/send',
			genericSmsSendPostData: '{"to":"%sms_to%","smart":%smart%}',
			genericSmsSendContentType: 'application/json'
		};
		await saveDocument(page, id, 1, document);

		await page.goto(`/profiles/${id}/services/invitationAccepted`);
		await expect(statusOf(page, 'Invitation Accepted')).toContainText('not set');
		const send = statusOf(page, 'Send Message');
		await expect(send).toContainText('no problems');
		await expect(page.getByRole('link', { name: 'Send Message' })).toHaveAccessibleDescription(
			'no problems'
		);

		await page.getByRole('link', { name: 'Send Message' }).click();
		const counts = page.getByRole('region', { name: 'Request preview' }).getByRole('status');
		await expect(counts).toHaveText('1 request · 0 errors · 0 warnings');
		await expect(send).toContainText('no problems');

		// Broken: both say one error.
		const body = page.getByRole('textbox', { name: BODY_FIELD });
		await body.click();
		await page.keyboard.press('Control+End');
		await page.keyboard.type('x');
		await expect(counts).toHaveText('1 request · 1 error · 0 warnings');
		await expect(send).toContainText('1 error');
		await page.keyboard.press('Control+s');
		await expect(page.getByText('revision 3', { exact: true })).toBeVisible();
		await expect(send).toContainText('1 error');

		// Fixed and saved: both say no problems, here, on another service and after a reload.
		await page.keyboard.press('Backspace');
		await expect(counts).toHaveText('1 request · 0 errors · 0 warnings');
		await expect(send).toContainText('no problems');
		await page.keyboard.press('Control+s');
		await expect(page.getByText('revision 4', { exact: true })).toBeVisible();
		await expect(send).toContainText('no problems');
		await page.getByRole('link', { name: 'Push Token Reporter' }).click();
		await expect(
			page.getByRole('heading', { level: 1, name: 'Push Token Reporter' })
		).toBeVisible();
		await expect(statusOf(page, 'Send Message')).toContainText('no problems');
		await page.reload();
		await expect(statusOf(page, 'Send Message')).toContainText('no problems');
		await expectAccessible(page);
	});
});

test.describe('screens speak the user language', () => {
	test('an import that changes nothing offers no Apply; reviews name settings and kept elements', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Nothing'));
		const xml =
			'<provisioning><account><core>' +
			'<genericMediaRefSendMethod>PUT</genericMediaRefSendMethod>' +
			'<codec>opus</codec>' +
			'</core></account></provisioning>';
		await page.goto(`/profiles/${id}/import`);
		await page.getByRole('textbox', { name: 'XML', exact: true }).fill(xml);
		await page.getByRole('button', { name: 'Review the changes' }).click();
		const changes = page.getByRole('table', { name: /What will change/ });
		await expect(changes.getByRole('rowheader')).toHaveText([
			'Kept XML element <codec> in provisioning/account/core',
			'Media Reference Send · Method'
		]);
		await expect(changes).toContainText('<codec>opus</codec>');
		await expect(page.getByRole('main')).not.toContainText(/services\.|preservedXml|\(s\)/);
		await page.getByRole('button', { name: 'Apply as a new revision' }).click();
		await expect(page.getByRole('status')).toContainText('Imported as revision 2.');

		await page.goto(`/profiles/${id}/import`);
		await page.getByRole('textbox', { name: 'XML', exact: true }).fill(xml);
		await page.getByRole('button', { name: 'Review the changes' }).click();
		await expect(
			page.getByText('Nothing would change: the profile already holds this.')
		).toBeVisible();
		await expect(page.getByRole('button', { name: 'Apply as a new revision' })).toHaveCount(0);
		await page.getByRole('link', { name: 'Back to the profile' }).click();
		await expect(page).toHaveURL(new RegExp(`/profiles/${id}$`));
		await expect(page.getByText('Revision 2, updated')).toBeVisible();
	});

	test('the last-admin refusal is shown at the control that asked', async ({ page }) => {
		await page.goto('/admin/users');
		const row = page.getByRole('row').filter({ hasText: ADMIN.email });
		const [, roleCell, statusCell] = await row.getByRole('cell').all();

		await row.getByLabel(`Role of ${ADMIN.email}`).selectOption('viewer');
		await row.getByRole('button', { name: `Change role of ${ADMIN.email}` }).click();
		await expect(roleCell).toContainText('last active admin');
		await expect(statusCell).not.toContainText('last active admin');
		await expect(row.getByLabel(`Role of ${ADMIN.email}`)).toHaveAttribute('aria-invalid', 'true');
		// The summary above links to the control.
		await page.getByRole('alert').getByRole('link').click();
		await expect(row.getByLabel(`Role of ${ADMIN.email}`)).toBeFocused();

		await row.getByRole('button', { name: `Deactivate ${ADMIN.email}` }).click();
		await expect(statusCell).toContainText('last active admin');
		await expect(roleCell).not.toContainText('last active admin');
	});

	test('creating a profile opens it, with editing its services as the first step', async ({
		page
	}) => {
		const name = uniqueName('Newcomer');
		await page.goto('/profiles');
		await page.getByLabel('Name', { exact: true }).fill(name);
		await page.getByRole('button', { name: 'Create profile' }).click();
		await expect(page).toHaveURL(/\/profiles\/[^/]+\?created$/);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
		await expect(page.getByRole('status')).toContainText(`Created “${name}”.`);
		const edit = page.getByRole('link', { name: 'Edit the services' });
		await expect(edit).toHaveClass(/primary/);
		await expectAccessible(page);
		await edit.click();
		await expect(page.getByRole('heading', { level: 1, name: 'Send Message' })).toBeVisible();
	});

	test('the services page links each service to its try-out editor', async ({ page }) => {
		await page.goto('/');
		const links = page.getByRole('link', { name: /^Try it without saving \(/ });
		// The eight template services of the contract, and the seven beyond it.
		await expect(links).toHaveCount(15);
		await expect(
			page
				.getByRole('region', { name: 'The app, beyond the contract' })
				.getByRole('link', { name: 'Try it without saving (Fetch Messages)' })
		).toBeVisible();
		await page.getByRole('link', { name: 'Try it without saving (Phone Number Verifier)' }).click();
		await expect(page).toHaveURL(/\/services\/phoneNumberVerifier$/);
		await expect(page.getByText('A scratch editor: nothing here is saved.')).toBeVisible();
	});
});

test.describe('sign-in', () => {
	test.use({ storageState: signedOut });

	test('a refused password is cleared, the e-mail kept', async ({ page }) => {
		await page.goto('/login');
		await page.getByLabel('E-mail').fill(ADMIN.email);
		await page.getByLabel('Password').fill('not the password at all');
		await page.getByRole('button', { name: 'Sign in' }).click();
		await expect(page.getByRole('alert')).toBeVisible();
		await expect(page.getByLabel('Password')).toHaveValue('');
		await expect(page.getByLabel('E-mail')).toHaveValue(ADMIN.email);
	});
});
