import { describe, expect, it } from 'vitest';
import {
	ACCOUNT_CORE_PATH,
	ACCOUNT_VARIABLES,
	describeFailure,
	describeSuccess,
	findService,
	getService,
	GLOBAL_VARIABLES,
	keyOf,
	SERVICE_IDS,
	SERVICES,
	vocabularyOf,
	type FailureRule,
	type Service
} from '.';
import { ServiceSchema } from './schema';

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const XML_TYPE = 'application/xml';

describe('the catalogue', () => {
	it('holds exactly the contract services, in the contract order, then those beyond it', () => {
		expect(SERVICE_IDS).toEqual([
			'sendMessage',
			'mediaRefSend',
			'externalAuth',
			'extSSOProv',
			'phoneNumberVerifier',
			'invitationAccepted',
			'smartContactNotification',
			'pushTokenReporter',
			'pushSend',
			'pushMultisend',
			'fetchMessages',
			'balanceChecker',
			'rateChecker',
			'accountRemovalReporter',
			'pushNotificationReporter',
			'initialProvisioning',
			'webServiceContacts'
		]);
		// The contract's own entries name no source: they are the contract's.
		expect(SERVICES.filter((s) => !s.source).map((s) => s.id)).toEqual(SERVICE_IDS.slice(0, 10));
	});

	it.each(SERVICES.map((s) => [s.id, s] as const))(
		'has a %s entry that ServiceSchema parses to itself',
		(_, service) => {
			expect(ServiceSchema.parse(service)).toEqual(service);
		}
	);

	it('finds services by id and refuses an id it does not hold', () => {
		expect(findService('sendMessage')?.title).toBe('Send Message');
		expect(findService('__proto__')).toBeUndefined();
		expect(() => getService('genericSmsFetch')).toThrow(/genericSmsFetch/);
	});

	it.each([
		['sendMessage', 'app'],
		['mediaRefSend', 'app'],
		['externalAuth', 'sso'],
		['extSSOProv', 'sso'],
		['phoneNumberVerifier', 'app'],
		['invitationAccepted', 'contacts'],
		['smartContactNotification', 'contacts'],
		['pushTokenReporter', 'app'],
		['pushSend', 'provider'],
		['pushMultisend', 'provider']
	] as const)('says %s is called by the %s', (id, caller) => {
		const service = getService(id);
		expect(service.caller).toBe(caller);
		// The SSO and contacts servers recognise a fixed set of names; the app does not.
		expect(service.variableSet).toBe(caller === 'app' ? 'open' : 'fixed');
	});
});

describe('the catalogue against the Errors table (provider web services)', () => {
	// [service, success status, success body, failure behaviour]
	const rows: [string, '2xx' | 204, Service['success']['body'], FailureRule][] = [
		['sendMessage', '2xx', 'any', 'showMessageOrBodyPrefix'],
		['mediaRefSend', '2xx', 'any', 'showMessageOrGeneric'],
		['externalAuth', '2xx', 'validOrAbsent', 'silentlyIgnore'],
		['phoneNumberVerifier', '2xx', 'validOrAbsent', 'wizardMessageBox'],
		['invitationAccepted', 204, 'any', 'silentlyIgnore'],
		['smartContactNotification', 204, 'any', 'silentlyIgnore'],
		['pushTokenReporter', '2xx', 'matchesContentType', 'ignoreAndRetry']
	];

	it.each(rows)('%s: success is %s (body %s), failure is %s', (id, status, body, failure) => {
		const service = getService(id);
		expect(service.success.status).toEqual(
			status === '2xx' ? { kind: '2xx' } : { kind: 'exact', status }
		);
		expect(service.success.body).toBe(body);
		expect(service.failure).toBe(failure);
	});

	it('reads External Authentication bodies, so an unparseable 2xx body is ignored too', () => {
		expect(getService('externalAuth').responseBody).toBe('phoneNumbers');
	});

	it.each([
		['sendMessage', /message field, else its first 100 characters/],
		['mediaRefSend', /message field, else a generic error message/],
		['phoneNumberVerifier', /message field, else the first 100 characters/],
		['invitationAccepted', /Silently ignored/],
		['pushTokenReporter', /retried later/]
	])('describes the failure of %s in words', (id, words) => {
		expect(describeFailure(getService(id))).toMatch(words);
	});

	it.each([
		['invitationAccepted', 'Only status 204.'],
		['smartContactNotification', 'Only status 204.'],
		['phoneNumberVerifier', 'Any 2xx status, with a valid or absent body.'],
		['sendMessage', 'Any 2xx status.']
	])('describes the success of %s as %j', (id, words) => {
		expect(describeSuccess(getService(id))).toBe(words);
	});
});

