/**
 * The gallery: annotated starting points written in the styles real providers use for these
 * services (GET with credentials in the query, form and JSON bodies, a fixed text/plain body,
 * path segments, the provider’s own account keys), each with what such a provider's handler
 * answers and how the platform reads that answer. Starting points, not recommendations: where a
 * style has a cost (a password in a URL, an error reported with HTTP 200), the notes say so and
 * the lint warns.
 */

import type { Source } from './schema';

/** What a provider's handler in this style answers, and what the platform makes of it. */
export interface GalleryAnswer {
	status: number;
	/** The Content-Type of the answer; null for none. */
	contentType: string | null;
	body: string;
	/** Set when the platform reads this answer otherwise than the provider means it. */
	misread?: string;
}

/** One annotated starting point. */
export interface GalleryTemplate {
	id: string;
	title: string;
	/** What the style is, where it is seen, and what to know before using it. */
	notes: string[];
	/** Settings by service id, then configuration key. */
	services: Record<string, Record<string, string>>;
	/** Account values the template declares besides the documented ones (`<apiUser>`). */
	accountValues?: Record<string, string>;
	/** The answer of Send Message (or of the one service) in this style. */
	answer?: { service: string } & GalleryAnswer;
	/** Where the style comes from; absent, real providers' implementations. */
	source?: Source;
}

/** The source of a template that names none: the styles seen in providers' public code. */
export const GALLERY_SOURCE: Source = {
	kind: 'providers',
	ref: "about ten providers' public implementations"
};

