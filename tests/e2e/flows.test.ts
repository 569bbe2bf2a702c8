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

	/** A profile whose Phone Number Verifier (an echo sink) answers 500 with a message. */
	async function refusedByVerifier(page: Page): Promise<string> {
		const verifier = await sink(page, 500, '{"message":"Try later"}', 'application/json');
		return profile(page, {
			phoneNumberVerifier: {
				phoneNumberVerifierUrl: `${verifier}verify`,
				phoneNumberVerifierPostData: 'number=%phoneNumber%'
			},
			extSSOProv: { extSSOProvUrl: `${secure.url}/provision`, extSSOProvPostData: 'u=%username%' }
		});
	}

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
		const id = await refusedByVerifier(page);
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

	test('values typed before the page can run a flow are kept, and Run waits until it can', async ({
		page
	}) => {
		const id = await refusedByVerifier(page);
		// The page's own script is held back, as on a slow connection, while the user types.
		let release = () => {};
		const held = new Promise<void>((resolve) => (release = resolve));
		await page.route('**/_app/immutable/nodes/**', async (route) => {
			await held;
			await route.continue();
		});
		await page.goto(`/profiles/${id}/flows`, { waitUntil: 'commit' });
		await page.getByLabel('phoneNumber', { exact: true }).fill('+14155550123');
		await page.getByLabel('pin', { exact: true }).fill('4711');
		const run = page.getByRole('button', { name: 'Run' });
		await expect(run).toBeDisabled();
		release();
		await expect(run).toBeEnabled();
		await run.click();
		const result = page.getByRole('region', { name: /^Run \d+: Registration wizard/ });
		await expect(result).toContainText('The verifier answered 500');
		await expect(page).toHaveURL(new RegExp(`/profiles/${id}/flows`));
		await expect(page.getByRole('alert')).toHaveCount(0);
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
		// Both are listed with the profile, the draft's marked; the draft's run reopens as one.
		await expect(page).toHaveURL(/flow=contacts&run=\d+/);
		const draftRun = /run=(\d+)/.exec(page.url())![1];
		const runs = page.getByRole('table', { name: /Runs of flows/ });
		await expect(runs.getByRole('row')).toHaveCount(3);
		await expect(runs.getByRole('row').nth(1)).toContainText(`Run ${draftRun}`);
		await expect(runs.getByRole('row').nth(1)).toContainText(
			'Contacts server events draft of revision 1'
		);
		await expect(runs.getByRole('row').nth(2)).not.toContainText('draft');
		await page.reload();
		await expect(
			page.getByRole('region', { name: `Run ${draftRun}: Contacts server events (unsaved draft)` })
		).toContainText('on an unsaved draft based on revision 1');
	});

	test('SSO sign-in: the account document fills %username% and %password%, External Authentication over https gives the numbers', async ({
		page
	}) => {
		const id = await profile(page, {
			extSSOProv: {
				extSSOProvUrl: `${secure.url}/sso`,
				extSSOProvPostData: 'u=%account[cloud_username]%&p=%account[cloud_password]%'
			},
			externalAuth: { externalAuthUrl: `${secure.url}/auth?u=%username%&p=%password%` }
		});
		secure.answerNext({
			status: 200,
			headers: XML_TYPE,
			body: '<account><username>sip-alice</username><password>doc-pass-71</password></account>'
		});
		secure.answerNext({
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: '{"phoneNumbers":["+14155550123","+14155550124"],"uri":"sip:alice@example.com"}'
		});
		const before = secure.requests.length;
		// The address names the flow: a link opens it chosen.
		await page.goto(`/profiles/${id}/flows?flow=sso`);
		await expect(page.getByRole('radio', { name: 'SSO sign-in' })).toBeChecked();
		await page.getByRole('button', { name: 'Run' }).click();
		await expect(page.getByRole('alert')).toContainText('account[cloud_username]: Required');
		await expect(page.getByRole('alert')).toContainText('account[cloud_password]: Required');
		await page.getByLabel('account[cloud_username]', { exact: true }).fill('alice@cloud');
		await page.getByLabel('account[cloud_password]', { exact: true }).fill('device-pass-33');
		await page.getByLabel('cloud_id (optional)').fill('cloud-7');
		await page.getByRole('button', { name: 'Run' }).click();

		const result = page.getByRole('region', { name: /^Run \d+: SSO sign-in/ });
		await expect(result).toContainText('The journey went as the contract wants.');
		await expect(page).toHaveURL(/flow=sso&run=\d+/);
		const provisioning = result.getByRole('article', { name: /1\. External provisioning on SSO/ });
		await expect(provisioning).toContainText(
			'%username% from the account document, %password% from the account document'
		);
		await expect(provisioning).toContainText('Contract, External Authentication');
		await expect(provisioning.getByLabel('Request body of step 1')).toContainText(
			'u=alice%40cloud&p='
		);
		const auth = result.getByRole('article', { name: /2\. External Authentication/ });
		await expect(auth).toContainText('as the contract wants');
		await expect(auth).toContainText('2 verified numbers');
		await expect(auth).toContainText(`${secure.url}/auth?u=sip-alice&p=`);
		// Sent as the account document said, shown masked.
		expect(secure.requests[before].body).toBe('u=alice%40cloud&p=device-pass-33');
		expect(secure.requests[before + 1].url).toBe('/auth?u=sip-alice&p=doc-pass-71');
		await expect(result).not.toContainText('doc-pass-71');
		await expect(result).not.toContainText('device-pass-33');

		const gave = result.getByRole('definition');
		await expect(gave.nth(0)).toHaveText('+14155550123, +14155550124');
		await expect(gave.nth(1)).toHaveText('sip:alice@example.com');
		await expect(gave.nth(2)).toHaveText('cloud-7 (the default: the cloud identifier)');
		await expect(result).toContainText('from the external provisioning answer (account.xml)');
		await expect(result).not.toContainText('Impaired');

		// Reload keeps the flow and the run.
		await page.reload();
		await expect(page.getByRole('radio', { name: 'SSO sign-in' })).toBeChecked();
		await expect(page.getByRole('region', { name: /^Run \d+: SSO sign-in/ })).toBeVisible();
		await expectAccessible(page);
	});

	test('SSO sign-in: the skip flag, and an http: External Authentication URL refused as the platform does, with what stops working', async ({
		page
	}) => {
		const plain = await sink(page, 200, '{"phoneNumbers":["+14155550123"]}', 'application/json');
		const id = await profile(page, {
			extSSOProv: {
				extSSOProvUrl: `${secure.url}/sso`,
				externalProvisioningOnSSODisabled: '1'
			},
			externalAuth: { externalAuthUrl: `${plain}auth?u=%username%` }
		});
		const before = secure.requests.length;
		await page.goto(`/profiles/${id}/flows`);
		await page.getByRole('radio', { name: 'SSO sign-in' }).check();
		await expect(page).toHaveURL(/flow=sso/);
		await page.getByLabel('account[cloud_username]', { exact: true }).fill('alice');
		await page.getByLabel('account[cloud_password]', { exact: true }).fill('device-pass-33');
		await page.getByRole('button', { name: 'Run' }).click();
		const result = page.getByRole('region', { name: /^Run \d+: SSO sign-in/ });
		const skipped = result.getByRole('article', { name: /1\. External provisioning on SSO/ });
		await expect(skipped).toContainText('skipped');
		await expect(skipped).toContainText('externalProvisioningOnSSODisabled is 1');
		await expect(skipped).toContainText('Nothing was sent.');
		const auth = result.getByRole('article', { name: /2\. External Authentication/ });
		await expect(auth).toContainText('failed');
		await expect(auth).toContainText('https_required');
		await expect(auth).toContainText('Contract, Limits');
		await expect(auth).toContainText('Nothing was sent.');
		await expect(result).toContainText('contact sync and smart contact resolution are impaired');
		await expect(result.getByRole('definition').last()).toHaveText(
			'contact sync and smart contact resolution stop working.'
		);
		expect(secure.requests.length).toBe(before);
		// The http: sink was not called either.
		const key = new URL(plain).pathname.split('/')[2];
		const received = await page.request.get(`/api/sinks/${key}`);
		expect(((await received.json()) as { requests: unknown[] }).requests).toHaveLength(0);
		await page.screenshot({ path: 'test-results/flows-sso-refused.png', fullPage: true });
	});

	test('Send Message to several recipients: one call each, each outcome, the sms_ids kept, one recipient refused', async ({
		page
	}) => {
		const upstream = await startUpstream();
		try {
			const id = await profile(page, {
				sendMessage: {
					genericSmsSendUrl: `${upstream.url}/send`,
					genericSmsSendPostData: '{"to":"%sms_to%","text":"%sms_body%"}',
					genericSmsSendContentType: 'application/json'
				}
			});
			const JSON_TYPE = { 'content-type': 'application/json' };
			upstream.answerNext({ status: 200, headers: JSON_TYPE, body: '{"sms_id":"sms-101"}' });
			upstream.answerNext({
				status: 406,
				headers: JSON_TYPE,
				body: '{"message":"Invalid recipient"}'
			});
			upstream.answerNext({ status: 200, headers: JSON_TYPE, body: '{"sms_id":"sms-103"}' });
			await page.goto(`/profiles/${id}/flows`);
			await page.getByRole('radio', { name: 'Send Message to several recipients' }).check();
			await page
				.getByLabel('sms_to', { exact: true })
				.fill('+14155550101\n+14155550102\n\n+14155550103');
			await page.getByLabel('sms_body', { exact: true }).fill('See you at 8');
			await page.getByRole('button', { name: 'Run' }).click();

			const result = page.getByRole('region', {
				name: /^Run \d+: Send Message to several recipients/
			});
			await expect(result).toContainText(
				'The journey did not go as the contract wants: Answered 406: the message to +14155550102 is not sent'
			);
			await expect(result.getByRole('article')).toHaveCount(3);
			const first = result.getByRole('article', { name: /^1\. Send Message/ });
			await expect(first).toContainText('the app stores sms_id “sms-101”');
			await expect(first.getByLabel('Request body of step 1')).toHaveText(
				'{"to":"+14155550101","text":"See you at 8"}'
			);
			const second = result.getByRole('article', { name: /^2\. Send Message/ });
			await expect(second).toContainText('failed');
			await expect(second).toContainText('The user sees: Invalid recipient');
			await expect(second).toContainText('Contract, Errors');
			const third = result.getByRole('article', { name: /^3\. Send Message/ });
			await expect(third).toContainText('the app stores sms_id “sms-103”');
			await expect(result).toContainText('sms_ids kept: sms-101, sms-103');
			expect(upstream.requests.map((r) => JSON.parse(r.body).to)).toEqual([
				'+14155550101',
				'+14155550102',
				'+14155550103'
			]);
			await expect(page.getByRole('table', { name: /Runs of flows/ })).toContainText(
				'ok → failed → ok'
			);
			await page.setViewportSize({ width: 390, height: 844 });
			await page.screenshot({ path: 'test-results/flows-send-390.png', fullPage: true });
			const overflow = await page.evaluate(
				() => document.documentElement.scrollWidth - document.documentElement.clientWidth
			);
			expect(overflow).toBeLessThanOrEqual(0);
		} finally {
			await upstream.stop();
		}
	});

	test('the chosen flow lives in the address: links, reload, back and the keyboard', async ({
		page
	}) => {
		const id = await profile(page, {});
		await page.goto(`/profiles/${id}/flows?flow=nope`);
		await expect(page.getByRole('radio', { name: 'Registration wizard' })).toBeChecked();
		await page.getByRole('radio', { name: 'Send Message to several recipients' }).check();
		await expect(page).toHaveURL(/\?flow=send-message$/);
		await page.reload();
		await expect(
			page.getByRole('radio', { name: 'Send Message to several recipients' })
		).toBeChecked();
		await expect(page.getByLabel('sms_to', { exact: true })).toBeVisible();

		// Leaving and coming back.
		await page.getByRole('link', { name: /^← / }).click();
		await expect(page).toHaveURL(new RegExp(`/profiles/${id}$`));
		await page.goBack();
		await expect(
			page.getByRole('radio', { name: 'Send Message to several recipients' })
		).toBeChecked();

		// A link within the page, then back: each address chooses its flow.
		await page.goto(`/profiles/${id}/flows?flow=contacts`);
		await expect(page.getByRole('radio', { name: 'Contacts server events' })).toBeChecked();
		await page.goBack();
		await expect(
			page.getByRole('radio', { name: 'Send Message to several recipients' })
		).toBeChecked();

		// Arrow keys move between the flows, and the address follows.
		await page.getByRole('radio', { name: 'Send Message to several recipients' }).focus();
		await page.keyboard.press('ArrowUp');
		await expect(page.getByRole('radio', { name: 'App start' })).toBeChecked();
		await expect(page).toHaveURL(/\?flow=app-start$/);
	});
});
