import type { Page } from '@playwright/test';
import { startUpstream, type Upstream } from '../helpers/upstream';
import {
	createUser,
	expect,
	expectAccessible,
	PASSWORD,
	signIn,
	test,
	uniqueEmail,
	uniqueName
} from './fixtures';

/**
 * Flows in the browser: the journeys run against echo sinks and sandboxes this test creates, and
 * a local HTTPS upstream for the services that accept only https:.
 */

const XML_TYPE = { 'content-type': 'application/xml' };

function profileDocument(services: object) {
	return {
		version: 1,
		services,
		push: { gatewayUrl: '', appId: '', target: 'unknown' },
		scenarios: [],
		rawSubstitution: false,
		preservedXml: []
	};
}

async function originOf(page: Page): Promise<string> {
	if (page.url() === 'about:blank') await page.goto('/profiles');
	return new URL(page.url()).origin;
}

/** An echo sink answering `status` with `body`; its absolute URL. */
async function sink(page: Page, status: number, body = '', contentType = ''): Promise<string> {
	const origin = await originOf(page);
	const made = await page.request.post('/api/sinks', {
		headers: { origin },
		data: { name: uniqueName(`Flow sink ${status}`), answer: { status, contentType, body } }
	});
	expect(made.status()).toBe(201);
	const { sink } = (await made.json()) as { sink: { path: string } };
	return `${origin}${sink.path}`;
}

async function profile(page: Page, services: object): Promise<string> {
	const origin = await originOf(page);
	const made = await page.request.post('/api/profiles', {
		headers: { origin },
		data: { name: uniqueName('Flows'), document: profileDocument(services) }
	});
	expect(made.status()).toBe(201);
	return ((await made.json()) as { profile: { id: string } }).profile.id;
}

