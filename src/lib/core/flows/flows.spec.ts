import { describe, expect, it } from 'vitest';
import { FLOW_ROWS, runTitle } from '../catalogue/flows';
import { buildRequests, type BuiltRequest, type Settings, type Values } from '../request';
import { interpretResponse } from '../response';
import {
	appStartPushOf,
	missingInputs,
	noAnswer,
	runAppStart,
	runFlow,
	text,
	type SendStep,
	type StepOutcome
} from '.';

/**
 * The flows over the real request builder and response interpreter: each reply is what a
 * provider's server would answer, and each step must be decided by the contract's row.
 */

type Reply =
	{ status: number; body?: string; type?: string } | { fail: 'refused' | 'failed'; code: string };

/** A sender that builds each plan and answers its requests with the queued replies, in order. */
function sender(replies: Reply[]) {
	const sent: { service: string; request: BuiltRequest }[] = [];
	const send: SendStep<BuiltRequest> = async (plan) => {
		const built = buildRequests({
			service: plan.service,
			settings: plan.settings,
			values: plan.values
		});
		return {
			issues: built.issues,
			results: built.requests.map((request) => {
				sent.push({ service: plan.service, request });
				const reply = replies.shift() ?? { status: 200 };
				let outcome: StepOutcome;
				if ('fail' in reply) {
					outcome = { kind: reply.fail, code: reply.code, message: `${reply.code} happened` };
				} else {
					const body = reply.body ?? '';
					const headers: Record<string, string> = reply.type ? { 'content-type': reply.type } : {};
					outcome = {
						kind: 'answered',
						status: reply.status,
						body,
						interpretation: interpretResponse(
							plan.service,
							{ status: reply.status, headers, body },
							{ username: text(plan.values, 'username'), cloudId: text(plan.values, 'cloud_id') }
						)
					};
				}
				return { outcome, record: request };
			})
		};
	};
	return { send, sent };
}

const JSON_TYPE = 'application/json';

const REGISTRATION: Partial<Record<string, Settings>> = {
	phoneNumberVerifier: { phoneNumberVerifierUrl: 'https://verify.example.com/v?n=%phoneNumber%' },
	extSSOProv: {
		extSSOProvUrl:
			'https://prov.example.com/p?u=%account[cloud_username]%&p=%account[cloud_password]%&t=%token%&l=%username%'
	}
};
const WIZARD: Values = { phoneNumber: '+14155550123', pin: '4711' };

