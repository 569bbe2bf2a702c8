import { ACCOUNT_XML, templateKeys } from './keys';
import type { Service, Source } from './schema';
import { variable } from './variables';

/**
 * The platform's web services beyond the contract: configured the same way, in the same account
 * XML, but their rules come from the platform's public documentation, providers' implementations
 * or an inference, and every rule says which.
 */

const FORM = 'application/x-www-form-urlencoded';

/** The common rule of every web service: the platform's introduction page. */
const INTRO: Source = {
	kind: 'docs',
	ref: 'api/client/intro'
};
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
	accountKeys: 'all',
	globals: 'all',
	variableSet: 'open',
	method: { kind: 'byBody' },
	contentType: { default: FORM, allowed: null },
	success: { status: { kind: '2xx' }, body: 'any' },
	failure: 'ignoreAndRetry',
	responseBody: 'fetchedMessages',
	limits: { httpsOnly: false, recipientsPerCall: null, shownBodyChars: null },
	source: FETCH_DOC,
	ruleSources: {
		variableSet: INTRO,
		accountKeys: INTRO,
		globals: INTRO,
		method: INTRO,
		contentType: INTRO,
		success: INTRO,
		failure: {
			kind: 'inference',
			ref: 'nothing is shown; the app fetches again at the next foreground or push'
		},
		responseBody: FETCH_ANSWER,
		limits: INTRO
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
