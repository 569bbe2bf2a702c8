import { ACCOUNT_XML, portal, templateKeys } from './keys';
import type { Service } from './schema';
import { SSO_ACCOUNT_KEYS, SSO_VARIABLES, variable } from './variables';

/** The services the SSO and contacts servers call on the provider, and the push gateway. */

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const XML_TYPE = 'application/xml';
const ONLY_204 = { status: { kind: 'exact', status: 204 }, body: 'any' } as const;

/** What the SSO server's two calls share: names, method, content type, success and failure. */
const SSO_COMMON = {
	caller: 'sso',
	kind: 'template',
	deprecatedKeys: [],
	variables: [...SSO_VARIABLES],
	accountKeys: SSO_ACCOUNT_KEYS,
	globals: 'all',
	variableSet: 'fixed',
	method: { kind: 'byBody' },
	contentType: { default: FORM, allowed: null },
	success: { status: { kind: '2xx' }, body: 'validOrAbsent' },
	failure: 'silentlyIgnore'
} satisfies Partial<Service>;

/** External Authentication: validates credentials, returns the account's verified numbers. */
export const externalAuth: Service = {
	id: 'externalAuth',
	title: 'External Authentication',
	purpose: 'Validates credentials and returns the phone numbers verified for an account.',
	keys: templateKeys('externalAuth', portal('Provisioning Options (step 2)'), FORM),
	...SSO_COMMON,
	responseBody: 'phoneNumbers',
	limits: { httpsOnly: true, recipientsPerCall: null, shownBodyChars: null },
	remarks: [
		'Only https: URLs are accepted.',
		'A 2xx body is application/xml (the default, root element response) or application/json; an empty body, an empty response element or {} mean no numbers.',
		'Other statuses and bodies that cannot be parsed are silently ignored; a failure message is for debugging only.',
		'If the service does not work, contact sync and smart contact resolution are impaired.'
	]
};

/** The external provisioning call the SSO server makes when external provisioning is on. */
export const extSSOProv: Service = {
	id: 'extSSOProv',
	title: 'External provisioning on SSO',
	purpose:
		'The external provisioning call involved in authentication when external provisioning is enabled.',
	keys: [
		...templateKeys('extSSOProv', ACCOUNT_XML, FORM),
		{
			key: 'externalProvisioningOnSSODisabled',
			role: 'flag',
			label: 'Skip on SSO',
			location: ACCOUNT_XML,
			description: 'Set to 1 to skip the external provisioning call during authentication.'
		},
		{
			key: 'reprovisioningUrl',
			role: 'fallbackUrl',
			label: 'Reprovisioning URL',
			location: portal('Provisioning Options (step 2)'),
			description: 'Used when extSSOProvUrl is not set.'
		},
		{
			key: 'initialProvisioningUrl',
			role: 'fallbackUrl',
			label: 'Initial provisioning URL',
			location: portal('Provisioning Options (step 2)'),
			description: 'Used when neither extSSOProvUrl nor the reprovisioning URL is set.'
		}
	],
	...SSO_COMMON,
	responseBody: 'provisioningAccount',
	limits: { httpsOnly: true, recipientsPerCall: null, shownBodyChars: null },
	remarks: [
		'URL by priority: extSSOProvUrl, else the reprovisioning URL, else the initial provisioning URL.',
		'externalProvisioningOnSSODisabled = 1 skips this call.',
		'The answer is an account document (<account>…</account>); other answers are silently ignored.',
		'%username% and %password% come from the username and password tags of the external provisioning account.xml when present, else from the device credentials.'
	]
};

/** Invitation Accepted: an invited person joined the service. */
export const invitationAccepted: Service = {
	id: 'invitationAccepted',
	title: 'Invitation Accepted',
	caller: 'contacts',
	kind: 'template',
	purpose: 'Reports that an invited person joined the service.',
	keys: templateKeys('invitationAccepted', portal('Contacts server web services'), FORM),
	deprecatedKeys: [],
	variables: [
		variable({
			name: 'invitee',
			scope: 'service',
			meaning: 'Phone number of the invited user who joined.',
			sample: '+447700900123'
		}),
		variable({
			name: 'invitor',
			scope: 'service',
			meaning: 'SIP username of the user who invited.',
			sample: 'alice'
		}),
		variable({
			name: 'network_id',
			scope: 'service',
			meaning:
				'Usually the cloud identifier; the network id returned by External Authentication when there is one.',
			sample: 'acme-net'
		})
	],
	accountKeys: 'none',
	globals: 'none',
	variableSet: 'fixed',
	method: { kind: 'byBody' },
	contentType: { default: FORM, allowed: [JSON_TYPE, FORM, XML_TYPE] },
	success: ONLY_204,
	failure: 'silentlyIgnore',
	responseBody: 'notParsed',
	limits: { httpsOnly: false, recipientsPerCall: null, shownBodyChars: null },
	remarks: [
		'Only invitee, invitor and network_id are recognised.',
		'XML body shape: root element root with child elements invitee, invitor, network_id.',
		'Only status 204 is success; any other status, 200 included, is silently ignored.'
	]
};

