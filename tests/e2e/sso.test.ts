import { expect, test, type Browser } from '@playwright/test';
import { startProvider, CLIENT, type TestProvider } from '../helpers/oidc';
import { startServer, stopAllServers, type TestServer } from '../helpers/server';
import { expectAccessible } from './fixtures';

/**
 * Single sign-on in a browser, through the real sign-in page and a real OpenID Provider: the
 * button, the provider's own sign-in and consent pages, and back, signed in, at the page the
 * user was going to. The refusals and errors are tested over HTTP (tests/server/oidc.spec.ts).
 */

// One worker runs the file's tests in turn: they share one provider and one app.
test.describe.configure({ mode: 'default' });

let provider: TestProvider;
let app: TestServer;

test.beforeAll(async () => {
	provider = await startProvider();
	app = await startServer({
		readyTimeoutMs: 60_000,
		env: {
			ADMIN_EMAIL: 'admin@example.com',
			ADMIN_PASSWORD: 'correct horse battery staple',
			OIDC_ISSUER: provider.issuer,
			OIDC_CLIENT_ID: CLIENT.id,
			OIDC_CLIENT_SECRET: CLIENT.secret,
			OIDC_ALLOW_INSECURE_HTTP: '1',
			OIDC_NAME: 'Corp SSO',
			OIDC_SCOPES: 'openid email profile groups',
			OIDC_ROLES_CLAIM: 'realm_access.roles',
			OIDC_ADMIN_GROUPS: 'studio-admins',
			OIDC_EDITOR_GROUPS: 'studio-editors'
		}
	});
	provider.serve([app.url]);
	provider.accounts.set('zoe', {
		email: 'zoe@example.com',
		email_verified: true,
		name: 'Zoe Editor',
		realm_access: { roles: ['offline_access', 'studio-editors'] }
	});
});

test.afterAll(async () => {
	await stopAllServers();
	await provider?.close();
});

test('signs in with the provider from the sign-in page and lands where the user was going', async ({
	page
}) => {
	await page.goto(`${app.url}/profiles`);
	await expect(page).toHaveURL(/\/login\?next=%2Fprofiles$/);
	await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();

	// The provider's own pages: any login name, then consent.
	await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
	await page.locator('input[name="login"]').fill('zoe');
	await page.locator('input[name="password"]').fill('anything');
	await page.getByRole('button', { name: 'Sign-in' }).click();
	await page.getByRole('button', { name: 'Continue' }).click();

	await expect(page).toHaveURL(`${app.url}/profiles`);
	await expect(page.getByRole('heading', { level: 1 })).toContainText('Profiles');
	const session = await page.request.get(`${app.url}/api/session`);
	expect(await session.json()).toMatchObject({
		user: { email: 'zoe@example.com', name: 'Zoe Editor', role: 'editor', method: 'oidc' }
	});

	// The account has no password to change, and the provider's own second factor applies.
	await page.goto(`${app.url}/account`);
	await expect(page.getByText('this account has no password')).toBeVisible();
	await expect(page.getByLabel('Current password')).toHaveCount(0);
});

test('shows a refused user which groups were expected and which came, accessibly', async ({
	page
}) => {
	provider.accounts.set('yann', {
		email: 'yann@example.com',
		email_verified: true,
		realm_access: { roles: ['marketing', '<img src=x onerror=alert(1)>'] }
	});
	page.on('dialog', () => {
		throw new Error('A dialog opened: something sent by the provider ran.');
	});
	await page.goto(`${app.url}/login`);
	await expectAccessible(page);
	await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
	await page.locator('input[name="login"]').fill('yann');
	await page.locator('input[name="password"]').fill('anything');
	await page.getByRole('button', { name: 'Sign-in' }).click();
	await page.getByRole('button', { name: 'Continue' }).click();

	await expect(page.getByRole('heading', { level: 1 })).toHaveText('No role for your account');
	await expect(page.getByText('<img src=x onerror=alert(1)>')).toBeVisible();
	await expect(page.getByText('studio-editors')).toBeVisible();
	await expectAccessible(page);
	// The password form is one link away.
	await page.getByRole('link', { name: 'Back to the sign-in page' }).click();
	await expect(page.getByLabel('Password')).toBeVisible();
});

/**
 * Signs in through the provider as `login` in a browser of its own (no session at the provider
 * yet), consenting when asked; the page the app answered with.
 */
async function signInAs(browser: Browser, login: string, claims: Record<string, unknown>) {
	provider.accounts.set(login, { email_verified: true, ...claims });
	const page = await (await browser.newContext()).newPage();
	await page.goto(`${app.url}/login`);
	await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
	await page.locator('input[name="login"]').fill(login);
	await page.locator('input[name="password"]').fill('anything');
	await page.getByRole('button', { name: 'Sign-in' }).click();
	// The provider asks for consent once per account.
	const consent = page.getByRole('button', { name: 'Continue' });
	await expect(async () => {
		if (await consent.isVisible()) await consent.click();
		expect(page.url().startsWith(app.url)).toBe(true);
	}).toPass();
	return page;
}

test('refuses to merge the owner of an address into the account another sign-in made with it', async ({
	browser
}) => {
	// The provider does not vouch for this address: the account made keeps it unverified.
	const squatter = await signInAs(browser, 'sam', {
		email: 'victim@example.com',
		email_verified: false,
		realm_access: { roles: ['studio-editors'] }
	});
	await expect(squatter).toHaveURL(`${app.url}/`);

	const victim = await signInAs(browser, 'vic', {
		email: 'victim@example.com',
		realm_access: { roles: ['studio-editors'] }
	});
	await expect(victim.getByRole('heading', { level: 1 })).toHaveText(
		'Your account cannot be linked'
	);
	await expect(victim.getByRole('alert')).toContainText('signs in through another sign-in');
	await expect(victim.getByRole('alert')).toContainText('An admin can look at that account');
	await expectAccessible(victim);
	expect((await victim.request.get(`${app.url}/api/session`)).status()).toBe(401);
});

test('never demotes the last admin through the provider, nor links an admin at a lower role', async ({
	browser
}) => {
	const editor = { email: 'admin@example.com', realm_access: { roles: ['studio-editors'] } };
	const notLinked = await signInAs(browser, 'boss', editor);
	await expect(notLinked.getByRole('heading', { level: 1 })).toHaveText(
		'Your account cannot be linked'
	);
	await expect(notLinked.getByRole('alert')).toContainText('keeps it an admin');

	const linked = await signInAs(browser, 'boss', {
		email: 'admin@example.com',
		realm_access: { roles: ['studio-admins'] }
	});
	expect(await (await linked.request.get(`${app.url}/api/session`)).json()).toMatchObject({
		user: { email: 'admin@example.com', role: 'admin' }
	});

	const demoted = await signInAs(browser, 'boss', editor);
	await expect(demoted.getByRole('heading', { level: 1 })).toHaveText(
		'Your role cannot change here'
	);
	await expect(demoted.getByRole('alert')).toContainText('You are the last active admin');
	await expectAccessible(demoted);
	// Still an admin: the session made as one lives on.
	expect(await (await linked.request.get(`${app.url}/api/session`)).json()).toMatchObject({
		user: { role: 'admin' }
	});
});
