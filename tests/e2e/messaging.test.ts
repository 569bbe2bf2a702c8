import type { Page } from '@playwright/test';
import { providerServices, startProvider, type Provider } from '../helpers/provider';
import { atEveryWidthAndScheme, expect, test, uniqueName } from './fixtures';

/**
 * The messaging page in the browser, by keyboard: two virtual phones of a profile whose back end
 * is a real local provider pushing to one of the app's sandboxes, once doing everything right
 * and once forgetting the fields a message must keep.
 */

const providers: Provider[] = [];

test.afterAll(async () => {
	await Promise.all(providers.map((p) => p.stop()));
});

/** A sandbox, a provider pushing to it, and a profile pointing at both; the page's address. */
async function setup(page: Page, dropFields = false) {
	await page.goto('/sandboxes');
	const origin = new URL(page.url()).origin;
	const made = await page.request.post('/api/sandboxes', {
		headers: { origin },
		data: { name: uniqueName('Phones') }
	});
	expect(made.status()).toBe(201);
	const { sandbox } = (await made.json()) as { sandbox: { id: string; pushUrl: string } };
	const provider = await startProvider(sandbox.pushUrl, { dropFields });
	providers.push(provider);
	const profile = await page.request.post('/api/profiles', {
		headers: { origin },
		data: {
			name: uniqueName('Messaging'),
			document: {
				version: 1,
				services: providerServices(provider.url),
				push: { gatewayUrl: sandbox.pushUrl, appId: 'com.example.app', target: 'unknown' },
				scenarios: [],
				rawSubstitution: false,
				preservedXml: []
			}
		}
	});
	expect(profile.status()).toBe(201);
	const { id } = ((await profile.json()) as { profile: { id: string } }).profile;
	return { address: `/messaging?profile=${id}&sandbox=${sandbox.id}`, profileId: id, sandbox };
}

/** Moves the focus by Tab until `target` has it (at most `limit` presses). */
async function tabTo(page: Page, target: ReturnType<Page['getByLabel']>, limit = 60) {
	for (let i = 0; i < limit; i++) {
		if (await target.evaluate((el) => el === document.activeElement)) return;
		await page.keyboard.press('Tab');
	}
	throw new Error('The control was not reached by Tab.');
}

/** Types the two accounts by keyboard. */
async function typeAccounts(page: Page) {
	for (const [side, name] of [
		['sender', 'alice'],
		['recipient', 'bob']
	] as const) {
		const phone = page.getByRole('article', { name: new RegExp(`^${side}`, 'i') });
		for (const [label, value] of [
			['Username', name],
			['Password', `${name}-secret-1`]
		] as const) {
			const field = phone.getByLabel(label, { exact: true });
			await tabTo(page, field);
			await page.keyboard.type(value);
		}
		// Typed in full, the account stays unfolded under the cursor.
		await expect(phone.getByLabel('Password', { exact: true })).toBeVisible();
	}
}

