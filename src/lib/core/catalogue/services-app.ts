import { ACCOUNT_XML, portal, templateKeys } from './keys';
import type { Service } from './schema';
import { variable } from './variables';

/** The services the app calls on the provider. */

const FORM = 'application/x-www-form-urlencoded';
const BY_BODY = { kind: 'byBody' } as const;
const OK_2XX = { status: { kind: '2xx' }, body: 'any' } as const;

/** Send Message: one outgoing one-to-one message per recipient. */
export const sendMessage: Service = {
	id: 'sendMessage',
	title: 'Send Message',
	caller: 'app',
	kind: 'template',
	purpose: 'Sends one outgoing one-to-one text, media or disposition-notification message.',
	keys: templateKeys('genericSmsSend', ACCOUNT_XML, FORM),
	deprecatedKeys: [
		{
			key: 'genericSmsPostData',
			replacement: 'genericSmsSendPostData',
			note: 'genericSmsPostData is deprecated and not guaranteed to work; genericSmsSendPostData replaces it.'
		},
		{
			key: 'genericSmsContentType',
			replacement: 'genericSmsSendContentType',
			note: 'genericSmsContentType is the older content-type key that goes with genericSmsPostData; the contract names genericSmsSendContentType, and the older key is not guaranteed to work.'
		}
	],
	variables: [
		variable({
			name: 'sms_to',
			scope: 'service',
			meaning: 'Recipient phone number or SIP address (after number rewriting).',
			sample: '+14155550123',
			perRecipient: true
		}),
		variable({
			name: 'sms_body',
			scope: 'service',
			meaning: 'Message body (UTF-8, any length).',
			sample: 'Tom said "meet at 7 & bring snacks" \u{1F389}\nOK?'
		}),
		variable({
			name: 'smart',
			scope: 'service',
			meaning: '1 when Smart Contacts are enabled and the recipient is a smart number.',
			sample: '1'
		}),
		variable({
			name: 'content_type',
			scope: 'service',
			meaning:
				'text/plain (optional) for text; application/x-acro-filetransfer+json for media; application/x-acro-disposition-notification for disposition notifications.',
			sample: 'text/plain'
		}),
		variable({
			name: 'disposition_notification',
			scope: 'service',
			meaning:
				'Requested delivery/display notifications: <identifier>:<comma-separated kinds> (positive-delivery, display).',
			sample: 'Msg-7f3a9c21:positive-delivery,display'
		})
	],
	accountKeys: 'all',
	globals: 'all',
	variableSet: 'open',
	method: BY_BODY,
	contentType: { default: FORM, allowed: null },
	success: OK_2XX,
	failure: 'showMessageOrBodyPrefix',
	responseBody: 'smsId',
	limits: { httpsOnly: false, recipientsPerCall: 1, shownBodyChars: 100 },
	remarks: [
		'With several recipients the service is called once per recipient.',
		'Store content_type and disposition_notification with the body; Fetch Messages must return them.',
		'A 2xx body may hold sms_id (JSON or XML); the app stores it to detect duplicates in Fetch Messages.'
	]
};

/** Media Reference Send: a message referring to uploaded media, with a small JPEG preview. */
export const mediaRefSend: Service = {
	id: 'mediaRefSend',
	title: 'Media Reference Send',
	caller: 'app',
	kind: 'template',
	purpose:
		'Sends a message that holds a reference to uploaded media plus a small JPEG preview, after a successful media upload.',
	keys: [
		...templateKeys('genericMediaRefSend', ACCOUNT_XML, FORM),
		{
			key: 'genericMediaRefSendMethod',
			role: 'method',
			label: 'Method',
			location: ACCOUNT_XML,
			description:
				'GET, HEAD, POST or PUT. Unset: GET without post data, POST with it. Post data is not sent with GET or HEAD.'
		},
		{
			key: 'genericMediaRefSendCustomHeaders',
			role: 'customHeaders',
			label: 'Custom headers',
			location: ACCOUNT_XML,
			description: 'Extra headers, one per line, each as <Name>:<value>.'
		}
	],
	deprecatedKeys: [],
	variables: [
		variable({
			name: 'sms_to',
			scope: 'service',
			meaning: 'Recipient address.',
			sample: '+14155550123',
			perRecipient: true
		}),
		variable({
			name: 'description',
			scope: 'service',
			meaning: 'Description of the media (UTF-8, optional).',
			sample: 'Beach & sunset \u{1F305}'
		}),
		variable({
			name: 'preview_width',
			scope: 'service',
			meaning: 'Preview width in pixels.',
			sample: '160'
		}),
		variable({
			name: 'preview_height',
			scope: 'service',
			meaning: 'Preview height in pixels.',
			sample: '120'
		}),
		variable({
			name: 'preview_content_type',
			scope: 'service',
			meaning: 'Always image/jpeg.',
			sample: 'image/jpeg'
		}),
		variable({
			name: 'preview_content',
			scope: 'service',
			meaning: 'Base64 encoded preview image.',
			sample: '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//+/8='
		}),
		variable({
			name: 'media_url',
			scope: 'service',
			meaning: 'URL returned by the media upload service, where the media is downloaded from.',
			sample: 'https://media.example.com/m/7f3a9c21.jpg?sig=a+b/c=='
		}),
		variable({
			name: 'media_content_type',
			scope: 'service',
			meaning: 'Content type of the media: currently image/jpeg or video/mp4.',
			sample: 'image/jpeg'
		})
	],
	accountKeys: 'all',
	globals: 'all',
	variableSet: 'open',
	method: {
		kind: 'configurable',
		methods: ['GET', 'HEAD', 'POST', 'PUT'],
		bodyIgnoredFor: ['GET', 'HEAD']
	},
	contentType: { default: FORM, allowed: null },
	success: OK_2XX,
	failure: 'showMessageOrGeneric',
	responseBody: 'notParsed',
	limits: { httpsOnly: false, recipientsPerCall: 1, shownBodyChars: null },
	notYetSupported: true,
	remarks: [
		'Marked in the contract as not yet supported by the client.',
		'When genericMediaRefSendUrl is not defined, the message is delivered as a multipart message via SIP.'
	]
};

