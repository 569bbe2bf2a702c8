import { ACCOUNT_XML, templateKeys } from './keys';
import type { ConfigKey, Service, Source } from './schema';
import { variable } from './variables';

/**
 * The platform's web services beyond the contract: configured the same way, in the same account
 * XML, but their rules come from the platform's public documentation, providers' implementations
 * or an inference, and every rule says which.
 */

export const FORM = 'application/x-www-form-urlencoded';

/** The common rule of every web service: the platform's introduction page. */
export const INTRO: Source = {
	kind: 'docs',
	ref: 'api/client/intro'
};
/** The rules every app-called service beyond the contract follows, by the common rule. */
export const BY_COMMON_RULE = {
	accountKeys: 'all',
	globals: 'all',
	variableSet: 'open',
	method: { kind: 'byBody' },
	contentType: { default: FORM, allowed: null },
	success: { status: { kind: '2xx' }, body: 'any' },
	failure: 'ignoreAndRetry',
	limits: { httpsOnly: false, recipientsPerCall: null, shownBodyChars: null }
} satisfies Partial<Service>;

/** Those rules' source; failure and the answer are each service's own. */
export const INTRO_RULES = {
	variableSet: INTRO,
	accountKeys: INTRO,
	globals: INTRO,
	method: INTRO,
	contentType: INTRO,
	success: INTRO,
	limits: INTRO
};
/** A content type key the documentation does not name, inferred by the common rule. */
export function contentTypeInferred(keys: ConfigKey[]): ConfigKey[] {
	const inferred: Source = { kind: 'inference', ref: 'the common rule of every service' };
	return keys.map((k) => (k.role === 'contentType' ? { ...k, source: inferred } : k));
}

const FETCH_DOC: Source = { kind: 'docs', ref: 'api/client/fetch_messages_modern' };
const FETCH_PROVIDERS: Source = {
	kind: 'providers',
	ref: "every provider seen; the documentation's key list is cut off"
};
const FETCH_ANSWER: Source = {
	kind: 'providers',
	ref: 'the field names of api/client/fetch_messages_modern, where readable'
};

/** Fetch Messages: the app asks for the messages received and sent since the last known ones. */
export const fetchMessages: Service = {
	id: 'fetchMessages',
	title: 'Fetch Messages',
	caller: 'app',
	kind: 'template',
	purpose:
		'Fetches the messages received and sent since the last known ones, when the app comes to the foreground and when an incoming-message push arrives; desktop apps poll.',
	keys: templateKeys('genericSmsFetch', ACCOUNT_XML, FORM, FETCH_PROVIDERS),
	deprecatedKeys: [],
	variables: [
		variable({
			name: 'last_known_sms_id',
			scope: 'service',
			meaning: 'The sms_id of the last received message the app knows; empty when it knows none.',
			sample: 'Msg-7f3a9c21',
			source: FETCH_DOC
		}),
		variable({
			name: 'last_known_sent_sms_id',
			scope: 'service',
			meaning:
				'The sms_id of the last sent message the app knows, for syncing messages sent from other devices; empty when it knows none.',
			sample: 'Out-0042+a/b=',
			source: {
				kind: 'providers',
				ref: 'four providers; the readable documentation omits it'
			}
		})
	],
	...BY_COMMON_RULE,
	responseBody: 'fetchedMessages',
	source: FETCH_DOC,
	ruleSources: {
		...INTRO_RULES,
		failure: {
			kind: 'inference',
			ref: 'nothing is shown; the app fetches again at the next foreground or push'
		},
		responseBody: FETCH_ANSWER
	},
	remarks: [
		{
			text: 'Full messaging needs Send Message, Fetch Messages, pushes and the Push Token Reporter.',
			source: FETCH_DOC
		},
		{
			text: "A message's sms_id is the push's Id and Send Message's returned sms_id: one id, which the app uses to find duplicates.",
			source: {
				kind: 'contract',
				ref: 'Push gateway request object (Id); Send Message success body'
			}
		},
		{
			text: 'Return content_type and disposition_notification with every message, as Send Message received them.',
			source: { kind: 'contract', ref: 'Outgoing message (Send Message request variables)' }
		},
		{
			text: 'Answer only messages newer than the last known ids: answering all of them every time shows duplicates.',
			source: { kind: 'providers', ref: 'deployments that did not filter' }
		},
		{
			text: 'JSON {"date", "received_smss", "sent_smss"}, lists oldest first, dates in RFC 3339 with a time zone; no paging is documented.',
			source: FETCH_ANSWER
		},
		{
			text: 'The legacy answer {"date", "unread_smss"} is still read; it has no sent messages.',
			source: { kind: 'docs', ref: 'api/client/fetch_messages_legacy' }
		}
	]
};

