import { expect, test } from '@playwright/test';
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