describe('registration wizard', () => {
	it('no provisioning URL: page 2 names the one portal field to set, once', async () => {
		const { send } = sender([{ status: 200, type: JSON_TYPE, body: '{"token":"t-9"}' }]);
		const verifierOnly = { phoneNumberVerifier: REGISTRATION.phoneNumberVerifier };
		const run = await runFlow('registration', verifierOnly, WIZARD, send);
		expect(run.ok).toBe(false);
		const text = run.steps[1].decision.text;
		expect(text).toContain('Set InitialProvisioningUrl');
		// The SSO entry's initialProvisioningUrl is the same portal field: it is not a second one.
		expect(text).not.toMatch(/initial provisioning URL/i);
		expect(text).toContain('extSSOProvUrl');
	});

	it('2xx with a body: page 2, the keys become placeholders of the provisioning call', async () => {
		const { send, sent } = sender([
			{ status: 200, type: JSON_TYPE, body: '{"token":"t-9"}' },
			{ status: 200, type: 'application/xml', body: '<account><username>u1</username></account>' }
		]);
		const run = await runFlow('registration', REGISTRATION, WIZARD, send);
		expect(run.ok).toBe(true);
		expect(run.steps.map((s) => s.contractRow.id)).toEqual(['wizardVerified', 'wizardPin']);
		expect(run.steps[0].contractRow).toBe(FLOW_ROWS.wizardVerified);
		expect(run.steps[0].decision.text).toContain('%token%');
		expect(sent[0].request.url).toBe('https://verify.example.com/v?n=%2B14155550123');
		expect(sent[1].request.url).toBe(
			'https://prov.example.com/p?u=%2B14155550123&p=4711&t=t-9&l=%2B14155550123'
		);
		expect(run.steps[1].filled).toMatchObject({
			token: 't-9',
			'account[cloud_username]': '+14155550123',
			'account[cloud_password]': '4711'
		});
		expect(run.result.wizard).toEqual({
			page: 2,
			provisioned: true,
			messageBox: null,
			placeholders: { token: 't-9' }
		});
	});

	it('2xx with no body: page 2 with no placeholders', async () => {
		const { send } = sender([{ status: 204 }, { status: 200, body: '' }]);
		const run = await runFlow('registration', REGISTRATION, WIZARD, send);
		expect(run.steps[0].decision.status).toBe('ok');
		expect(run.steps[0].decision.text).toContain('no placeholders');
		expect(run.steps).toHaveLength(2);
	});

	it('2xx with a body that is not valid: stays on page 1, the second call is not made', async () => {
		const { send, sent } = sender([{ status: 200, type: JSON_TYPE, body: '{"token":' }]);
		const run = await runFlow('registration', REGISTRATION, WIZARD, send);
		expect(run.ok).toBe(false);
		expect(sent).toHaveLength(1);
		expect(run.steps[0].contractRow.id).toBe('wizardVerified');
		expect(run.steps[0].decision.status).toBe('failed');
		expect(run.result.wizard).toMatchObject({ page: 1 });
	});

	it('non-2xx with message: page 1 and the message box shows it', async () => {
		const { send, sent } = sender([
			{ status: 400, type: JSON_TYPE, body: '{"message":"Invalid number"}' }
		]);
		const run = await runFlow('registration', REGISTRATION, WIZARD, send);
		expect(sent).toHaveLength(1);
		expect(run.steps[0].contractRow.id).toBe('wizardRejected');
		expect(run.steps[0].decision.text).toBe(
			'The verifier answered 400; the wizard stays on page 1 and shows in a message box: “Invalid number”.'
		);
		expect(run.result.wizard).toMatchObject({ page: 1, messageBox: 'Invalid number' });
	});

	it('non-2xx without message: the first 100 characters of the body', async () => {
		const { send } = sender([{ status: 500, body: 'e'.repeat(150) }]);
		const run = await runFlow('registration', REGISTRATION, WIZARD, send);
		expect(run.steps[0].decision.shownToUser).toBe('e'.repeat(100));
	});

	it('an unreachable verifier fails the step and ends the flow', async () => {
		const { send } = sender([{ fail: 'failed', code: 'connect_refused' }]);
		const run = await runFlow('registration', REGISTRATION, WIZARD, send);
		expect(run.ok).toBe(false);
		expect(run.steps).toHaveLength(1);
		expect(run.steps[0].decision.text).toContain('connect_refused happened');
	});

	it('page 2 uses the URL by priority and ignores the SSO skip flag', async () => {
		const { send, sent } = sender([{ status: 200 }, { status: 200 }]);
		const services = {
			...REGISTRATION,
			extSSOProv: {
				externalProvisioningOnSSODisabled: '1',
				reprovisioningUrl: 'https://re.example.com/r?u=%account[cloud_username]%'
			}
		};
		const run = await runFlow('registration', services, WIZARD, send);
		expect(sent[1].request.url).toBe('https://re.example.com/r?u=%2B14155550123');
		expect(run.ok).toBe(true);
	});

	it('page 2 without any provisioning URL fails and says what to set', async () => {
		const { send } = sender([{ status: 200 }]);
		const run = await runFlow(
			'registration',
			{ phoneNumberVerifier: REGISTRATION.phoneNumberVerifier },
			WIZARD,
			send
		);
		expect(run.ok).toBe(false);
		expect(run.steps[1].record).toBeNull();
		expect(run.steps[1].decision.text).toContain('extSSOProvUrl');
	});

	it('a provisioning answer that is not an account document does not continue', async () => {
		const { send } = sender([{ status: 200 }, { status: 500, body: 'down' }]);
		const run = await runFlow('registration', REGISTRATION, WIZARD, send);
		expect(run.ok).toBe(false);
		expect(run.steps[1].contractRow.id).toBe('wizardPin');
		expect(run.steps[1].decision.text).toContain('answered 500');
	});

	it('asks for the number and the PIN', () => {
		expect(missingInputs('registration', { phoneNumber: '+1' })).toEqual(['pin']);
	});
});

