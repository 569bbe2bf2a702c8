import { ADMIN, expect, signedOut, signIn, test, uniqueEmail } from './fixtures';

test.describe('signing in and out', () => {
	test.use({ storageState: signedOut });

	test('a visit without a session goes to sign-in, then to the page asked for', async ({
		page
	}) => {
		await page.goto('/profiles');
		await expect(page).toHaveURL('/login?next=%2Fprofiles');
		await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
		await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

		await page.getByLabel('E-mail').fill(ADMIN.email);
		await page.getByLabel('Password').fill(ADMIN.password);
		await page.getByRole('button', { name: 'Sign in' }).click();
		await expect(page).toHaveURL('/profiles');
		const nav = page.getByRole('navigation', { name: 'Main' });
		await expect(nav.getByRole('link', { name: 'Profiles' })).toHaveAttribute(
			'aria-current',
			'page'
		);
		await expect(nav.getByRole('link', { name: 'Users' })).toBeVisible();
		await expect(page.getByRole('banner')).toContainText('admin');
	});

	test('empty fields and wrong credentials are explained, and the e-mail is kept', async ({
		page
	}) => {
		await page.goto('/login');
		await page.getByRole('button', { name: 'Sign in' }).click();
		const summary = page.getByRole('alert');
		await expect(summary).toBeFocused();
		await expect(summary.getByRole('link')).toHaveText([
			'Enter your e-mail address.',
			'Enter your password.'
		]);
		const email = page.getByLabel('E-mail');
		await expect(email).toHaveAttribute('aria-invalid', 'true');
		await expect(email).toHaveAccessibleDescription(/Enter your e-mail address/);

		const unknown = uniqueEmail('nobody');
		await email.fill(unknown);
		await page.getByLabel('Password').fill('not the password');
		await page.getByRole('button', { name: 'Sign in' }).click();
		await expect(page.getByRole('alert')).toContainText('The e-mail or the password is wrong.');
		await expect(page.getByLabel('E-mail')).toHaveValue(unknown);
	});

	test('only paths of this site are followed after signing in', async ({ page }) => {
		await page.goto('/login?next=%2F%2Fevil.example%2Fsteal');
		await page.getByLabel('E-mail').fill(ADMIN.email);
		await page.getByLabel('Password').fill(ADMIN.password);
		await page.getByRole('button', { name: 'Sign in' }).click();
		await expect(page).toHaveURL('/');
		await expect(page.getByRole('heading', { level: 1, name: 'Services' })).toBeVisible();
	});

	test('signing out ends the session', async ({ page }) => {
		await signIn(page, ADMIN.email, ADMIN.password);
		await page.getByRole('button', { name: 'Sign out' }).click();
		await expect(page).toHaveURL('/login?signed_out=1');
		await expect(page.getByRole('status')).toHaveText('You are signed out.');
		await page.goto('/account');
		await expect(page).toHaveURL('/login?next=%2Faccount');
	});

	test('the setup page offers no form once the first admin exists', async ({ page }) => {
		await page.goto('/setup?token=anything');
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Set up Provisioning Studio');
		await expect(page.getByText('This installation is already set up')).toBeVisible();
		await expect(page.getByRole('textbox')).toHaveCount(0);
	});
});