/** New Smart Contact Notification: a number became a smart contact. */
export const smartContactNotification: Service = {
	id: 'smartContactNotification',
	title: 'New Smart Contact Notification',
	caller: 'contacts',
	kind: 'template',
	purpose:
		'Reports that a phone number became a smart contact, with the users who have it in their contacts.',
	keys: templateKeys('smartContactNotification', portal('Contacts server web services'), null),
	deprecatedKeys: [],
	variables: [
		variable({
			name: 'new_smart_number',
			scope: 'service',
			meaning: 'Phone number of the new smart user.',
			sample: '+4915123456789'
		}),
		variable({
			name: 'network_id',
			scope: 'service',
			meaning: 'Network of the new smart user.',
			sample: 'acme-net'
		}),
		variable({
			name: 'new_smart_uri',
			scope: 'service',
			meaning: 'SIP URI of the new smart user.',
			sample: 'sip:+4915123456789@sip.example.com'
		}),
		variable({
			name: 'interestedParties',
			scope: 'service',
			meaning:
				'Users who have the new smart user in their contacts: a JSON array of {username, device} in JSON, a list of party elements in XML. Write it without quotes.',
			sample: [
				{ username: 'alice', device: 'iPhone "work" & home' },
				{ username: 'bob', device: 'Pixel <8>' }
			],
			kind: 'list',
			alias: 'interested_parties'
		})
	],
	accountKeys: 'none',
	globals: 'none',
	variableSet: 'fixed',
	method: { kind: 'fixed', method: 'POST' },
	contentType: { default: null, allowed: [JSON_TYPE, XML_TYPE] },
	success: ONLY_204,
	failure: 'silentlyIgnore',
	responseBody: 'notParsed',
	limits: { httpsOnly: false, recipientsPerCall: null, shownBodyChars: null },
	remarks: [
		'Only new_smart_number, network_id, new_smart_uri and interestedParties are recognised.',
		'JSON example keys: newSmartNumber, networkId, newSmartUri, interestedParties. XML: root root with new_smart_number, network_id, new_smart_uri, interested_parties.',
		'The contract does not say which content type is used when none is set: choose application/json or application/xml.',
		'Only status 204 is success; any other status, 200 included, is silently ignored.'
	]
};

const GATEWAY_COMMON: Omit<Service, 'id' | 'title' | 'purpose' | 'endpoint' | 'remarks'> = {
	caller: 'provider',
	kind: 'gateway',
	keys: [],
	deprecatedKeys: [],
	variables: [],
	accountKeys: 'none',
	globals: 'none',
	variableSet: 'fixed',
	method: { kind: 'fixed', method: 'POST' },
	contentType: { default: JSON_TYPE, allowed: [JSON_TYPE] },
	success: { status: { kind: '2xx' }, body: 'any' },
	failure: 'providerDecides',
	responseBody: 'pushResults',
	limits: { httpsOnly: false, recipientsPerCall: null, shownBodyChars: null }
};

/** The push gateway's single push. */
export const pushSend: Service = {
	...GATEWAY_COMMON,
	id: 'pushSend',
	title: 'Push gateway: single push',
	purpose: 'Sends one push notification to one device.',
	endpoint: { method: 'POST', path: '/pnm2/send' },
	remarks: [
		'Content-Type must be JSON. The answer carries an integer status and a response string.',
		'Status 200 means accepted by the upstream push service, not delivered.',
		'Status 404 for a token means it is no longer registered: stop sending to it.'
	]
};

/** The push gateway's multiple pushes. */
export const pushMultisend: Service = {
	...GATEWAY_COMMON,
	id: 'pushMultisend',
	title: 'Push gateway: multiple pushes',
	purpose: 'Sends a list of push notifications; answers one response object per element, in order.',
	endpoint: { method: 'POST', path: '/pnm2/multisend' },
	remarks: [
		'A single object is accepted as a one-element list.',
		'An element that is not an object gets status 400; the others are handled normally.'
	]
};