const SSO: Partial<Record<string, Settings>> = {
	extSSOProv: { extSSOProvUrl: 'https://prov.example.com/sso?u=%account[cloud_username]%' },
	externalAuth: { externalAuthUrl: 'https://auth.example.com/a?u=%username%&p=%password%' }
};
const DEVICE: Values = {
	'account[cloud_username]': 'dev-user',
	'account[cloud_password]': 'dev-pass',
	cloud_id: 'cloud-1'
};

describe('SSO sign-in', () => {
	it('the account document’s tags fill %username% and %password%', async () => {
		const { send, sent } = sender([
			{
				status: 200,
				type: 'application/xml',
				body: '<account><username>sip-1</username><password>pw-1</password></account>'
			},
			{ status: 200, type: JSON_TYPE, body: '{"phoneNumbers":["+14155550123"]}' }
		]);
		const run = await runFlow('sso', SSO, DEVICE, send);
		expect(run.ok).toBe(true);
		expect(sent[1].request.url).toBe('https://auth.example.com/a?u=sip-1&p=pw-1');
		expect(run.steps.map((s) => s.contractRow.id)).toEqual([
			'ssoLegacyCredentials',
			'ssoAuthenticated'
		]);
		expect(run.result.sso).toMatchObject({
			credentials: [
				{ placeholder: 'username', source: 'account.xml' },
				{ placeholder: 'password', source: 'account.xml' }
			],
			authentication: { numbers: ['+14155550123'], networkId: 'cloud-1', networkIdDefaulted: true },
			impaired: []
		});
	});

	it('the flag skips the provisioning call; the device credentials are used', async () => {
		const { send, sent } = sender([{ status: 200, type: JSON_TYPE, body: '{}' }]);
		const services = {
			...SSO,
			extSSOProv: { ...SSO.extSSOProv, externalProvisioningOnSSODisabled: '1' }
		};
		const run = await runFlow('sso', services, DEVICE, send);
		expect(sent.map((s) => s.service)).toEqual(['externalAuth']);
		expect(run.steps[0].contractRow.id).toBe('ssoProvisioningSkipped');
		expect(sent[0].request.url).toBe('https://auth.example.com/a?u=dev-user&p=dev-pass');
	});

	it('without any provisioning URL it is the simple flow', async () => {
		const { send } = sender([{ status: 200 }]);
		const run = await runFlow('sso', { externalAuth: SSO.externalAuth }, DEVICE, send);
		expect(run.steps[0].contractRow.id).toBe('ssoSimpleFlow');
		expect(run.steps[1].contractRow.id).toBe('ssoAuthenticated');
	});

	it('a failing provisioning answer is ignored and the device credentials are used', async () => {
		const { send, sent } = sender([{ status: 500 }, { status: 200 }]);
		const run = await runFlow('sso', SSO, DEVICE, send);
		expect(run.steps[0].decision.status).toBe('ignored');
		expect(sent[1].request.url).toBe('https://auth.example.com/a?u=dev-user&p=dev-pass');
	});

	it('a failing External Authentication is ignored, and contact sync and smart contacts suffer', async () => {
		const { send } = sender([
			{ status: 200 },
			{ status: 400, type: JSON_TYPE, body: '{"message":"bad"}' }
		]);
		const run = await runFlow('sso', SSO, DEVICE, send);
		expect(run.ok).toBe(false);
		expect(run.steps[1].contractRow.id).toBe('ssoFailed');
		expect(run.steps[1].decision.text).toContain(
			'contact sync and smart contact resolution are impaired'
		);
		expect(run.result.sso).toMatchObject({
			impaired: ['contact sync', 'smart contact resolution']
		});
	});

	it('an http: External Authentication URL is refused by its https-only row', async () => {
		const { send } = sender([{ status: 200 }, { fail: 'refused', code: 'https_required' }]);
		const run = await runFlow('sso', SSO, DEVICE, send);
		expect(run.steps[1].contractRow.id).toBe('ssoHttpsOnly');
		expect(run.steps[1].decision.status).toBe('failed');
	});

	it('an unreachable provisioning URL stops the sign-in there', async () => {
		const { send, sent } = sender([{ fail: 'failed', code: 'timeout' }]);
		const run = await runFlow('sso', SSO, DEVICE, send);
		expect(sent).toHaveLength(1);
		expect(run.steps).toHaveLength(1);
		expect(run.ok).toBe(false);
	});
});

