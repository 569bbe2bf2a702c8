import { createProfile, expect, test, uniqueName } from './fixtures';

/**
 * No page raises a Content Security Policy violation: anyone collecting CSP reports sees only
 * real attacks. Each page is loaded with a listener for the browser's `securitypolicyviolation`
 * events in place before any of the page's scripts run, and used a little (a key typed in the
 * editor builds its preview, which parses with zod).
 */

test('no page raises a CSP violation, the editor and the push composer included', async ({
	page
}) => {
	await page.addInitScript(() => {
		const seen: string[] = [];
		(window as unknown as { cspViolations: string[] }).cspViolations = seen;
		document.addEventListener('securitypolicyviolation', (event) => {
			seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
		});
	});
	const violations = () =>
		page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
	const id = await createProfile(page, uniqueName('CSP'));
	const pages = [
		'/',
		'/profiles',
		`/profiles/${id}`,
		`/profiles/${id}/services/sendMessage`,
		'/push',
		'/sandboxes',
		'/sinks',
		'/admin/audit',
		'/account'
	];
	for (const path of pages) {
		await page.goto(path);
		await page.waitForLoadState('networkidle');
		if (path.endsWith('/sendMessage')) {
			await page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' }).click();
			await page.keyboard.type('https://sms.example.com/send?to=%sms_to%');
			await page.keyboard.press('Escape');
			await expect(page.getByText('to=%2B14155550123').first()).toBeVisible();
		}
		expect(await violations(), path).toEqual([]);
	}
});
