import { expect, test } from '@playwright/test';
import { startCluster, type Cluster } from '../../scripts/postgres-cluster.js';
import { ADMIN, ADMIN_ENV } from '../helpers/fixtures';
import { startServer, type TestServer } from '../helpers/server';
import { signIn } from './fixtures';

/**
 * Two instances of the built app on one PostgreSQL, as behind a load balancer: a push a
 * provider's server sends to a sandbox through instance A shows up live in a browser that has
 * the sandbox's device view open on instance B. This file starts its own throw-away cluster and
 * both app processes (the suite's own server on SQLite plays no part), and stops them all.
 */

let cluster: Cluster;
let a: TestServer;
let b: TestServer;

test.beforeAll(async () => {
	test.setTimeout(120_000);
	cluster = await startCluster();
	const url = await cluster.createDatabase('studio');
	const env = {
		...ADMIN_ENV,
		DATABASE_URL: url,
		SECRET_KEY: Buffer.alloc(32, 5).toString('base64')
	};
	// One after the other: the first creates the admin and the schema.
	a = await startServer({ env });
	b = await startServer({ env });
});

test.afterAll(async () => {
	// These two only: a worker's own app (see fixtures.ts) is started by the same helper.
	await Promise.all([a?.stop(), b?.stop()]);
	await cluster?.stop();
});

test('a push sent to a sandbox through one instance appears live in a browser on the other', async ({
	browser
}) => {
	const context = await browser.newContext({ baseURL: b.url });
	try {
		const page = await context.newPage();
		await signIn(page, ADMIN.email, ADMIN.password);
		await page.goto('/sandboxes');
		await page.getByLabel('Name', { exact: true }).fill('Across instances');
		await page.getByRole('button', { name: 'Create sandbox' }).click();
		await expect(page.getByRole('heading', { level: 1, name: 'Across instances' })).toBeVisible();
		await expect(page.getByText('Live: pushes appear here as they arrive.')).toBeVisible();
		const shown = new URL((await page.getByTestId('push-url').textContent())!);
		expect(shown.origin).toBe(b.url);

		// The provider's server reaches instance A: plain HTTP, no cookie.
		const sent = await fetch(`${a.url}${shown.pathname}/pnm2/send`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				verb: 'NotifyTextMessage',
				AppId: 'com.provider.app',
				DeviceToken: 'token-across',
				Selector: '0123456789abcdef0123456789abcdef01234567:acct',
				UserName: 'Bob',
				Message: 'Sent through A, seen on B',
				Id: 'msg-across'
			})
		});
		expect(sent.status).toBe(200);

		const pushes = page.getByRole('list', { name: 'Pushes received' });
		await expect(pushes.locator('[data-kind="notification"]')).toContainText(
			'Sent through A, seen on B'
		);
		await expect(pushes.locator('[data-kind="notification"]')).toContainText('Bob');
		// It arrived once, and the page never lost its live connection.
		await expect(pushes.locator(':scope > li')).toHaveCount(1);
		await expect(page.getByText('Live: pushes appear here as they arrive.')).toBeVisible();
	} finally {
		await context.close();
	}
});