const CONTACTS: Partial<Record<string, Settings>> = {
	invitationAccepted: { invitationAcceptedUrl: 'https://c.example.com/inv?i=%invitee%' },
	smartContactNotification: {
		smartContactNotificationUrl: 'https://c.example.com/smart',
		smartContactNotificationPostData: '{"p":%interestedParties%}',
		smartContactNotificationContentType: JSON_TYPE
	}
};
const EVENTS: Values = {
	invitee: '+14155550123',
	invitor: 'alice',
	network_id: 'n1',
	new_smart_number: '+14155550124',
	new_smart_uri: 'sip:bob@example.com',
	interestedParties: [{ username: 'alice', device: 'phone' }]
};

describe('contacts server events', () => {
	it('204 to both events: delivered, each by its Events row', async () => {
		const { send, sent } = sender([{ status: 204 }, { status: 204 }]);
		const run = await runFlow('contacts', CONTACTS, EVENTS, send);
		expect(run.ok).toBe(true);
		expect(run.steps.map((s) => s.contractRow.id)).toEqual([
			'invitationAccepted',
			'newSmartContact'
		]);
		expect(sent[1].request.body).toBe('{"p":[{"username":"alice","device":"phone"}]}');
	});

	it('anything but 204 is silently ignored, and the other event is still sent', async () => {
		const { send, sent } = sender([{ status: 200 }, { status: 500 }]);
		const run = await runFlow('contacts', CONTACTS, EVENTS, send);
		expect(sent).toHaveLength(2);
		expect(run.ok).toBe(false);
		expect(run.steps.map((s) => [s.contractRow.id, s.decision.status])).toEqual([
			['contactsIgnored', 'ignored'],
			['contactsIgnored', 'ignored']
		]);
		expect(run.steps[0].decision.shownToUser).toBeNull();
	});
});

describe('send message to several recipients', () => {
	it('one call per recipient, every sms_id collected, each failure shown', async () => {
		const { send, sent } = sender([
			{ status: 200, type: JSON_TYPE, body: '{"sms_id":"a"}' },
			{ status: 402, type: JSON_TYPE, body: '{"message":"Not enough credit"}' },
			{ status: 200, type: JSON_TYPE, body: '{"sms_id":"c"}' }
		]);
		const run = await runFlow(
			'send-message',
			{ sendMessage: { genericSmsSendUrl: 'https://s.example.com/?to=%sms_to%' } },
			{ sms_to: ['+1555', '+1666', '+1777'], sms_body: 'hi' },
			send
		);
		expect(sent.map((s) => s.request.url)).toEqual([
			'https://s.example.com/?to=%2B1555',
			'https://s.example.com/?to=%2B1666',
			'https://s.example.com/?to=%2B1777'
		]);
		expect(run.result.smsIds).toEqual(['a', 'c']);
		expect(run.steps.map((s) => s.contractRow.id)).toEqual([
			'sendPerRecipient',
			'sendFailed',
			'sendPerRecipient'
		]);
		expect(run.steps[1].decision.shownToUser).toBe('Not enough credit');
		expect(run.ok).toBe(false);
	});

	it('asks for recipients and a body', () => {
		expect(missingInputs('send-message', { sms_to: [] })).toEqual(['sms_to', 'sms_body']);
	});
});

