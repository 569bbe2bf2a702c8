import { Secret, TOTP } from 'otpauth';
import { createUser, expect, PASSWORD, signedOut, signIn, test, uniqueEmail } from './fixtures';

/** The code of `key` for the step `offset` steps (of 30 s) from now. */
function code(key: string, offset = 0): string {
	return TOTP.generate({ secret: Secret.fromBase32(key), timestamp: Date.now() + offset * 30_000 });
}

test.describe('account', () => {
	test('a user changes their password and stays signed in in this browser', async ({
		page,
		browser
	}) => {
		const email = uniqueEmail('changer');
		await createUser(page, { email, name: 'Pat Password', role: 'editor' });

		const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
		const me = await context.newPage();
		await signIn(me, email, PASSWORD);
		await me.getByRole('link', { name: 'Account', exact: true }).click();
		await expect(me.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
		const form = me.getByRole('region', { name: 'Change password' });

		await form.getByLabel('Current password').fill('not my password');
		await form.getByLabel('New password', { exact: true }).fill('a brand new password');
		await form.getByLabel('New password again').fill('a different password');
		await form.getByRole('button', { name: 'Change password' }).click();
		await expect(form.getByRole('alert').getByRole('link')).toHaveText([
			'The two passwords differ.'
		]);
		await expect(form.getByLabel('New password again')).toHaveAttribute('aria-invalid', 'true');

		await form.getByLabel('New password again').fill('a brand new password');
		await form.getByRole('button', { name: 'Change password' }).click();
		await expect(form.getByLabel('Current password')).toHaveAccessibleDescription(
			'Error: The current password is wrong.'
		);

		await form.getByLabel('Current password').fill(PASSWORD);
		await form.getByRole('button', { name: 'Change password' }).click();
		await expect(form.getByRole('status')).toContainText('Password changed.');
		await me.reload();
		await expect(me.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();

		await me.getByRole('button', { name: 'Sign out' }).click();
		await signIn(me, email, 'a brand new password');
		await expect(me.getByRole('banner')).toContainText('Pat Password');
		await context.close();
	});

	test('with a second factor on, the password change asks for a code as well, by keyboard', async ({
		page,
		browser
	}) => {
		const email = uniqueEmail('changer-2fa');
		await createUser(page, { email, name: 'Sam Second', role: 'viewer' });
		const context = await browser.newContext({ storageState: signedOut });
		const me = await context.newPage();
		await signIn(me, email, PASSWORD);
		await me.goto('/account');
		const factor = me.getByRole('region', { name: 'Second factor' });
		await factor.getByRole('button', { name: 'Set up an authenticator app' }).click();
		const key = (await factor.locator('.key code').textContent())!.replace(/\s+/g, '');
		await factor.getByLabel('Authentication code').fill(code(key));
		await factor.getByLabel('Authentication code').press('Enter');
		await expect(factor).toContainText('Recovery codes left: 10.');
		const recoveryCodes = factor.getByRole('list', { name: 'Recovery codes' });
		const recovery = (await recoveryCodes.getByRole('listitem').first().textContent())!.trim();

		const form = me.getByRole('region', { name: 'Change password' });
		const codeField = form.getByLabel('Authentication code');
		await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
		await form.getByLabel('Current password').focus();
		await me.keyboard.type(PASSWORD);
		await me.keyboard.press('Tab');
		await me.keyboard.type('a second new password');
		await me.keyboard.press('Tab');
		await me.keyboard.type('a second new password');
		await me.keyboard.press('Tab');
		await expect(codeField).toBeFocused();
		// The set-up used this step's code; a wrong one is refused at the field.
		const next = code(key, 1);
		await me.keyboard.type(next === '000000' ? '111111' : '000000');
		await me.keyboard.press('Enter');
		await expect(codeField).toHaveAccessibleDescription(/Error: That code is not right/);

		await codeField.fill('');
		await codeField.focus();
		await me.keyboard.type(next);
		await me.keyboard.press('Enter');
		await expect(form.getByRole('status')).toContainText('Password changed.');
		await me.reload();
		await expect(me.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();

		// Turning the factor off asks for a code as well: the password alone is never offered.
		await expect(factor.getByRole('button', { name: /password/i })).toHaveCount(0);
		await expect(factor.getByLabel(/password/i)).toHaveCount(0);
		await factor.getByLabel('Authentication code').fill(recovery);
		await factor.getByRole('button', { name: 'Turn off the second factor' }).click();
		await expect(factor).toContainText('The second factor is off');
		await context.close();
	});

	test('an API token is shown once, works as Bearer, and stops working when revoked', async ({
		page,
		playwright,
		baseURL
	}) => {
		await page.goto('/account');
		const tokens = page.getByRole('region', { name: 'API tokens' });
		await tokens.getByRole('button', { name: 'Create token' }).click();
		await expect(tokens.getByLabel('Name of a new token')).toHaveAccessibleDescription(
			/Give the token a name/
		);

		const name = `CI ${Date.now()}`;
		await tokens.getByLabel('Name of a new token').fill(name);
		await tokens.getByRole('button', { name: 'Create token' }).click();
		await expect(tokens).toContainText('it will not be shown again');
		const secret = await tokens.getByLabel('New token', { exact: true }).inputValue();
		expect(secret).toMatch(/^pst_/);
		await tokens.getByRole('button', { name: 'Copy token' }).click();
		await expect(tokens.getByRole('status').filter({ hasText: /Copied|Ctrl\+C/ })).toBeVisible();

		const row = tokens.getByRole('row').filter({ hasText: name });
		await expect(row).toContainText(secret.slice(0, 10));
		await expect(row).toContainText('never');

		const api = await playwright.request.newContext({ baseURL });
		const auth = { authorization: `Bearer ${secret}` };
		const me = await api.get('/api/session', { headers: auth });
		expect(me.status()).toBe(200);
		expect((await me.json()).user.email).toBe('admin@example.com');

		await page.reload();
		await expect(tokens.getByLabel('New token', { exact: true })).toHaveCount(0);
		await expect(row).not.toContainText('never');

		await row.getByRole('button', { name: `Revoke token ${name}` }).click();
		await expect(tokens.getByRole('status')).toHaveText(`Token “${name}” revoked.`);
		await expect(row).toContainText('Revoked');
		expect((await api.get('/api/session', { headers: auth })).status()).toBe(401);
		await api.dispose();
	});
});
