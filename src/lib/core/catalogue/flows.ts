/**
 * The contract's rows that decide each step of a flow (the registration wizard, SSO sign-in,
 * the contacts server's events, sending to several recipients, app start), as data: every flow
 * step names the row it follows, so a decision is always shown with the contract text behind it.
 */

/** Where in the contract a row is. */
export type ContractTable =
	| 'States and transitions'
	| 'Events'
	| 'Errors'
	| 'Limits'
	| 'External Authentication'
	| 'Push Token Reporter'
	| 'Push gateway: single push'
	/** The platform's documented rules for a service the contract refers to but does not define. */
	| 'Beyond the contract: Fetch Messages'
	| 'Beyond the contract: Account Removal Reporter';

/** One row of the contract that decides a step. */
export interface ContractRow {
	id: string;
	table: ContractTable;
	/** The row's cells (or the numbered item) as the contract writes them. */
	text: string;
}

function row(id: string, table: ContractTable, text: string): ContractRow {
	return { id, table, text };
}

/** Every row a flow step can be decided by, by id. */
export const FLOW_ROWS = {
	wizardVerified: row(
		'wizardVerified',
		'States and transitions',
		'Wizard page 1 (phone number entry) | User submits number; Phone Number Verifier called | Response is 2xx and body valid or absent | Wizard page 2 (PIN entry) | The user waits for the SMS. Key/value pairs of a non-empty body become %key% placeholders for the external provisioning call of page 2.'
	),
	wizardRejected: row(
		'wizardRejected',
		'States and transitions',
		'Wizard page 1 | Verifier called | Response is non-2xx | Wizard page 1 | The message value of the body, or the first 100 characters of the raw body, is shown in a message box.'
	),
	wizardPin: row(
		'wizardPin',
		'States and transitions',
		'Wizard page 2 | User submits PIN | none | Provisioning continues | External provisioning is invoked with the phone number as cloud_username and the PIN as cloud_password.'
	),
	ssoProvisioningUrl: row(
		'ssoProvisioningUrl',
		'External Authentication',
		'2. External provisioning flow: when external provisioning is enabled it is also involved in authentication by default. The URL is resolved by priority: (a) extSSOProvUrl in provisioning/account/core; (b) otherwise the reprovisioning URL, if provided; (c) otherwise the initial provisioning URL.'
	),
	ssoProvisioningSkipped: row(
		'ssoProvisioningSkipped',
		'External Authentication',
		'3. Skipping the external provisioning call: set tag externalProvisioningOnSSODisabled to 1 in the same additional provisioning XML location.'
	),
	ssoSimpleFlow: row(
		'ssoSimpleFlow',
		'External Authentication',
		'1. Simple flow (no external provisioning): the credentials from the device (cloud username and cloud password, the same as used to sign in to the app) fill the template.'
	),
	ssoLegacyCredentials: row(
		'ssoLegacyCredentials',
		'External Authentication',
		'4. Legacy placeholders %username% and %password%: filled from the username and password tags of the external provisioning account.xml when present; otherwise from the device credentials.'
	),
	ssoAuthenticated: row(
		'ssoAuthenticated',
		'External Authentication',
		'Response: success is 2xx with a body in application/xml (default) or application/json. phoneNumbers (E.164), uri (default: the SIP account username), networkId (default: the cloud identifier).'
	),
	ssoFailed: row(
		'ssoFailed',
		'Errors',
		'External Authentication | 2xx | Other statuses and unparseable bodies are silently ignored. — If the service does not work, contact sync and smart contact resolution are impaired.'
	),
	ssoHttpsOnly: row('ssoHttpsOnly', 'Limits', 'URL scheme | External Authentication | https only'),
	invitationAccepted: row(
		'invitationAccepted',
		'Events',
		'Invitation accepted | contacts server | provider invitationAcceptedUrl | invitee, invitor, network_id | An invited user joins the service. Expected reply: 204.'
	),
	newSmartContact: row(
		'newSmartContact',
		'Events',
		'New smart contact | contacts server | provider smartContactNotificationUrl | new_smart_number, network_id, new_smart_uri, interested_parties | A contact-list friend becomes smart. Expected reply: 204.'
	),
	contactsIgnored: row(
		'contactsIgnored',
		'Errors',
		'Invitation Accepted, New Smart Contact Notification | 204 | Any other status is silently ignored.'
	),
	sendPerRecipient: row(
		'sendPerRecipient',
		'Limits',
		'Recipients per call | Send Message, Media Reference Send | 1 (the service is called once per recipient)'
	),
	sendFailed: row(
		'sendFailed',
		'Errors',
		'Send Message | 2xx | Non-2xx: the message field of the body is shown to the user; without it the first 100 characters of the raw body are shown.'
	),
	pushTokenReported: row(
		'pushTokenReported',
		'Events',
		'Push token reported | app | provider pushTokenReporterUrl | selector, tokens, application ids | Every time the app is newly started; repeated when a token was not yet available.'
	),
	pushTokenRetried: row(
		'pushTokenRetried',
		'Errors',
		'Push Token Reporter | 2xx | Any other status is silently ignored but the request counts as failed and is retried later.'
	),
	pushTokenLater: row(
		'pushTokenLater',
		'Push Token Reporter',
		'On mobile platform A the call may first be made with a null pushTokenOther. A successful reply does not stop a later call that carries the value.'
	),
	incomingMessagePush: row(
		'incomingMessagePush',
		'Events',
		'Incoming message push | provider via push gateway | device | NotifyTextMessage attributes | Provider sends it; the device then fetches messages.'
	),
	reprovisionPush: row(
		'reprovisionPush',
		'Events',
		'Reprovision push | provider via push gateway | device | NotifyReprovision | Provider sends it; the device reloads its configuration.'
	),
	fetchForeground: row(
		'fetchForeground',
		'Beyond the contract: Fetch Messages',
		'Called each time the app comes to the foreground and when an incoming-message push arrives. %last_known_sms_id%: the sms_id of the last received message, empty when none. (Platform documentation: api/client/fetch_messages_modern.)'
	),
	fetchSentSync: row(
		'fetchSentSync',
		'Beyond the contract: Fetch Messages',
		"%last_known_sent_sms_id%: the same for sent messages, for syncing several devices: the account's other device fetches what this one sent. (Four providers' implementations; the readable documentation omits it.)"
	),
	accountRemoved: row(
		'accountRemoved',
		'Beyond the contract: Account Removal Reporter',
		'Called only on sign-out or account removal, never on uninstall; lets the provider delete the push tokens the Push Token Reporter stored. Variables: global, account, selector, pushToken, pushTokenIncomingCall, pushTokenOther. (Platform documentation: account_removal_reporter.)'
	),
	selectorForPush: row(
		'selectorForPush',
		'Push gateway: single push',
		'NotifyTextMessage: notifies about an incoming message. Needs Selector. — The Push Token Reporter selector identifies an account and must be passed to the push gateway (Selector) for account-specific pushes.'
	)
} as const satisfies Record<string, ContractRow>;