test.describe('flows', () => {
	let secure: Upstream;

	test.beforeAll(async () => {
		secure = await startUpstream({ tls: true });
	});

	test.afterAll(async () => {
		await secure.stop();
	});

	test('registration: the verifier answers 200 with key/values, page 2 sends the PIN, the provisioning answer is read', async ({
		page
	}) => {
		const verifier = await sink(page, 200, '{"token":"t-42"}', 'application/json');
		const id = await profile(page, {
			phoneNumberVerifier: {
				phoneNumberVerifierUrl: `${verifier}verify`,
				phoneNumberVerifierPostData: 'number=%phoneNumber%'
			},
			extSSOProv: {
				extSSOProvUrl: `${secure.url}/provision`,
				extSSOProvPostData:
					'user=%account[cloud_username]%&pin=%account[cloud_password]%&token=%token%'
			}
		});
		secure.answerNext({
			status: 200,
			headers: XML_TYPE,
			body: '<account><username>sip-9</username><password>s3cret-9</password></account>'
		});
		const before = secure.requests.length;
		await page.goto(`/profiles/${id}`);
		await page.getByRole('link', { name: 'Flows' }).click();
		await expect(page.getByRole('heading', { level: 1 })).toContainText('Flows of');
		await expect(page.getByRole('radio', { name: 'Registration wizard' })).toBeChecked();

		// Nothing is guessed: an empty form is refused with what is missing.
		await page.getByRole('button', { name: 'Run' }).click();
		await expect(page.getByRole('alert')).toContainText('phoneNumber: Required');
		await expect(page.getByRole('alert')).toContainText('pin: Required');
		await page.getByLabel('phoneNumber', { exact: true }).fill('4155550123');
		await page.getByLabel('pin', { exact: true }).fill('4711');
		await page.getByRole('button', { name: 'Run' }).click();
		await expect(page.getByRole('alert')).toContainText('An international number');

		await page.getByLabel('phoneNumber', { exact: true }).fill('+14155550123');
		// Ctrl+Enter runs it from the form.
		await page.getByLabel('pin', { exact: true }).press('Control+Enter');
		const result = page.getByRole('region', { name: /^Run \d+: Registration wizard/ });
		await expect(result).toContainText('The journey went as the contract wants.');
		await expect(page).toHaveURL(/run=\d+/);

		// The two wizard pages, beside the calls.
		const wizard = result.getByRole('group', {
			name: 'The registration wizard as the user sees it'
		});
		await expect(wizard.getByRole('region', { name: 'Page 1: phone number' })).toContainText(
			'+14155550123'
		);
		const page2 = wizard.getByRole('region', { name: 'Page 2: PIN' });
		await expect(page2).toContainText('%token%');
		await expect(page2).toContainText('t-42');
		await expect(page2).toContainText('Provisioned');

		// Every step: decision, contract row, the request as sent (PIN masked), the response.
		const first = result.getByRole('article', { name: /1\. Phone Number Verifier/ });
		await expect(first).toContainText('the wizard moves to page 2');
		await expect(first).toContainText('Contract, States and transitions');
		await expect(first.getByLabel('Request body of step 1')).toHaveText('number=%2B14155550123');
		await expect(first.getByLabel('Response body')).toContainText('t-42');
		const second = result.getByRole('article', { name: /2\. External provisioning/i });
		await expect(second).toContainText('External provisioning is invoked with the phone number');
		await expect(second.getByLabel('Request body of step 2')).toContainText('token=t-42');
		await expect(second.getByLabel('Request body of step 2')).not.toContainText('4711');
		await expect(result).not.toContainText('s3cret-9');
		expect(secure.requests[before].body).toBe('user=%2B14155550123&pin=4711&token=t-42');

		// Listed, and openable later.
		const runs = page.getByRole('table', { name: /Runs of flows/ });
		await expect(runs.getByRole('row')).toHaveCount(2);
		await expect(runs).toContainText('admin@example.com');
		await expect(runs).toContainText('As the contract wants');
		await page.screenshot({ path: 'test-results/flows-registration.png', fullPage: true });
		await expectAccessible(page);
		await page.emulateMedia({ colorScheme: 'dark' });
		await expectAccessible(page);
	});

	test('registration: a verifier answering 500 with a message keeps the wizard on page 1 with it', async ({
		page
	}) => {
		const verifier = await sink(page, 500, '{"message":"Try later"}', 'application/json');
		const id = await profile(page, {
			phoneNumberVerifier: {
				phoneNumberVerifierUrl: `${verifier}verify`,
				phoneNumberVerifierPostData: 'number=%phoneNumber%'
			},
			extSSOProv: { extSSOProvUrl: `${secure.url}/provision`, extSSOProvPostData: 'u=%username%' }
		});
		const before = secure.requests.length;
		await page.goto(`/profiles/${id}/flows`);
		await page.getByLabel('phoneNumber', { exact: true }).fill('+14155550123');
		await page.getByLabel('pin', { exact: true }).fill('4711');
		await page.getByRole('button', { name: 'Run' }).click();
		const result = page.getByRole('region', { name: /^Run \d+: Registration wizard/ });
		await expect(result).toContainText(
			'The verifier answered 500; the wizard stays on page 1 and shows in a message box: “Try later”.'
		);
		const page1 = result.getByRole('region', { name: 'Page 1: phone number' });
		await expect(page1).toContainText('The wizard stays on this page.');
		await expect(page1.getByLabel('Message box')).toHaveText(/Try later/);
		await expect(result.getByRole('region', { name: 'Page 2: PIN' })).toContainText('Not reached');
		await expect(result.getByRole('article')).toHaveCount(1);
		expect(secure.requests.length).toBe(before);
		await expect(page.getByRole('table', { name: /Runs of flows/ })).toContainText('Failed');
		await page.setViewportSize({ width: 390, height: 844 });
		await page.screenshot({ path: 'test-results/flows-rejected-390.png', fullPage: true });
		const overflow = await page.evaluate(
			() => document.documentElement.scrollWidth - document.documentElement.clientWidth
		);
		expect(overflow).toBeLessThanOrEqual(0);
	});

	test('contacts: 204 is success, 500 is silently ignored; a past run reopens, for viewers too', async ({
		page,
		browser
	}) => {
		const ok = await sink(page, 204);
		const broken = await sink(page, 500, 'boom', 'text/plain');
		const id = await profile(page, {
			invitationAccepted: {
				invitationAcceptedUrl: `${ok}invite`,
				invitationAcceptedPostData: '{"invitee":"%invitee%","invitor":"%invitor%"}',
				invitationAcceptedContentType: 'application/json'
			},
			smartContactNotification: {
				smartContactNotificationUrl: `${broken}smart`,
				smartContactNotificationPostData:
					'{"newSmartNumber":"%new_smart_number%","interestedParties":%interestedParties%}',
				smartContactNotificationContentType: 'application/json'
			}
		});
		await page.goto(`/profiles/${id}/flows`);
		await page.getByRole('radio', { name: 'Contacts server events' }).check();
		// The payload values the templates use are asked for, each with what it means.
		await page.getByLabel('invitee', { exact: true }).fill('bob');
		await page.getByLabel('invitor', { exact: true }).fill('alice');
		await page.getByLabel('new_smart_number', { exact: true }).fill('+14155550124');
		await page.getByLabel('interestedParties', { exact: true }).fill('alice and bob');
		await page.getByRole('button', { name: 'Run' }).click();
		await expect(page.getByRole('alert')).toContainText('A JSON array of');
		await page
			.getByLabel('interestedParties', { exact: true })
			.fill('[{"username":"alice","device":"phone"},{"username":"carol","device":"tablet"}]');
		await page.getByRole('button', { name: 'Run' }).click();
		const result = page.getByRole('region', { name: /^Run \d+: Contacts server events/ });
		const invite = result.getByRole('article', { name: /1\. Invitation Accepted/ });
		await expect(invite).toContainText('as the contract wants');
		await expect(invite).toContainText('204');
		await expect(invite.getByLabel('Request body of step 1')).toHaveText(
			'{"invitee":"bob","invitor":"alice"}'
		);
		const smart = result.getByRole('article', { name: /2\. New Smart Contact/ });
		await expect(smart).toContainText('silently ignored');
		await expect(smart).toContainText('Contract, Errors');
		await expect(smart.getByLabel('Request body of step 2')).toContainText('"carol"');
		const runId = /run=(\d+)/.exec(page.url())![1];

		// Reopened from the list after leaving the page.
		await page.goto(`/profiles/${id}`);
		await page.goto(`/profiles/${id}/flows`);
		await expect(page.getByRole('region', { name: /^Run \d+/ })).toHaveCount(0);
		await page.getByRole('link', { name: `Open run ${runId}` }).click();
		await expect(
			page.getByRole('region', { name: `Run ${runId}: Contacts server events` })
		).toContainText('silently ignored');
		await page.screenshot({ path: 'test-results/flows-contacts.png', fullPage: true });

		// A viewer sees the runs and opens them, and is not offered to run one.
		const email = uniqueEmail('flow-viewer');
		await createUser(page, { email, name: 'Flo Viewer', role: 'viewer' });
		const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
		const viewer = await context.newPage();
		await signIn(viewer, email, PASSWORD);
		await viewer.goto(`/profiles/${id}/flows`);
		await expect(viewer.getByText('Editors and admins run flows.')).toBeVisible();
		await expect(viewer.getByRole('button', { name: 'Run' })).toHaveCount(0);
		await expect(viewer.getByRole('table', { name: /Runs of flows/ })).toContainText(
			'admin@example.com'
		);
		await viewer.getByRole('link', { name: `Open run ${runId}` }).click();
		await expect(
			viewer.getByRole('region', { name: `Run ${runId}: Contacts server events` })
		).toContainText('as the contract wants');
		const refused = await viewer.request.post('/api/flows/contacts', {
			headers: { origin: new URL(viewer.url()).origin },
			data: { profileId: id, values: {} }
		});
		expect(refused.status()).toBe(403);
		await context.close();
	});

	test('app start: the token is reported, then a NotifyTextMessage reaches the sandbox and its device', async ({
		page
	}) => {
		const reporter = await sink(page, 200);
		const id = await profile(page, {
			pushTokenReporter: {
				pushTokenReporterUrl: `${reporter}token?s=%selector%&t=%pushToken%&a=%pushappid%`
			}
		});
		const origin = await originOf(page);
		const made = await page.request.post('/api/sandboxes', {
			headers: { origin },
			data: { name: uniqueName('Flow device') }
		});
		expect(made.status()).toBe(201);
		const { sandbox } = (await made.json()) as { sandbox: { id: string; name: string } };

		await page.goto(`/profiles/${id}/flows`);
		await page.getByRole('radio', { name: 'App start' }).check();
		await page.getByLabel('selector', { exact: true }).fill('sel-1');
		await page.getByLabel('pushToken', { exact: true }).fill('token-1');
		await page.getByLabel('pushappid', { exact: true }).fill('com.provider.app');
		await page.getByLabel('message (optional)').fill('Dinner at 8');
		await page.getByRole('button', { name: 'Run' }).click();
		await expect(page.getByRole('alert')).toContainText('Sandbox: choose the sandbox');
		await page.getByLabel('Sandbox', { exact: true }).selectOption({ label: sandbox.name });
		await page.getByRole('button', { name: 'Run' }).click();

		const result = page.getByRole('region', { name: /^Run \d+: App start/ });
		await expect(result).toContainText('The journey went as the contract wants.');
		const report = result.getByRole('article', { name: /1\. Push Token Reporter/ });
		await expect(report).toContainText('as the contract wants');
		await expect(report).toContainText('s=sel-1&t=token-1&a=com.provider.app');
		const push = result.getByRole('article', { name: /2\. NotifyTextMessage push/ });
		await expect(push).toContainText('as the contract wants');
		await expect(push.getByLabel('Request body of step 2')).toContainText('"Selector":"sel-1"');
		await expect(push.getByLabel('Request body of step 2')).toContainText('Dinner at 8');

		await result.getByRole('link', { name: 'Open the device view of the sandbox' }).click();
		await expect(page.getByRole('heading', { level: 1, name: sandbox.name })).toBeVisible();
		await expect(page.getByRole('list', { name: 'Pushes received' })).toContainText('Dinner at 8');
	});

	test("runs the editor's unsaved draft when asked, and the saved revision otherwise", async ({
		page
	}) => {
		const ok = await sink(page, 204);
		const id = await profile(page, {
			invitationAccepted: {
				invitationAcceptedUrl: `${ok}saved`,
				invitationAcceptedPostData: 'invitee=%invitee%'
			}
		});
		await page.goto(`/profiles/${id}/services/invitationAccepted`);
		await page.getByRole('textbox', { name: /^URL/ }).click();
		await page.keyboard.press('End');
		await page.keyboard.type('-draft');
		await page.keyboard.press('Escape');
		await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();

		await page.getByRole('link', { name: 'Flows', exact: true }).click();
		await page.getByRole('radio', { name: 'Contacts server events' }).check();
		await page.getByLabel('invitee', { exact: true }).fill('bob');
		const useDraft = page.getByRole('checkbox', { name: 'Run the unsaved draft' });
		await expect(useDraft).not.toBeChecked();
		await page.getByRole('button', { name: 'Run' }).click();
		const saved = page.getByRole('region', { name: /^Run \d+: Contacts server events$/ });
		await expect(saved.getByRole('article').first()).toContainText(`${ok}saved`);
		await expect(saved.getByRole('article').first()).not.toContainText('saved-draft');

		await useDraft.check();
		await page.getByRole('button', { name: 'Run' }).click();
		const drafted = page.getByRole('region', { name: /\(unsaved draft\)$/ });
		await expect(drafted.getByRole('article').first()).toContainText(`${ok}saved-draft`);
		await expect(drafted).toContainText(
			'The journey did not go as the contract wants: No URL: New Smart Contact Notification is not called.'
		);
		// Only the saved revision's run is listed with the profile.
		await expect(page.getByRole('table', { name: /Runs of flows/ }).getByRole('row')).toHaveCount(
			2
		);
	});
});
