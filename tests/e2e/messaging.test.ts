import type { Page } from '@playwright/test';
import { MESSAGING_CHECKS } from '../../src/lib/core/phones/rules';
import {
	providerServices,
	startProvider,
	type Provider,
	type ProviderMistakes
} from '../helpers/provider';
import { atEveryWidthAndScheme, expect, test, uniqueName } from './fixtures';

/**
 * The messaging page in the browser, by keyboard: two virtual phones of a profile whose back end
 * is a real local provider pushing to one of the app's sandboxes, once doing everything right,
 * then with each mistake a provider makes. The file's server has short outbound time limits, so
 * a hanging provider ends fast.
 */

test.use({ appEnv: { OUTBOUND_HEADERS_TIMEOUT_MS: '1000', OUTBOUND_TOTAL_TIMEOUT_MS: '1500' } });

const providers: Provider[] = [];

test.afterAll(async () => {
	await Promise.all(providers.map((p) => p.stop()));
});

/** A sandbox, a provider pushing to it, and a profile pointing at both; the page's address. */
async function setup(
	page: Page,
	mistakes: ProviderMistakes = {},
	sandboxOptions: Record<string, unknown> = {}
) {
	await page.goto('/sandboxes');
	const origin = new URL(page.url()).origin;
	const made = await page.request.post('/api/sandboxes', {
		headers: { origin },
		data: { name: uniqueName('Phones'), ...sandboxOptions }
	});
	expect(made.status()).toBe(201);
	const { sandbox } = (await made.json()) as { sandbox: { id: string; pushUrl: string } };
	const provider = await startProvider(sandbox.pushUrl, mistakes);
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
	return {
		address: `/messaging?profile=${id}&sandbox=${sandbox.id}`,
		profileId: id,
		sandbox,
		provider
	};
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

/** Fills the two accounts, where the test is not about the keyboard. */
async function fillAccounts(page: Page) {
	for (const [side, name] of [
		['Sender', 'alice'],
		['Recipient', 'bob']
	] as const) {
		const phone = page.getByRole('article', { name: new RegExp(`^${side}`) });
		await phone.getByLabel('Username', { exact: true }).fill(name);
		await phone.getByLabel('Password', { exact: true }).fill(`${name}-secret-1`);
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
	// Next come the message's kind and the notifications it asks for, then the button.
	for (const label of ['Kind', 'Notifications']) {
		await page.keyboard.press('Tab');
		await expect(sender.getByLabel(label)).toBeFocused();
	}
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
	// The second run went on from the first: each phone keeps the first message, and the
	// recipient fetched after the id it had.
	for (const phone of [sender, recipient]) {
		const log = phone.getByRole('log', { name: /phone$/ });
		await expect(log.getByText('Dinner at 7?')).toBeVisible();
		await expect(log.getByText('See you there')).toBeVisible();
	}
	const fetched = steps.locator('summary').filter({ hasText: 'Fetch Messages' }).first();
	await fetched.focus();
	await page.keyboard.press('Enter');
	await expect(steps.getByRole('region', { name: /^Request of step/ }).first()).toContainText(
		'last=msg-1'
	);
	await expect(page.getByText(/^The next message continues the phones of run \d+/)).toBeVisible();

	await atEveryWidthAndScheme(page, async (width, scheme) => {
		await page.screenshot({ path: `/tmp/messaging-${width}-${scheme}.png`, fullPage: true });
		const [a, b] = [await sender.boundingBox(), await recipient.boundingBox()];
		// Side by side on a laptop, one above the other on a phone.
		if (width === 1440) expect(b!.x).toBeGreaterThan(a!.x + a!.width);
		else expect(b!.y).toBeGreaterThan(a!.y + a!.height);
	});

	// New phones start over: nothing listed, the next message starts from empty ids.
	await tabTo(page, page.getByRole('button', { name: 'New phones' }));
	await page.keyboard.press('Enter');
	await expect(sender.getByRole('log', { name: "Conversation on the sender's phone" })).toHaveText(
		'Not started: a run starts this phone.'
	);
	await expect(page.getByText('The next message starts fresh phones.')).toBeVisible();
	await expect(page.getByRole('button', { name: 'New phones' })).toBeDisabled();
});

test("a broken provider's finding shows with the rule behind it", async ({ page }) => {
	const { sandbox, address } = await setup(page, { dropFields: true });
	// The sandbox's page leads here; the profile is chosen on the page.
	await page.goto(`/sandboxes/${sandbox.id}`);
	await page.getByRole('link', { name: 'Messaging: two phones' }).click();
	await expect(page.getByLabel('Sandbox', { exact: true })).toHaveValue(sandbox.id);
	await page.goto(address);
	await typeAccounts(page);
	const recipient = page.getByRole('article', { name: /^Recipient/ });
	// A display name longer than the journey takes is named on the page, before anything is sent.
	const displayName = recipient.getByLabel('Display name (optional)');
	await displayName.fill(`Bob ${'b'.repeat(296)}`);
	await recipient.getByLabel('Message to the sender').fill('Hi');
	await recipient.getByLabel('Message to the sender').press('Control+Enter');
	await expect(page.getByRole('alert')).toContainText(
		'Recipient: the display name is 300 characters long: the journey takes at most 200.'
	);
	// The longest one takes two lines of the phone's title, not its screen.
	await displayName.fill(`Bob ${'b'.repeat(196)}`);
	const title = recipient.getByRole('heading', { level: 2 });
	await expect(title).toContainText('b'.repeat(196));
	const lines = await title.evaluate(
		(el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)
	);
	expect(Math.round(lines)).toBeLessThanOrEqual(2);
	await recipient.getByLabel('Message to the sender').fill('');
	// A media message asking for the display notification only, chosen by keyboard.
	const kind = recipient.getByLabel('Kind');
	await tabTo(page, kind);
	await page.keyboard.press('ArrowDown');
	await expect(kind).toHaveValue('media');
	const text = recipient.getByLabel('Message to the sender');
	await expect(text).toHaveValue(/"content-url"/);
	await page.keyboard.press('Tab');
	for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowDown');
	await expect(recipient.getByLabel('Notifications')).toHaveValue('display');
	// A body that is not the file-transfer JSON is refused on the page, with the reason.
	await text.fill('A reply');
	await text.press('Control+Enter');
	await expect(page.getByRole('alert')).toContainText(
		"Recipient: A media message's body is the file-transfer JSON: it is not JSON"
	);
	await text.fill('');
	await tabTo(page, kind);
	await page.keyboard.press('ArrowUp');
	await page.keyboard.press('ArrowDown');
	await text.press('Control+Enter');
	const findings = page.getByRole('region', { name: /the verdict$/ });
	await expect(findings).toContainText('The round did not go as the contract wants');
	await expect(findings).toContainText(
		'content_type did not come back (sent as “application/x-acro-filetransfer+json”).'
	);
	await expect(findings).toContainText(
		/disposition_notification did not come back \(sent as “[\w-]+:display”\)/
	);
	await expect(findings.getByRole('button', { name: /^Source:/ }).first()).toBeVisible();
	await atEveryWidthAndScheme(page, async (width, scheme) => {
		await page.screenshot({ path: `/tmp/messaging-broken-${width}-${scheme}.png`, fullPage: true });
	});
});

/** Each mistake of a provider, the check that names it, and what its finding says. */
const MISTAKES: {
	name: string;
	mistakes: ProviderMistakes;
	sandbox?: Record<string, unknown>;
	check: keyof typeof MESSAGING_CHECKS;
	says: RegExp;
}[] = [
	{
		name: 'never pushes',
		mistakes: { neverPush: true },
		check: 'pushArrived',
		says: /within 0.5 s: it saw the token report and the message sent \(sms_id “msg-1”\), and no push reached the sandbox/
	},
	{
		name: 'pushes to a wrong token',
		mistakes: { pushToVoipToken: true },
		check: 'pushToReportedToken',
		says: /went to the recipient's pushTokenIncomingCall/
	},
	{
		name: 'pushes 1,000 times',
		mistakes: { pushTimes: 1000 },
		sandbox: { rateLimit: 20 },
		check: 'pushOnce',
		says: /got \d[\d,]* NotifyTextMessages for one message/
	},
	{
		name: 'answers every message every time',
		mistakes: { ignoreLastKnown: true },
		check: 'nothingTwice',
		says: /foreground fetch answered 1 message the phone already had/
	},
	{
		name: 'answers 10,000 messages',
		mistakes: { extraMessages: 10_000 },
		check: 'answerSize',
		says: /answered 10,001 messages at once/
	},
	{
		name: 'hangs',
		mistakes: { hang: ['/fetch'] },
		check: 'fetchReadable',
		says: /fetch after the push read no messages: .*no answer came/
	}
];

for (const m of MISTAKES) {
	test(`a provider that ${m.name}: its finding shows with the rule behind it`, async ({ page }) => {
		const { address, provider } = await setup(page, m.mistakes, m.sandbox);
		await page.goto(address);
		await fillAccounts(page);
		await page.getByLabel('Wait for your push (seconds)').fill('0.5');
		const text = page.getByLabel('Message to the recipient');
		await text.focus();
		await page.keyboard.type('Dinner at 7?');
		await page.keyboard.press('Control+Enter');
		const verdict = page.getByRole('region', { name: /the verdict$/ });
		const finding = verdict.getByRole('listitem').filter({ hasText: m.check });
		await expect(finding.first()).toContainText(m.says);
		await expect(finding.first().locator('blockquote')).toContainText(
			MESSAGING_CHECKS[m.check].rule
		);
		provider.halted = true;
		const steps = page.getByRole('region', { name: 'Steps' });
		// What the journey saw is listed step by step: the token reports and the message sent.
		await expect(
			steps.locator('summary').filter({ hasText: 'Push Token Reporter: ok' })
		).toHaveCount(2);
		await expect(steps.locator('summary').filter({ hasText: 'Send Message: ok' })).toHaveCount(1);
		if (m.mistakes.extraMessages) {
			// The phone lists its newest messages only, and the page still answers the keyboard.
			const log = page.getByRole('log', { name: "Conversation on the recipient's phone" });
			await expect(log.getByText('9,801 older messages not listed.')).toBeVisible();
			await expect(log.locator('li.message')).toHaveCount(200);
			const fetched = steps.locator('summary').filter({ hasText: 'Fetch Messages' }).first();
			await fetched.focus();
			await page.keyboard.press('Enter');
			await expect(steps.getByText(/^The body was cut at/).first()).toBeVisible();
		}
	});
}

test('a provider that cannot be reached: the steps say why, and no check is claimed', async ({
	page
}) => {
	const { address, provider } = await setup(page);
	await provider.stop();
	await page.goto(address);
	await fillAccounts(page);
	await page.getByLabel('Message to the recipient').fill('Dinner at 7?');
	await page.getByRole('button', { name: 'Send to the recipient' }).click();
	const verdict = page.getByRole('region', { name: /the verdict$/ });
	await expect(verdict).toContainText(
		'No finding: the round stopped at a step that failed, before its checks could be made.'
	);
	await expect(verdict).not.toContainText('every check of the round held');
	const steps = page.getByRole('region', { name: 'Steps' });
	const failed = steps.locator('summary').filter({ hasText: 'Push Token Reporter: failed' });
	await expect(failed).toHaveCount(2);
	// The reason is named once, in parentheses, without a doubled full stop.
	await expect(failed.first()).toContainText(/no answer came \(.+\)\./);
	await expect(failed.first()).not.toContainText(').).');
	await expect(failed.first()).not.toContainText('.).');
});