describe('app start', () => {
	const START: Values = { selector: 'abc:1', pushToken: 'tok', pushappid: 'app' };
	const SERVICES = {
		pushTokenReporter: { pushTokenReporterUrl: 'https://t.example.com/?s=%selector%' }
	};

	it('reports, then pushes a NotifyTextMessage to the reported token and selector', async () => {
		const { send } = sender([{ status: 200 }]);
		const bodies: Record<string, unknown>[] = [];
		const run = await runAppStart(SERVICES, START, send, async (body) => {
			bodies.push(body);
			return { record: null as unknown as BuiltRequest, accepted: true, text: 'accepted' };
		});
		expect(run.ok).toBe(true);
		expect(bodies[0]).toMatchObject({
			verb: 'NotifyTextMessage',
			DeviceToken: 'tok',
			Selector: 'abc:1',
			AppId: 'app'
		});
		expect(run.steps.map((s) => s.contractRow.id)).toEqual([
			'pushTokenReported',
			'incomingMessagePush'
		]);
	});

	it('with push = NotifyReprovision, sends that to the reported token and selector instead', async () => {
		const { send } = sender([{ status: 200 }]);
		const bodies: Record<string, unknown>[] = [];
		const run = await runAppStart(
			SERVICES,
			{ ...START, push: 'NotifyReprovision', message: 'not used' },
			send,
			async (body) => {
				bodies.push(body);
				return { record: null as unknown as BuiltRequest, accepted: true, text: 'accepted' };
			}
		);
		expect(bodies).toEqual([
			{ verb: 'NotifyReprovision', AppId: 'app', DeviceToken: 'tok', Selector: 'abc:1' }
		]);
		expect(run.steps[1].contractRow).toMatchObject({ id: 'reprovisionPush', table: 'Events' });
		expect(run.steps[1].decision.text).toContain('reloads its configuration');
	});

	it('knows the pushes it may send', () => {
		expect(appStartPushOf({})).toBe('NotifyTextMessage');
		expect(appStartPushOf({ push: 'NotifyReprovision' })).toBe('NotifyReprovision');
		expect(appStartPushOf({ push: 'NotifyGenericTextMessage' })).toBeNull();
	});

	it('a failed report is made again; two failures send no push', async () => {
		const { send, sent } = sender([{ status: 500 }, { status: 400 }]);
		let pushed = false;
		const run = await runAppStart(SERVICES, START, send, async () => {
			pushed = true;
			return { record: null as unknown as BuiltRequest, accepted: true, text: '' };
		});
		expect(sent).toHaveLength(2);
		expect(pushed).toBe(false);
		expect(run.ok).toBe(false);
		expect(run.steps.map((s) => [s.contractRow.id, s.decision.status])).toEqual([
			['pushTokenRetried', 'ignored'],
			['pushTokenRetried', 'ignored']
		]);
	});
});

describe('the rows', () => {
	it('every row is named by its own id and quotes the contract', () => {
		for (const [id, row] of Object.entries(FLOW_ROWS)) {
			expect(row.id).toBe(id);
			expect(row.text.length).toBeGreaterThan(20);
		}
	});
});

describe('app start on platform A 13+', () => {
	it('reports first with a null pushTokenOther, then with the value', async () => {
		const { send, sent } = sender([{ status: 200 }, { status: 200 }]);
		const run = await runAppStart(
			{
				pushTokenReporter: {
					pushTokenReporterUrl: 'https://t.example.com/?s=%selector%&o=%pushTokenOther%'
				}
			},
			{
				selector: 's:1',
				pushToken: 't',
				pushappid: 'a',
				pushTokenOther: 'other',
				platform: 'platformA13'
			},
			send,
			async () => ({ record: null as unknown as BuiltRequest, accepted: true, text: 'accepted' })
		);
		expect(sent.map((s) => s.request.url)).toEqual([
			'https://t.example.com/?s=s%3A1&o=',
			'https://t.example.com/?s=s%3A1&o=other'
		]);
		expect(run.steps.map((s) => s.contractRow.id)).toEqual([
			'pushTokenLater',
			'pushTokenReported',
			'incomingMessagePush'
		]);
	});
});

describe('the title of a kept run', () => {
	it('names a flow, a journey, or what an older app kept', () => {
		expect(runTitle('send-message')).toBe('Send Message to several recipients');
		expect(runTitle('messaging')).toBe('Messaging round trip');
		expect(runTitle('gone')).toBe('gone');
	});
});

describe('why no answer came', () => {
	it('names the outcome in parentheses without doubling its full stop', () => {
		const message = 'Port 18495 is not allowed (allowed: 80, 443, 8080, 8443 and OUTBOUND_PORTS).';
		expect(`${noAnswer({ kind: 'failed', code: 'blocked_port', message })}.`).toBe(
			'no answer came (Port 18495 is not allowed (allowed: 80, 443, 8080, 8443 and OUTBOUND_PORTS)).'
		);
		expect(noAnswer({ kind: 'refused', code: 'https_required', message: 'Use https:' })).toBe(
			'the request was not sent (Use https:)'
		);
	});
});