export const GALLERY: readonly GalleryTemplate[] = [
	{
		id: 'json-sms-id',
		title: 'JSON body, answered with {"sms_id": …}',
		notes: [
			'The contract’s way: a JSON body over https, and an answer whose sms_id the app stores to match sent messages with fetched ones.',
			'content_type is sent along so that the server can tell a text from a media message or a disposition notification.'
		],
		services: {
			sendMessage: {
				genericSmsSendUrl: 'https://api.example.com/v2/messages',
				genericSmsSendPostData:
					'{"from": "%account[username]%", "password": "%account[password]%", "to": "%sms_to%", "body": "%sms_body%", "content_type": "%content_type%"}',
				genericSmsSendContentType: 'application/json'
			}
		},
		answer: {
			service: 'sendMessage',
			status: 200,
			contentType: 'application/json',
			body: '{"sms_id": "5f2c9a7e-0b1d-4d8e-9b7a-3c1f2e4d5a6b"}'
		}
	},
	{
		id: 'form-xml-answer',
		title: 'Form body, answered with <response><sms_id>…</sms_id></response>',
		notes: [
			'A form-encoded body (application/x-www-form-urlencoded), as PBX vendors write it; the answer is XML.',
			'Errors are answered with a non-2xx status and <response><message>…</message></response>: the platform shows that message to the user.'
		],
		services: {
			sendMessage: {
				genericSmsSendUrl: 'https://pbx.example.com/api/sms/send',
				genericSmsSendPostData:
					'username=%account[username]%&password=%account[password]%&to=%sms_to%&text=%sms_body%&content_type=%content_type%',
				genericSmsSendContentType: 'application/x-www-form-urlencoded'
			}
		},
		answer: {
			service: 'sendMessage',
			status: 200,
			contentType: 'application/xml',
			body: '<response><sms_id>84412</sms_id></response>'
		}
	},
	{
		id: 'get-query-credentials',
		title: 'GET with everything in the query string',
		notes: [
			'Common with small carrier bridges: no body, the credentials and the message in the URL.',
			'Passwords in URLs end up in web server and proxy access logs (one bridge strips query strings from its log for this reason): the lint warns. Prefer a body, or %sha1(%account[password]%)%.',
			'In XML, & inside a URL is written &amp; (the export does this for you).'
		],
		services: {
			sendMessage: {
				genericSmsSendUrl:
					'https://bridge.example.net/send?username=%account[username]%&password=%account[password]%&to=%sms_to%&body=%sms_body%'
			}
		},
		answer: { service: 'sendMessage', status: 200, contentType: null, body: '' }
	},
	{
		id: 'static-token-query',
		title: 'A shared static token in the query, answered with {"message_id": …}',
		notes: [
			'One token for every user, plus %account[username]% to say who sends: nobody needs a password, and anybody who has the token can send as anyone.',
			'The answer names its id message_id, not sms_id: the platform finds no id to store.'
		],
		services: {
			sendMessage: {
				genericSmsSendUrl:
					'https://sms.example.org/api/send?token=8f14e45fceea167a5a36dedd4bea2543&user=%account[username]%&to=%sms_to%&text=%sms_body%'
			}
		},
		answer: {
			service: 'sendMessage',
			status: 200,
			contentType: 'application/json',
			body: '{"message_id": "m-20931"}',
			misread:
				'message_id is not the contract’s name: the platform stores no id and cannot match the sent message with the fetched one. Answer sms_id.'
		}
	},
	{
		id: 'error-flag-http-200',
		title: 'An error flag in the body, always HTTP 200',
		notes: [
			'Some handlers answer every request with 200 and {"response": {"error": 0, "description": "Success"}}, putting failures in the error flag.',
			'The platform reads the status, not the flag: a failure answered with 200 counts as sent, and the user is never told.'
		],
		services: {
			sendMessage: {
				genericSmsSendUrl: 'https://voip.example.com/api/v1/sms',
				genericSmsSendPostData:
					'{"user": "%account[username]%", "pass": "%sha1(%account[password]%)%", "dst": "%sms_to%", "message": "%sms_body%"}',
				genericSmsSendContentType: 'application/json'
			}
		},
		answer: {
			service: 'sendMessage',
			status: 200,
			contentType: 'application/json',
			body: '{"response": {"error": 1, "description": "Insufficient credit"}}',
			misread:
				'This answer reports an error with HTTP 200: the platform counts the message as sent and shows nothing. Answer a 4xx or 5xx status with {"message": "…"} instead.'
		}
	},
	{
		id: 'opaque-text-body',
		title: 'Placeholders only in the URL, a fixed text/plain body',
		notes: [
			'The body is a fixed opaque blob (an encrypted credential) sent as text/plain; everything that changes is in the URL, including a path segment.'
		],
		services: {
			sendMessage: {
				genericSmsSendUrl:
					'https://relay.example.net/sms/%account[username]%/send?to=%sms_to%&text=%sms_body%',
				genericSmsSendPostData: 'U2FsdGVkX19yJq3nT0kq8Z7sQm0c1v+FJ4l6Yb2nVf8=',
				genericSmsSendContentType: 'text/plain'
			}
		}
	},
	{
		id: 'own-account-keys',
		title: 'The provider’s own account keys (<apiUser>, <apiKey>)',
		notes: [
			'The provider adds its own elements to the account XML (<apiUser>, <apiKey>) and uses them as %account[apiUser]%; credentials among them are kept as secrets, masked wherever they are shown.',
			'The credentials travel in the body, not in the URL.'
		],
		accountValues: { apiUser: 'acme-bridge', apiKey: '' },
		services: {
			sendMessage: {
				genericSmsSendUrl: 'https://api.example.com/sms',
				genericSmsSendPostData:
					'{"user": "%account[apiUser]%", "key": "%account[apiKey]%", "to": "%sms_to%", "text": "%sms_body%"}',
				genericSmsSendContentType: 'application/json'
			}
		},
		answer: {
			service: 'sendMessage',
			status: 200,
			contentType: 'application/json',
			body: '{"sms_id": "a81f"}'
		}
	},
	{
		id: 'push-token-reporter-form',
		title: 'Push Token Reporter with a form body',
		notes: [
			'The typical Push Token Reporter: username, password, the selector, both push tokens and both app ids, form-encoded. Push tokens contain +, / and =, which the form encoding escapes.',
			'Handlers usually answer an empty 200 or {}.'
		],
		services: {
			pushTokenReporter: {
				pushTokenReporterUrl: 'https://pbx.example.com/push/register',
				pushTokenReporterPostData:
					'username=%account[username]%&password=%account[password]%&selector=%selector%&token_calls=%pushTokenIncomingCall%&token_msgs=%pushTokenOther%&appId_calls=%pushappid_incoming_call%&appId_msgs=%pushappid_other%',
				pushTokenReporterContentType: 'application/x-www-form-urlencoded'
			}
		},
		answer: {
			service: 'pushTokenReporter',
			status: 200,
			contentType: 'application/json',
			body: '{}'
		}
	},
	{
		id: 'fetch-json-post',
		title: 'Fetch Messages as a JSON POST with both last known ids',
		notes: [
			'The style most providers use: credentials and both last known ids in a JSON body over https. The server answers only messages newer than those ids, oldest first.',
			'last_known_sent_sms_id lets a second device of the same user see what the first one sent; an empty id means the app knows no message yet.'
		],
		services: {
			fetchMessages: {
				genericSmsFetchUrl: 'https://api.example.com/v2/messages/fetch',
				genericSmsFetchPostData:
					'{"username": "%account[username]%", "password": "%account[password]%", "last_known_sms_id": "%last_known_sms_id%", "last_known_sent_sms_id": "%last_known_sent_sms_id%"}',
				genericSmsFetchContentType: 'application/json'
			}
		},
		answer: {
			service: 'fetchMessages',
			status: 200,
			contentType: 'application/json',
			body: '{"date": "2026-03-01T10:00:00Z", "received_smss": [{"sms_id": "Msg-7f3a9c22", "sending_date": "2026-03-01T09:58:00Z", "sender": "+14155550123", "sms_text": "On my way", "content_type": "text/plain", "stream_id": "+14155550123"}], "sent_smss": [{"sms_id": "Out-0043", "sending_date": "2026-03-01T09:59:00Z", "recipient": "+14155550123", "sms_text": "See you", "content_type": "text/plain", "disposition_notification": "Msg-1:positive-delivery,display", "stream_id": "+14155550123"}]}'
		}
	},
	{
		id: 'fetch-get-query',
		title: 'Fetch Messages as a GET with the last known id in the query',
		notes: [
			'No post data, so the request is GET: the last known id goes in the query, percent-encoded. Seen with PBX companions that poll one mailbox.',
			'A password in a URL ends up in access logs: this style sends the SHA-1 of the password instead, which the server compares with its own.'
		],
		services: {
			fetchMessages: {
				genericSmsFetchUrl:
					'https://pbx.example.com/sms/fetch?user=%account[username]%&hash=%sha1(%account[password]%)%&last_id=%last_known_sms_id%'
			}
		},
		answer: {
			service: 'fetchMessages',
			status: 200,
			contentType: 'application/xml',
			body: '<response><date>2026-03-01T10:00:00Z</date><received_smss><sms><sms_id>9001</sms_id><sending_date>2026-03-01T09:58:00+01:00</sending_date><sender>+14155550123</sender><sms_text>Call me</sms_text></sms></received_smss><sent_smss/></response>'
		}
	},
	{
		id: 'balance-legacy-xml',
		title: 'Balance Checker as a GET, answered with the legacy XML',
		notes: [
			'No post data, so the request is GET; the SHA-1 of the password, not the password, goes in the query, so access logs do not keep it.',
			'The answer is the documented legacy XML: error 0 and the balanceString the app shows as it is. Any other error shows nothing.'
		],
		services: {
			balanceChecker: {
				genericBalanceCheckUrl:
					'https://billing.example.com/balance?user=%account[username]%&hash=%sha1(%account[password]%)%',
				balanceCheckIntervalInSeconds: '600'
			}
		},
		answer: {
			service: 'balanceChecker',
			status: 200,
			contentType: 'text/xml',
			body: '<response><error>0</error><balanceString>$60.20</balanceString></response>'
		},
		source: { kind: 'docs', ref: 'api/client/balance_checker; FAQ' }
	},
	{
		id: 'balance-json-post',
		title: 'Balance Checker as a JSON POST, answered with balanceString',
		notes: [
			'Credentials in a JSON body over https, as most billing back ends take them.',
			'The answer carries balance and currency for the provider’s own use: the app shows only balanceString, so format it there.'
		],
		services: {
			balanceChecker: {
				genericBalanceCheckUrl: 'https://api.example.com/v2/balance',
				genericBalanceCheckPostData:
					'{"username": "%account[username]%", "password": "%account[password]%"}',
				genericBalanceCheckContentType: 'application/json'
			}
		},
		answer: {
			service: 'balanceChecker',
			status: 200,
			contentType: 'application/json',
			body: '{"balanceString": "€ 3.10", "balance": 3.1, "currency": "EUR"}'
		},
		source: { kind: 'providers', ref: 'JSON {"balanceString", "balance", "currency"}' }
	},
	{
		id: 'rate-json-post',
		title: 'Rate Checker as a JSON POST with the number and the smart URI',
		notes: [
			'The number arrives normalised (+15551231234); %smartUri% is empty unless the number is a smart contact’s, when the smart rates are shown instead.',
			'The app asks while the user types, possibly for several prefixes of one number, and keeps answers about two hours: answer fast.'
		],
		services: {
			rateChecker: {
				genericRateCheckUrl: 'https://api.example.com/v2/rates',
				genericRateCheckPostData:
					'{"username": "%account[username]%", "to": "%targetNumber%", "smart_uri": "%smartUri%"}',
				genericRateCheckContentType: 'application/json'
			}
		},
		answer: {
			service: 'rateChecker',
			status: 200,
			contentType: 'application/json',
			body: '{"callRateString": "$0.02/min", "messageRateString": "$0.01", "smartCallRateString": "free", "smartMessageRateString": "free"}'
		},
		source: { kind: 'providers', ref: 'JSON rate strings, citing the documentation' }
	},
	{
		id: 'rate-legacy-get',
		title: 'Rate Checker as a GET, answered with the legacy XML rateString',
		notes: [
			'The number goes in the query, percent-encoded (+ becomes %2B).',
			'The legacy XML answer: the app shows rateString when error is 0 or missing.'
		],
		services: {
			rateChecker: {
				genericRateCheckUrl:
					'https://billing.example.com/rate?user=%account[username]%&to=%targetNumber%',
				rateCheckMinNumberLength: '6'
			}
		},
		answer: {
			service: 'rateChecker',
			status: 200,
			contentType: 'application/xml',
			body: '<response><error>0</error><rateString>5 c/min</rateString></response>'
		},
		source: { kind: 'docs', ref: 'api/client/rate_checker' }
	},
	{
		id: 'account-removal-json',
		title: 'Account Removal Reporter as a JSON POST of the selector and tokens',
		notes: [
			'The Push Token Reporter’s JSON body, sent when the user signs out or removes the account: the server deletes what it stored under the selector.',
			'The key names (accountRemovalReporterUrl, …) are not published by the platform and follow the prefix rule: check them against your app. Handlers answer an empty 200.'
		],
		services: {
			accountRemovalReporter: {
				accountRemovalReporterUrl: 'https://push.example.com/api/unregister',
				accountRemovalReporterPostData:
					'{"username": "%account[username]%", "password": "%account[password]%", "selector": "%selector%", "token_calls": "%pushTokenIncomingCall%", "token_msgs": "%pushTokenOther%"}',
				accountRemovalReporterContentType: 'application/json'
			}
		},
		answer: { service: 'accountRemovalReporter', status: 200, contentType: null, body: '' },
		source: {
			kind: 'inference',
			ref: "the Push Token Reporter's JSON style; the key names are not published"
		}
	},
	{
		id: 'push-delivery-get',
		title: 'Push Notification Reporter as a GET with the push’s keys',
		notes: [
			'Every received push is reported: the query carries the push test’s id (empty for other pushes) and the push’s type, for delivery statistics.',
			'Sent for every push, so keep the handler cheap and answer an empty 200; the app reads nothing of the answer.'
		],
		services: {
			pushNotificationReporter: {
				pushNotificationReporterUrl:
					'https://push.example.com/api/delivered?user=%account[username]%&push=%pushId%&type=%type%'
			}
		},
		answer: { service: 'pushNotificationReporter', status: 204, contentType: null, body: '' },
		source: { kind: 'docs', ref: 'api/client/push_notification_reporter' }
	},
	{
		id: 'contacts-get-digest',
		title: 'Web Service Contacts as a GET behind HTTP Digest',
		notes: [
			'No post data, so the request is GET; the directory server asks for Digest credentials, which the app answers once per refresh (RFC 7616). Type wsContactsAuthPassword yourself: it is a secret, never part of a starting point.',
			'Answer Last-Modified, and 304 Not Modified to a request whose If-Modified-Since is not older: the app keeps its list and the server does no work.'
		],
		services: {
			webServiceContacts: {
				wsContactsUrl: 'https://directory.example.com/contacts?user=%account[username]%',
				wsContactsAuthUsername: 'directory',
				wsContactsRefresh: '600'
			}
		},
		answer: {
			service: 'webServiceContacts',
			status: 200,
			contentType: 'application/json',
			body: '{"contacts": [{"contactId": "c-1001", "displayName": "Bob Smith", "fname": "Bob", "lname": "Smith", "company": "Example Ltd", "contactEntries": [{"entryId": "e-1", "label": "work", "type": "tel", "uri": "tel:+14155550123"}, {"entryId": "e-2", "label": "mail", "type": "email", "uri": "mailto:bob@example.com"}]}]}'
		},
		source: { kind: 'docs', ref: 'api/client/web_contacts' }
	},
	{
		id: 'contacts-json-post',
		title: 'Web Service Contacts as a JSON POST of the account’s credentials',
		notes: [
			'The method is set to POST and the account’s credentials go in a JSON body over https, as address-book back ends of PBXs take them; no Digest.',
			'The whole list comes back each time: keep contactId and entryId stable, or the app sees every contact as new.'
		],
		services: {
			webServiceContacts: {
				wsContactsUrl: 'https://pbx.example.com/api/phonebook',
				wsContactsMethod: 'POST',
				wsContactsPostData:
					'{"username": "%account[username]%", "password": "%account[password]%"}',
				wsContactsContentType: 'application/json'
			}
		},
		answer: {
			service: 'webServiceContacts',
			status: 200,
			contentType: 'application/json',
			body: '{"contacts": [{"contactId": "201", "displayName": "Reception", "contactEntries": [{"entryId": "201-ext", "label": "direct", "type": "tel", "uri": "tel:+442079460123"}]}]}'
		},
		source: { kind: 'providers', ref: 'PBX phonebook back ends answering the documented JSON' }
	}
];

/** The gallery template with this id, if any. */
export function galleryTemplate(id: string): GalleryTemplate | undefined {
	return GALLERY.find((t) => t.id === id);
}