test('a message goes from one phone to the other with its ticks, by keyboard', async ({ page }) => {
	const { profileId, sandbox } = await setup(page);
	// The profile's Flows page leads here, to the sandbox its push gateway URL names.
	await page.goto(`/profiles/${profileId}/flows`);
	await page.getByRole('link', { name: 'Messaging: two phones' }).click();
	await expect(page.getByLabel('Sandbox', { exact: true })).toHaveValue(sandbox.id);
	await expect(page.getByText("The profile's push gateway URL is not")).toHaveCount(0);
	const sender = page.getByRole('article', { name: /^Sender/ });
	const recipient = page.getByRole('article', { name: /^Recipient/ });
	await typeAccounts(page);
	const text = sender.getByLabel('Message to the recipient');
	await tabTo(page, text);
	await page.keyboard.type('Dinner at 7?');
	await page.keyboard.press('Tab');
	await expect(sender.getByRole('button', { name: 'Send to the recipient' })).toBeFocused();
	// The run's answer is held back: what the page shows meanwhile came over its stream.
	let release = () => {};
	const held = new Promise<void>((resolve) => (release = resolve));
	await page.route('**/api/flows/messaging', async (route) => {
		const response = await route.fetch();
		await held;
		await route.fulfill({ response });
	});
	await page.keyboard.press('Enter');
	await expect(page.getByRole('heading', { name: 'Steps (live)' })).toBeVisible();
	const live = recipient.getByRole('log').getByRole('listitem').filter({ hasText: 'Dinner at 7?' });
	await expect(live.getByText('fetched')).toContainText('fetched: yes');
	await expect(page.getByText(/^The message went from/)).toHaveCount(0);
	release();

	const received = recipient
		.getByRole('log')
		.getByRole('listitem')
		.filter({ hasText: 'Dinner at 7?' });
	await expect(received).toContainText('From alice');
	for (const tick of ['pushed: yes', 'fetched: yes']) {
		await expect(received.getByText(tick.split(':')[0])).toContainText(tick);
	}
	const sent = sender.getByRole('log').getByRole('listitem').filter({ hasText: 'Dinner at 7?' });
	await expect(sent.getByText('sent')).toContainText('sent: yes');
	await expect(page.getByText(/^The message went from alice to bob once/)).toBeVisible();
	await expect(page.getByText('No finding: every check of the round held.')).toBeVisible();

	// Every step's exact request and response is one click (here: one key) away.
	const steps = page.getByRole('region', { name: 'Steps' });
	const send = steps.locator('summary').filter({ hasText: 'Send Message' });
	await send.focus();
	await page.keyboard.press('Enter');
	await expect(steps.getByRole('region', { name: 'Request of step 3' })).toContainText(
		'body=Dinner'
	);
	await expect(steps.getByText('alice-secret-1')).toHaveCount(0);

	// The whole journey: the sender's second device syncs, every phone signs out.
	await tabTo(page, text);
	await page.keyboard.type('See you there');
	const whole = page.getByRole('button', { name: 'Run the whole journey' });
	await tabTo(page, whole);
	await page.keyboard.press('Space');
	const synced = sender.getByRole('log', { name: "Conversation on the sender's second device" });
	await expect(synced.getByRole('listitem').filter({ hasText: 'See you there' })).toContainText(
		'fetched: yes'
	);
	await expect(
		steps.locator('summary').filter({ hasText: 'Account Removal Reporter' })
	).toHaveCount(3);

	await atEveryWidthAndScheme(page, async (width, scheme) => {
		await page.screenshot({ path: `/tmp/messaging-${width}-${scheme}.png`, fullPage: true });
		const [a, b] = [await sender.boundingBox(), await recipient.boundingBox()];
		// Side by side on a laptop, one above the other on a phone.
		if (width === 1440) expect(b!.x).toBeGreaterThan(a!.x + a!.width);
		else expect(b!.y).toBeGreaterThan(a!.y + a!.height);
	});
});

test("a broken provider's finding shows with the rule behind it", async ({ page }) => {
	const { sandbox, address } = await setup(page, true);
	// The sandbox's page leads here; the profile is chosen on the page.
	await page.goto(`/sandboxes/${sandbox.id}`);
	await page.getByRole('link', { name: 'Messaging: two phones' }).click();
	await expect(page.getByLabel('Sandbox', { exact: true })).toHaveValue(sandbox.id);
	await page.goto(address);
	await typeAccounts(page);
	const recipient = page.getByRole('article', { name: /^Recipient/ });
	const text = recipient.getByLabel('Message to the sender');
	await tabTo(page, text);
	await page.keyboard.type('A reply');
	await page.keyboard.press('Control+Enter');
	const findings = page.getByRole('region', { name: /the verdict$/ });
	await expect(findings).toContainText('The round did not go as the contract wants');
	await expect(findings).toContainText('content_type did not come back (sent as “text/plain”).');
	await expect(findings.getByRole('button', { name: /^Source:/ }).first()).toBeVisible();
	await atEveryWidthAndScheme(page, async (width, scheme) => {
		await page.screenshot({ path: `/tmp/messaging-broken-${width}-${scheme}.png`, fullPage: true });
	});
});
