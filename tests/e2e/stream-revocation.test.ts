import {
	createSink,
	createUser,
	expect,
	PASSWORD,
	signedOut,
	signIn,
	test,
	uniqueEmail,
	uniqueName
} from './fixtures';

/**
 * A sink's live page, watched by an editor in a browser of their own, while an admin in another
 * lowers their role or deactivates them: the page stops receiving at once and says why, and the
 * browser does not keep trying to reconnect.
 */

const CHANGES = {
	'lowers the role of': {
		async apply(row: ReturnType<typeof rowOf>, email: string) {
			await row.getByLabel(`Role of ${email}`).selectOption('viewer');
			await row.getByRole('button', { name: `Change role of ${email}` }).click();
		},
		says: 'Your role no longer allows this page.'
	},
	deactivates: {
		async apply(row: ReturnType<typeof rowOf>, email: string) {
			await row.getByRole('button', { name: `Deactivate ${email}` }).click();
		},
		says: 'Your account was deactivated.'
	}
};

function rowOf(page: import('@playwright/test').Page, email: string) {
	return page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: email });
}

for (const [change, { apply, says }] of Object.entries(CHANGES)) {
	test(`a sink's live page stops and says so when an admin ${change} its watcher`, async ({
		page,
		browser,
		app
	}) => {
		const email = uniqueEmail('watcher');
		await createUser(page, { email, name: 'Wendy Watch', role: 'editor' });
		const address = await createSink(page, uniqueName('Watched'));
		const sinkPage = new URL(page.url()).pathname;

		const context = await browser.newContext({ baseURL: app.url, storageState: signedOut });
		const watcher = await context.newPage();
		const streams: string[] = [];
		watcher.on('request', (request) => {
			if (/\/events\b/.test(request.url())) streams.push(request.url());
		});
		await signIn(watcher, email, PASSWORD);
		await watcher.goto(sinkPage);
		const connection = watcher.locator('.connection');
		const received = watcher.getByRole('list', { name: 'Received requests' });
		await expect(connection).toHaveText(/Live: new requests appear here/);
		await fetch(`${address}before`);
		await expect(received).toContainText('/before');

		await page.goto('/admin/users');
		await apply(rowOf(page, email), email);
		await expect(connection).toContainText(says);
		await expect(connection.getByRole('link', { name: 'Sign in again' })).toBeVisible();

		// Sent afterwards: the admin's own live page of the sink shows it, the watcher's does not.
		await page.goto(sinkPage);
		await expect(page.locator('.connection')).toHaveText(/Live: new requests appear here/);
		await fetch(`${address}after`);
		await expect(page.getByRole('list', { name: 'Received requests' })).toContainText('/after');
		await expect(received).not.toContainText('/after');
		await expect(connection).toContainText(says);
		expect(streams).toHaveLength(1);
		await context.close();
	});
}
