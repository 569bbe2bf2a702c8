import { createUser, expect, test, uniqueEmail } from './fixtures';

test.describe('users (admin)', () => {
	test('an admin creates an editor and a viewer', async ({ page }) => {
		const editor = uniqueEmail('editor');
		const viewer = uniqueEmail('viewer');
		await createUser(page, { email: editor, name: 'Eddie Editor', role: 'editor' });
		await createUser(page, { email: viewer, name: 'Vera Viewer', role: 'viewer' });

		const users = page.getByRole('table', { name: 'Users' });
		const editorRow = users.getByRole('row').filter({ hasText: editor });
		await expect(editorRow.getByLabel(`Role of ${editor}`)).toHaveValue('editor');
		await expect(editorRow).toContainText('Eddie Editor');
		await expect(editorRow).toContainText('Active');
		const viewerRow = users.getByRole('row').filter({ hasText: viewer });
		await expect(viewerRow.getByLabel(`Role of ${viewer}`)).toHaveValue('viewer');
	});

	test('mistakes are shown next to the fields and what was typed is kept', async ({ page }) => {
		await page.goto('/admin/users');
		const form = page.getByRole('region', { name: 'Create a user' });
		await form.getByLabel('E-mail').fill('not-an-address');
		await form.getByLabel('Name').fill('Nora Newcomer');
		await form.getByLabel('Initial password').fill('short');
		await form.getByRole('button', { name: 'Create user' }).click();

		const summary = form.getByRole('alert');
		await expect(summary).toBeFocused();
		await expect(summary.getByRole('link')).toHaveText([
			'Enter a valid e-mail address.',
			'The password needs at least 12 characters.'
		]);
		const email = form.getByLabel('E-mail');
		await expect(email).toHaveAttribute('aria-invalid', 'true');
		await expect(email).toHaveAccessibleDescription(/valid e-mail address/);
		await expect(email).toHaveValue('not-an-address');
		await expect(form.getByLabel('Name')).toHaveValue('Nora Newcomer');
		await expect(form.getByLabel('Name')).not.toHaveAttribute('aria-invalid', 'true');

		await summary.getByRole('link', { name: /password needs/ }).click();
		await expect(form.getByLabel('Initial password')).toBeFocused();
	});

	test('a commonly used or guessable password is refused at its field', async ({ page }) => {
		await page.goto('/admin/users');
		const form = page.getByRole('region', { name: 'Create a user' });
		const email = uniqueEmail('weak');
		await form.getByLabel('E-mail').fill(email);
		await form.getByLabel('Name').fill('Wendy Weak');
		const password = form.getByLabel('Initial password');
		for (const [weak, why] of [
			['passwordpassword', /commonly used passwords/],
			['qwertyuiopas', /neighbouring keys/],
			[email, /your e-mail address/]
		] as const) {
			await password.fill(weak);
			await form.getByRole('button', { name: 'Create user' }).click();
			await expect(password).toHaveAttribute('aria-invalid', 'true');
			await expect(password).toHaveAccessibleDescription(why);
			await expect(form.getByLabel('E-mail')).toHaveValue(email);
		}
		await expect(page.getByRole('table', { name: 'Users' })).not.toContainText(email);
	});

	test('an e-mail address can have one account only', async ({ page }) => {
		const email = uniqueEmail('twice');
		await createUser(page, { email, name: 'First', role: 'viewer' });
		const form = page.getByRole('region', { name: 'Create a user' });
		await form.getByLabel('E-mail').fill(email);
		await form.getByLabel('Name').fill('Second');
		await form.getByLabel('Initial password').fill('another long password');
		await form.getByRole('button', { name: 'Create user' }).click();
		await expect(form.getByLabel('E-mail')).toHaveAccessibleDescription(
			`Error: ${email} already has an account.`
		);
	});

	test('an admin changes a role, deactivates and reactivates a user', async ({ page }) => {
		const email = uniqueEmail('changing');
		await createUser(page, { email, name: 'Chris Change', role: 'viewer' });
		const row = page.getByRole('row').filter({ hasText: email });

		await row.getByLabel(`Role of ${email}`).selectOption('editor');
		await row.getByRole('button', { name: `Change role of ${email}` }).click();
		await expect(page.getByRole('status')).toHaveText(
			`The role of ${email} is now editor; their sessions and API tokens have ended.`
		);
		await page.reload();
		await expect(row.getByLabel(`Role of ${email}`)).toHaveValue('editor');

		await row.getByRole('button', { name: `Deactivate ${email}` }).click();
		await expect(page.getByRole('status')).toContainText(`${email} is deactivated`);
		await expect(row).toContainText('Deactivated');

		await row.getByRole('button', { name: `Reactivate ${email}` }).click();
		await expect(page.getByRole('status')).toHaveText(`${email} is active again.`);
		await expect(row.getByRole('button', { name: `Deactivate ${email}` })).toBeVisible();
	});

	test('the last active admin can be neither demoted nor deactivated', async ({ page }) => {
		await page.goto('/admin/users');
		const row = page.getByRole('row').filter({ hasText: 'admin@example.com' });

		await row.getByRole('button', { name: 'Deactivate admin@example.com' }).click();
		await expect(page.getByRole('alert')).toContainText('This is the last active admin');
		await expect(row).toContainText('Active');

		const role = row.getByLabel('Role of admin@example.com');
		await role.selectOption('viewer');
		await row.getByRole('button', { name: 'Change role of admin@example.com' }).click();
		await expect(page.getByRole('alert')).toContainText('make someone else admin first');
		await expect(role).toHaveValue('admin');
		await expect(role).toHaveAccessibleDescription(/last active admin/);
	});
});