const BALANCE_DOC: Source = { kind: 'docs', ref: 'api/client/balance_checker; FAQ' };
const BALANCE_KEYS: Source = {
	kind: 'providers',
	ref: 'the genericBalanceCheck keys providers configure'
};

/** A whole-number setting of a service, read by the app as it is. */
export function numberKey(
	key: string,
	label: string,
	fallback: string | null,
	description: string,
	source: Source
): ConfigKey {
	const entry: ConfigKey = {
		key,
		role: 'number',
		label,
		location: ACCOUNT_XML,
		description,
		source
	};
	return fallback === null ? entry : { ...entry, default: fallback };
}

/** Balance Checker: the app asks for the account's balance and shows the text it gets. */
export const balanceChecker: Service = {
	id: 'balanceChecker',
	title: 'Balance Checker',
	caller: 'app',
	kind: 'template',
	purpose:
		'Asks for the balance of the account and shows the text it gets, periodically and shortly after each call.',
	keys: [
		...templateKeys('genericBalanceCheck', ACCOUNT_XML, FORM, BALANCE_KEYS),
		numberKey(
			'balanceCheckIntervalInSeconds',
			'Interval (s)',
			'300',
			'Seconds between two checks; 300 when empty.',
			BALANCE_DOC
		),
		numberKey(
			'balanceCheckDelayInSeconds',
			'Delay after a call (s)',
			'5',
			'Seconds after a call ends before the balance is checked again; 5 when empty.',
			BALANCE_DOC
		)
	],
	deprecatedKeys: [],
	variables: [],
	...BY_COMMON_RULE,
	responseBody: 'balance',
	source: BALANCE_DOC,
	ruleSources: {
		...INTRO_RULES,
		failure: { kind: 'inference', ref: 'no balance is shown until the next check' },
		responseBody: BALANCE_DOC
	},
	remarks: [
		{
			text: 'The app shows balanceString as it is; balance and currency are not shown.',
			source: { kind: 'providers', ref: 'JSON {"balanceString", "balance", "currency"}' }
		},
		{
			text: 'Legacy XML: <response><error>0</error><balanceString>…</balanceString></response>; an error other than 0 shows nothing.',
			source: BALANCE_DOC
		}
	]
};

const RATE_DOC: Source = { kind: 'docs', ref: 'api/client/rate_checker' };

/** Rate Checker: the app asks for the rates of the number the user is typing. */
export const rateChecker: Service = {
	id: 'rateChecker',
	title: 'Rate Checker',
	caller: 'app',
	kind: 'template',
	purpose:
		'Asks for the call and message rates of the number the user is typing (after a pause of about a second) and shows them beside it; answers are cached for about two hours.',
	keys: [
		...contentTypeInferred(templateKeys('genericRateCheck', ACCOUNT_XML, FORM, RATE_DOC)),
		numberKey(
			'rateCheckMinNumberLength',
			'Minimum number length',
			null,
			'Digits the number must have before the rate is checked.',
			RATE_DOC
		)
	],
	deprecatedKeys: [],
	variables: [
		variable({
			name: 'targetNumber',
			scope: 'service',
			meaning: 'The number being typed, normalised (+15551231234).',
			sample: '+15551231234',
			source: RATE_DOC
		}),
		variable({
			name: 'smartUri',
			scope: 'service',
			meaning: "The smart contact's URI; empty unless the number is a smart contact's.",
			sample: '',
			source: RATE_DOC
		})
	],
	...BY_COMMON_RULE,
	responseBody: 'rate',
	source: RATE_DOC,
	ruleSources: {
		...INTRO_RULES,
		failure: { kind: 'inference', ref: 'no rate is shown for the number' },
		responseBody: { kind: 'providers', ref: 'JSON rate strings, citing the documentation' }
	},
	remarks: [
		{
			text: 'JSON callRateString and messageRateString; smartCallRateString and smartMessageRateString when %smartUri% is set.',
			source: { kind: 'providers', ref: 'JSON rate strings, citing the documentation' }
		},
		{
			text: 'Legacy XML shows rateString when error is 0 or missing. The app may ask for several prefixes of one number.',
			source: RATE_DOC
		}
	]
};