/** Phone Number Verifier: sends a PIN by SMS during the registration wizard. */
export const phoneNumberVerifier: Service = {
	id: 'phoneNumberVerifier',
	title: 'Phone Number Verifier',
	caller: 'app',
	kind: 'template',
	purpose: 'Generates a secret PIN and sends it by SMS during the registration wizard.',
	keys: templateKeys('phoneNumberVerifier', portal('White-label configuration'), FORM),
	deprecatedKeys: [],
	variables: [
		variable({
			name: 'phoneNumber',
			scope: 'service',
			meaning: 'Number entered by the user: international format, always starting with +.',
			sample: '+14155550123'
		})
	],
	accountKeys: 'none',
	globals: 'all',
	variableSet: 'open',
	method: BY_BODY,
	contentType: { default: FORM, allowed: null },
	success: { status: { kind: '2xx' }, body: 'validOrAbsent' },
	failure: 'wizardMessageBox',
	responseBody: 'keyValueMap',
	limits: { httpsOnly: false, recipientsPerCall: null, shownBodyChars: 100 },
	remarks: [
		'Available when phone number sign-in is enabled; no account exists yet, so account values are not available.',
		'Key/value pairs of a 2xx body become %key% placeholders of the external provisioning call on wizard page 2.',
		'Typical use: return an auth token with the PIN; the token comes back with the PIN for validation.'
	]
};

/** Push Token Reporter: reports push tokens each time the app is newly started. */
export const pushTokenReporter: Service = {
	id: 'pushTokenReporter',
	title: 'Push Token Reporter',
	caller: 'app',
	kind: 'template',
	purpose:
		'Reports push token, application id and account selector each time the app is newly started.',
	keys: templateKeys('pushTokenReporter', ACCOUNT_XML, FORM),
	deprecatedKeys: [],
	variables: [
		variable({
			name: 'selector',
			scope: 'service',
			meaning: 'Identifies the account; pass it to the push gateway as Selector. <sha1>:<suffix>.',
			sample: '12869E0E6E553673C54F29105A0647204C416A2A:7C3A0D14'
		}),
		variable({
			name: 'pushToken',
			scope: 'service',
			meaning: 'Token for the platform push services (base64, variable length).',
			sample: 'Udl99X2JFP1bWwS5gR/wGeLE1hmAB2CMpr1Ej0wxkrY='
		}),
		variable({
			name: 'pushTokenIncomingCall',
			scope: 'service',
			meaning: 'Token of the voip push channel, for incoming-call pushes only (platform A 13+).',
			sample: 'q9+Fz3kXc0B1nT7wR2yL/8vJm4HsE5uA6dG0pK1iO2c='
		}),
		variable({
			name: 'pushTokenOther',
			scope: 'service',
			meaning:
				'Token of the remote-notification channel, for all other pushes. Alias of pushToken.',
			sample: 'Udl99X2JFP1bWwS5gR/wGeLE1hmAB2CMpr1Ej0wxkrY='
		}),
		variable({
			name: 'pushappid',
			scope: 'service',
			meaning: 'Application id to use with pushToken.',
			sample: 'com.provider.app.ios'
		}),
		variable({
			name: 'pushappid_incoming_call',
			scope: 'service',
			meaning: 'Application id to use with pushTokenIncomingCall.',
			sample: 'com.provider.app.ios.voip'
		}),
		variable({
			name: 'pushappid_other',
			scope: 'service',
			meaning: 'Application id to use with pushTokenOther. Alias of pushappid.',
			sample: 'com.provider.app.ios'
		})
	],
	accountKeys: 'all',
	globals: 'all',
	variableSet: 'open',
	method: BY_BODY,
	contentType: { default: FORM, allowed: null },
	success: { status: { kind: '2xx' }, body: 'matchesContentType' },
	failure: 'ignoreAndRetry',
	responseBody: 'notParsed',
	limits: { httpsOnly: false, recipientsPerCall: null, shownBodyChars: null },
	remarks: [
		'The body is not parsed but must match the response Content-Type (for application/json at least {}). The simplest success is 200 with no content type and no body.',
		'On mobile platform A the first call may carry an empty pushTokenOther; a success does not stop a later call that carries it.'
	]
};