describe('the catalogue against the Limits table', () => {
	const idsWhere = (test: (s: Service) => boolean) => SERVICES.filter(test).map((s) => s.id);

	it('shows 100 characters of the raw body for Send Message and Phone Number Verifier only', () => {
		expect(getService('sendMessage').limits.shownBodyChars).toBe(100);
		expect(getService('phoneNumberVerifier').limits.shownBodyChars).toBe(100);
		expect(idsWhere((s) => s.limits.shownBodyChars !== null)).toEqual([
			'sendMessage',
			'phoneNumberVerifier'
		]);
	});

	it('accepts only https: for External Authentication (both of its URL sources)', () => {
		expect(getService('externalAuth').limits.httpsOnly).toBe(true);
		// extSSOProvUrl is External Authentication's URL in the external provisioning flow.
		expect(idsWhere((s) => s.limits.httpsOnly)).toEqual(['externalAuth', 'extSSOProv']);
	});

	it('calls Send Message and Media Reference Send once per recipient', () => {
		expect(idsWhere((s) => s.limits.recipientsPerCall !== null)).toEqual([
			'sendMessage',
			'mediaRefSend'
		]);
		for (const id of ['sendMessage', 'mediaRefSend']) {
			const service = getService(id);
			expect(service.limits.recipientsPerCall).toBe(1);
			const perRecipient = service.variables.filter((v) => v.perRecipient).map((v) => v.name);
			expect(perRecipient).toEqual(['sms_to']);
		}
	});

	it.each([
		['invitationAccepted', FORM, [JSON_TYPE, FORM, XML_TYPE]],
		['smartContactNotification', null, [JSON_TYPE, XML_TYPE]]
	] as const)('allows %s the content types of the contract', (id, fallback, allowed) => {
		const { contentType } = getService(id);
		expect(contentType.default).toBe(fallback);
		expect([...(contentType.allowed ?? [])].sort()).toEqual([...allowed].sort());
	});

	it('leaves the other provider services open to any content type, form-encoded by default', () => {
		for (const id of [
			'sendMessage',
			'mediaRefSend',
			'externalAuth',
			'extSSOProv',
			'phoneNumberVerifier',
			'pushTokenReporter'
		]) {
			expect(getService(id).contentType).toEqual({ default: FORM, allowed: null });
		}
	});
});