/** The id of a row a flow step can be decided by. */
export type FlowRowId = keyof typeof FLOW_ROWS;

/** The flows, as the API names them. */
export const FLOW_NAMES = ['registration', 'sso', 'contacts', 'app-start', 'send-message'] as const;
export type FlowName = (typeof FLOW_NAMES)[number];

/**
 * The journeys run by virtual phones: their inputs are phones (accounts), not a form of
 * placeholders, so they are not among {@link FLOW_NAMES}; their runs are kept with the others.
 */
export const JOURNEY_NAMES = ['messaging'] as const;
export type JourneyName = (typeof JOURNEY_NAMES)[number];

/** Every name a kept run may carry. */
export const RUN_FLOW_NAMES = [...FLOW_NAMES, ...JOURNEY_NAMES] as const;
export type RunFlowName = (typeof RUN_FLOW_NAMES)[number];

/** The title of a kept run's flow or journey (its name when it is neither, from an older app). */
export function runTitle(flow: string): string {
	if (Object.hasOwn(FLOWS, flow)) return FLOWS[flow as FlowName].title;
	if (Object.hasOwn(JOURNEYS, flow)) return JOURNEYS[flow as JourneyName].title;
	return flow;
}

/** What each journey is. */
export const JOURNEYS: Record<JourneyName, { title: string; purpose: string }> = {
	messaging: {
		title: 'Messaging round trip',
		purpose:
			"Two virtual phones report their push tokens; one sends a message to the other; the provider's push reaches the sandbox; the recipient fetches, fetches again on coming to the foreground, and the sender's second device syncs."
	}
};

/** What each flow is, and the inputs a user gives it (never guessed from samples). */
export const FLOWS: Record<
	FlowName,
	{ title: string; purpose: string; inputs: { name: string; meaning: string }[] }
> = {
	registration: {
		title: 'Registration wizard',
		purpose:
			'Page 1 sends the phone number to the Phone Number Verifier; page 2 sends the PIN through the external provisioning call.',
		inputs: [
			{ name: 'phoneNumber', meaning: 'The number typed on page 1 (international, with +).' },
			{ name: 'pin', meaning: 'The PIN typed on page 2 (the one the SMS brought).' }
		]
	},
	sso: {
		title: 'SSO sign-in',
		purpose:
			'The SSO server makes the external provisioning call (unless switched off), then External Authentication.',
		inputs: [
			{ name: 'account[cloud_username]', meaning: 'The cloud username the app signs in with.' },
			{ name: 'account[cloud_password]', meaning: 'The cloud password the app signs in with.' }
		]
	},
	contacts: {
		title: 'Contacts server events',
		purpose: 'The contacts server reports Invitation Accepted and New Smart Contact events.',
		inputs: []
	},
	'send-message': {
		title: 'Send Message to several recipients',
		purpose: 'The app calls Send Message once per recipient and keeps each sms_id.',
		inputs: [
			{ name: 'sms_to', meaning: 'The recipients: a list of numbers or SIP addresses.' },
			{ name: 'sms_body', meaning: 'The message text.' }
		]
	},
	'app-start': {
		title: 'App start',
		purpose:
			'The app reports its push token and selector; the provider then sends a NotifyTextMessage (or a NotifyReprovision) to that token and selector through a sandbox.',
		inputs: [
			{ name: 'selector', meaning: 'The account selector the app reports.' },
			{ name: 'pushToken', meaning: 'The push token the app reports.' },
			{ name: 'pushappid', meaning: 'The application id that goes with the token.' }
		]
		// Optional: `pushTokenOther` with `platform` = platformA13 makes a first report with a
		// null pushTokenOther, then one with the value; `message` and `sender` go into the push;
		// `push` = NotifyReprovision sends that push instead (APP_START_PUSHES).
	}
};
