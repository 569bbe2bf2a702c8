import {
	createProfile,
	createSink,
	createUser,
	expect,
	expectAccessible,
	PASSWORD,
	signIn,
	test,
	uniqueEmail,
	uniqueName
} from './fixtures';

/** The profile page at a glance: each service's state, last test call and next step. */

test.describe('a profile at a glance', () => {
	test('shows problems, what is not set, the last test call, and hides next steps from viewers', async ({
		page,
		browser
	}) => {
		const address = await createSink(page, uniqueName('Glance sink'));
		const name = uniqueName('Glance');
		const id = await createProfile(page, name);
		const saved = await page.request.put(`/api/profiles/${id}`, {
			headers: { origin: new URL(page.url()).origin },
			data: {
				baseRevision: 1,
				document: {
					services: {
						// The sink is plain http: a warning.
						sendMessage: { genericSmsSendUrl: `${address}send?to=%sms_to%` },
						pushTokenReporter: { pushTokenReporterUrl: 'https://push.example.com/t' },
						// The SSO server fills a fixed set of names: any other is an error.
						externalAuth: { externalAuthUrl: 'https://auth.example.com/?u=%nobody_fills_this%' }
					}
				}
			}
		});
		expect(saved.status()).toBe(200);

		await page.goto(`/profiles/${id}`);
		const glance = page.getByRole('region', { name: 'At a glance' });
		const auth = glance.getByRole('listitem').filter({
			has: page.getByRole('heading', { name: 'External Authentication', exact: true })
		});
		await expect(auth).toContainText(/Set, 1 error/);
		await expect(
			auth.getByRole('link', { name: 'Fix the problems of External Authentication' })
		).toBeVisible();

		const verifier = glance.getByRole('listitem').filter({
			has: page.getByRole('heading', { name: 'Phone Number Verifier', exact: true })
		});
		await expect(verifier).toContainText('Not set');
		const setVerifier = verifier.getByRole('link', { name: 'Set Phone Number Verifier' });
		await expect(setVerifier).toHaveAttribute(
			'href',
			`/profiles/${id}/services/phoneNumberVerifier`
		);

		const reporter = glance.getByRole('listitem').filter({
			has: page.getByRole('heading', { name: 'Push Token Reporter', exact: true })
		});
		await expect(reporter).toContainText('Set, no problems');
		await expect(reporter).toContainText(/Last test call\s*None/);
		await expect(
			reporter.getByRole('link', { name: 'Send a test call of Push Token Reporter' })
		).toHaveAttribute('href', `/profiles/${id}/services/pushTokenReporter#testcall-title`);
		await expect(glance.getByRole('link', { name: 'Set the push settings' })).toBeVisible();
		await expectAccessible(page);

		// A test call made in the editor shows in its service's row, with its verdict.
		const send = glance.getByRole('listitem').filter({
			has: page.getByRole('heading', { name: 'Send Message', exact: true })
		});
		await expect(send).toContainText(/Set, 1 warning/);
		await expect(send).toContainText(/Last test call\s*None/);
		await page.goto(`/profiles/${id}/services/sendMessage`);
		const panel = page.getByRole('region', { name: 'Test call' });
		await panel.getByRole('button', { name: 'Send' }).click();
		await expect(panel.getByRole('region', { name: 'What the caller does' })).toBeVisible();
		await page.goto(`/profiles/${id}`);
		await expect(send).toContainText(/Last test call\s*Succeeded \(200\)/);
		await expect(send).toContainText('by ');

		// A viewer sees the same states, without the next steps.
		const email = uniqueEmail('glancer');
		await createUser(page, { email, name: 'Gina Glance', role: 'viewer' });
		const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
		const viewer = await context.newPage();
		await signIn(viewer, email, PASSWORD);
		await viewer.goto(`/profiles/${id}`);
		const seen = viewer.getByRole('region', { name: 'At a glance' });
		await expect(seen).toContainText(/Set, 1 error/);
		await expect(seen).toContainText(/Succeeded \(200\)/);
		await expect(seen.getByRole('link', { name: /^(Set|Fix|Send a test call)/ })).toHaveCount(0);
		// A viewer's only buttons are the marks that say where a service comes from.
		await expect(seen.getByRole('button', { name: /^(?!Source: )/ })).toHaveCount(0);
		await expect(viewer.getByRole('button', { name: /Restore/ })).toHaveCount(0);
		await viewer.goto('/profiles');
		await expect(viewer.getByRole('region', { name: 'New profile' })).toHaveCount(0);
		await context.close();
	});

	test('lists every service beyond the contract, each with where it comes from', async ({
		page
	}) => {
		const id = await createProfile(page, uniqueName('Glance beyond'));
		await page.goto(`/profiles/${id}`);
		const glance = page.getByRole('region', { name: 'At a glance' });
		for (const [title, source] of [
			['Fetch Messages', /^Source: From the platform's public documentation/],
			['Balance Checker', /^Source: From the platform's public documentation/],
			['Rate Checker', /^Source: From the platform's public documentation/],
			['Account Removal Reporter', /^Source: From the platform's public documentation/],
			['Push Notification Reporter', /^Source: From the platform's public documentation/],
			['Initial provisioning', /^Source: From the platform's public documentation/],
			['Web Service Contacts', /^Source: From the platform's public documentation/]
		] as const) {
			const item = glance.getByRole('listitem').filter({
				has: page.getByRole('heading', { name: title, exact: true })
			});
			await expect(item.getByRole('button', { name: source })).toBeVisible();
		}
		const send = glance.getByRole('listitem').filter({
			has: page.getByRole('heading', { name: 'Send Message', exact: true })
		});
		await expect(send.getByRole('button', { name: 'Source: From the contract.' })).toBeVisible();
	});
});