describe('the catalogue configuration keys', () => {
	const keysOf = (id: string) => getService(id).keys.map((k) => k.key);

	it.each([
		['sendMessage', ['genericSmsSendUrl', 'genericSmsSendPostData', 'genericSmsSendContentType']],
		[
			'mediaRefSend',
			[
				'genericMediaRefSendUrl',
				'genericMediaRefSendPostData',
				'genericMediaRefSendContentType',
				'genericMediaRefSendMethod',
				'genericMediaRefSendCustomHeaders'
			]
		],
		['externalAuth', ['externalAuthUrl', 'externalAuthPostData', 'externalAuthContentType']],
		[
			'extSSOProv',
			[
				'extSSOProvUrl',
				'extSSOProvPostData',
				'extSSOProvContentType',
				'externalProvisioningOnSSODisabled',
				'reprovisioningUrl',
				'initialProvisioningUrl'
			]
		],
		[
			'phoneNumberVerifier',
			['phoneNumberVerifierUrl', 'phoneNumberVerifierPostData', 'phoneNumberVerifierContentType']
		],
		[
			'invitationAccepted',
			['invitationAcceptedUrl', 'invitationAcceptedPostData', 'invitationAcceptedContentType']
		],
		[
			'smartContactNotification',
			[
				'smartContactNotificationUrl',
				'smartContactNotificationPostData',
				'smartContactNotificationContentType'
			]
		],
		[
			'pushTokenReporter',
			['pushTokenReporterUrl', 'pushTokenReporterPostData', 'pushTokenReporterContentType']
		],
		['pushSend', []],
		['pushMultisend', []]
	])('names the keys of %s exactly as the contract does', (id, keys) => {
		expect(keysOf(id)).toEqual(keys);
	});

	it('gives every key one owner', () => {
		const all = SERVICES.flatMap((s) => s.keys.map((k) => k.key));
		expect(new Set(all).size).toBe(all.length);
	});

	it.each([
		'externalAuthUrl',
		'externalAuthPostData',
		'externalAuthContentType',
		'phoneNumberVerifierUrl',
		'phoneNumberVerifierPostData',
		'phoneNumberVerifierContentType',
		'initialProvisioningUrl',
		'reprovisioningUrl'
	])('keeps %s in the portal, not in the provisioning XML', (key) => {
		const entry = SERVICES.flatMap((s) => s.keys).find((k) => k.key === key);
		expect(entry?.location.kind).toBe('portal');
	});

	it.each([
		'extSSOProvUrl',
		'extSSOProvPostData',
		'extSSOProvContentType',
		'externalProvisioningOnSSODisabled'
	])('places %s in the additional provisioning XML under provisioning/account/core', (key) => {
		const entry = SERVICES.flatMap((s) => s.keys).find((k) => k.key === key);
		expect(ACCOUNT_CORE_PATH).toBe('provisioning/account/core');
		expect(entry?.location).toEqual({ kind: 'accountXml', path: ACCOUNT_CORE_PATH });
	});

	it('finds the URL, post data and content type keys by role', () => {
		const service = getService('sendMessage');
		expect([
			keyOf(service, 'url'),
			keyOf(service, 'postData'),
			keyOf(service, 'contentType')
		]).toEqual(['genericSmsSendUrl', 'genericSmsSendPostData', 'genericSmsSendContentType']);
		expect(keyOf(service, 'method')).toBeUndefined();
	});

	it('deprecates genericSmsPostData and genericSmsContentType in favour of the genericSmsSend keys, and nothing else', () => {
		const deprecated = SERVICES.flatMap((s) =>
			s.deprecatedKeys.map((d) => [s.id, d.key, d.replacement])
		);
		expect(deprecated).toEqual([
			['sendMessage', 'genericSmsPostData', 'genericSmsSendPostData'],
			['sendMessage', 'genericSmsContentType', 'genericSmsSendContentType']
		]);
		expect(keysOf('sendMessage')).toContain('genericSmsSendPostData');
		expect(keysOf('sendMessage')).not.toContain('genericSmsPostData');
		expect(keysOf('sendMessage')).not.toContain('genericSmsContentType');
	});
});

describe('the catalogue methods', () => {
	it.each([
		['sendMessage', { kind: 'byBody' }],
		['phoneNumberVerifier', { kind: 'byBody' }],
		['invitationAccepted', { kind: 'byBody' }],
		['pushTokenReporter', { kind: 'byBody' }],
		['externalAuth', { kind: 'byBody' }],
		[
			'mediaRefSend',
			{
				kind: 'configurable',
				methods: ['GET', 'HEAD', 'POST', 'PUT'],
				bodyIgnoredFor: ['GET', 'HEAD']
			}
		],
		['smartContactNotification', { kind: 'fixed', method: 'POST' }],
		['pushSend', { kind: 'fixed', method: 'POST' }],
		['pushMultisend', { kind: 'fixed', method: 'POST' }]
	])('chooses the method of %s as the contract says', (id, rule) => {
		expect(getService(id).method).toEqual(rule);
	});

	it.each([
		['pushSend', '/pnm2/send'],
		['pushMultisend', '/pnm2/multisend']
	])('posts %s to {push_url}%s', (id, path) => {
		expect(getService(id).endpoint).toEqual({ method: 'POST', path });
	});
});

