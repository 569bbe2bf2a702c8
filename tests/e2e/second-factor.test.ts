import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import {
	createUser,
	expect,
	expectAccessible,
	PASSWORD,
	signedOut,
	signIn,
	test,
	uniqueEmail
} from './fixtures';

/**
 * The second factor in the browser: set up on the account page from its QR code and key, then a
 * sign-in that asks for the code after the password on the same page, done with the keyboard
 * alone. Both pages fit a phone's and a laptop's width in that state. Codes come from the
 * library and the key the page showed, as an authenticator app makes them.
 */

async function expectFits(page: Page): Promise<void> {
	const { scrollWidth, innerWidth } = await page.evaluate(() => ({
		scrollWidth: document.scrollingElement!.scrollWidth,
		innerWidth: window.innerWidth
	}));
	expect(scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(innerWidth);
}

/** The code of `key` for the step `offset` steps (of 30 s) from now. */
function code(key: string, offset = 0): string {
	return TOTP.generate({ secret: Secret.fromBase32(key), timestamp: Date.now() + offset * 30_000 });
}

test('a user sets up an authenticator app, signs out, and signs in with its code by keyboard', async ({
	page,
	browser
}) => {
	test.setTimeout(90_000);
	const email = uniqueEmail('second-factor');
	await createUser(page, { email, name: 'Tove Twofactor', role: 'viewer' });
	const context = await browser.newContext({ storageState: signedOut });
	const me = await context.newPage();
	await signIn(me, email, PASSWORD);

	await me.goto('/account');
	const region = me.getByRole('region', { name: 'Second factor' });
	await region.getByRole('button', { name: 'Set up an authenticator app' }).click();
	const qr = region.getByRole('img', { name: 'QR code to scan with your authenticator app' });
	await expect(qr).toBeVisible();
	const key = (await region.locator('.key code').textContent())!.replace(/\s+/g, '');
	expect(key).toMatch(/^[A-Z2-7]{32}$/);
	for (const width of [390, 1440]) {
		await me.setViewportSize({ width, height: 900 });
		await expectFits(me);
		const box = (await qr.boundingBox())!;
		expect(box.width).toBeGreaterThanOrEqual(150);
		expect(box.x + box.width).toBeLessThanOrEqual(width);
		await expectAccessible(me);
	}

	const field = region.getByLabel('Authentication code');
	await expect(field).toHaveAttribute('autocomplete', 'one-time-code');
	await expect(field).toHaveAttribute('inputmode', 'numeric');
	await field.fill(code(key));
	await field.press('Enter');
	const codes = region.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
	await expect(codes).toHaveCount(10);
	await expect(region).toContainText('They will not be shown again.');
	await expect(region).toContainText('Recovery codes left: 10.');

	await me.getByRole('button', { name: 'Sign out' }).click();
	await expect(me).toHaveURL(/\/login\?signed_out/);

	// Keyboard only: Tab to the e-mail, type, Tab, type, Enter; then the code, Enter.
	const emailField = me.getByLabel('E-mail');
	for (
		let i = 0;
		i < 20 && !(await emailField.evaluate((el) => el === document.activeElement));
		i++
	) {
		await me.keyboard.press('Tab');
	}
	await expect(emailField).toBeFocused();
	await me.keyboard.type(email);
	await me.keyboard.press('Tab');
	await expect(me.getByLabel('Password')).toBeFocused();
	await me.keyboard.type(PASSWORD);
	await me.keyboard.press('Enter');

	const codeField = me.getByLabel('Authentication code');
	await expect(codeField).toBeFocused();
	await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
	await expect(codeField).toHaveAttribute('inputmode', 'numeric');
	await expect(me.getByRole('button', { name: 'Use a recovery code instead' })).toBeVisible();
	await expect(me.getByLabel('Password')).toBeHidden();
	for (const width of [390, 1440]) {
		await me.setViewportSize({ width, height: 900 });
		await expectFits(me);
		await expectAccessible(me);
	}

	// A wrong code is refused at the field, and the code field has the focus again.
	await me.keyboard.type(code(key) === '000000' ? '111111' : '000000');
	await me.keyboard.press('Enter');
	await expect(codeField).toHaveAccessibleDescription(/wrong or was already used/);
	await expect(codeField).toBeFocused();

	// The next step's code: the set-up used this one, and a code is accepted once.
	await me.keyboard.type(code(key, 1));
	await me.keyboard.press('Enter');
	await me.waitForURL((url) => url.pathname !== '/login');
	await expect(me.getByRole('banner')).toContainText('Tove Twofactor');
	await context.close();
});