describe('the catalogue variables', () => {
	it.each([
		['sendMessage', ['sms_to', 'sms_body', 'smart', 'content_type', 'disposition_notification']],
		[
			'mediaRefSend',
			[
				'sms_to',
				'description',
				'preview_width',
				'preview_height',
				'preview_content_type',
				'preview_content',
				'media_url',
				'media_content_type'
			]
		],
		['externalAuth', ['username', 'password', 'host', 'cloud_id']],
		['extSSOProv', ['username', 'password', 'host', 'cloud_id']],
		['phoneNumberVerifier', ['phoneNumber']],
		['invitationAccepted', ['invitee', 'invitor', 'network_id']],
		[
			'smartContactNotification',
			['new_smart_number', 'network_id', 'new_smart_uri', 'interestedParties']
		],
		[
			'pushTokenReporter',
			[
				'selector',
				'pushToken',
				'pushTokenIncomingCall',
				'pushTokenOther',
				'pushappid',
				'pushappid_incoming_call',
				'pushappid_other'
			]
		],
		['pushSend', []],
		['pushMultisend', []]
	])('gives %s the variables of the contract', (id, names) => {
		const service = getService(id);
		expect(service.variables.map((v) => v.name)).toEqual(names);
		expect(service.variables.every((v) => v.scope === 'service')).toBe(true);
	});

	it('writes the party list %interestedParties%, with interested_parties as its older name', () => {
		const list = getService('smartContactNotification').variables.find((v) => v.kind === 'list');
		expect(list).toMatchObject({ name: 'interestedParties', alias: 'interested_parties' });
		expect(Array.isArray(list?.sample)).toBe(true);
	});

	it('gives string variables string samples and list variables party lists', () => {
		for (const service of SERVICES) {
			for (const v of [...service.variables, ...ACCOUNT_VARIABLES, ...GLOBAL_VARIABLES]) {
				expect(typeof v.sample === 'string').toBe(v.kind === 'string');
			}
		}
	});

	it('lists the documented account keys and the global parameters seen in the docs', () => {
		expect(ACCOUNT_VARIABLES.map((v) => v.name)).toEqual([
			'username',
			'password',
			'host',
			'cloud_username',
			'cloud_password',
			'networkId',
			'userDisplayName',
			'authUsername',
			'userCallerId',
			'title',
			'transport'
		]);
		expect(GLOBAL_VARIABLES.map((v) => v.name)).toEqual(['installid', 'appid', 'version']);
	});

	it('marks passwords secret', () => {
		const secret = [...ACCOUNT_VARIABLES, ...getService('externalAuth').variables].filter(
			(v) => v.secret
		);
		expect(secret.map((v) => `${v.scope}:${v.name}`)).toEqual([
			'account:password',
			'account:cloud_password',
			'service:password'
		]);
	});
});

describe('vocabularyOf', () => {
	const keys = (id: string) => vocabularyOf(getService(id)).entries.map((e) => e.key);
	const accountKeys = ACCOUNT_VARIABLES.map((v) => `account[${v.name}]`);
	const globals = ['installid', 'appid', 'version'];

	it.each([
		[
			'sendMessage',
			[
				'sms_to',
				'sms_body',
				'smart',
				'content_type',
				'disposition_notification',
				...accountKeys,
				...globals
			]
		],
		[
			'pushTokenReporter',
			[...getService('pushTokenReporter').variables.map((v) => v.name), ...accountKeys, ...globals]
		],
		['phoneNumberVerifier', ['phoneNumber', ...globals]],
		[
			'externalAuth',
			[
				'username',
				'password',
				'host',
				'cloud_id',
				'account[username]',
				'account[password]',
				'account[cloud_username]',
				'account[cloud_password]',
				...globals
			]
		],
		['invitationAccepted', ['invitee', 'invitor', 'network_id']],
		[
			'smartContactNotification',
			['new_smart_number', 'network_id', 'new_smart_uri', 'interestedParties']
		]
	])('lets %s use exactly its names', (id, names) => {
		expect(keys(id)).toEqual(names);
	});

	it('resolves a name to its entry and scope', () => {
		const vocabulary = vocabularyOf(getService('sendMessage'));
		expect(vocabulary.resolve('account[host]')).toMatchObject({
			scope: 'account',
			entry: { key: 'account[host]' }
		});
		expect(vocabulary.resolve('appid').scope).toBe('global');
		expect(vocabulary.resolve('sms_to').entry?.variable.perRecipient).toBe(true);
	});

	it('computes one vocabulary per service', () => {
		const service = getService('invitationAccepted');
		expect(vocabularyOf(service)).toBe(vocabularyOf(service));
	});
});

describe('client support', () => {
	it('marks only Media Reference Send as not yet supported by the client', () => {
		expect(SERVICES.filter((s) => s.notYetSupported).map((s) => s.id)).toEqual(['mediaRefSend']);
	});
});
