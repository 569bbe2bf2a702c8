import { ACCOUNT_XML, templateKeys } from './keys';
import type { Remark, Service, Source } from './schema';
import { pushTokenReporter } from './services-app';
import { BY_COMMON_RULE, contentTypeInferred, FORM, INTRO_RULES } from './services-beyond';
import { variable } from './variables';

/**
 * The two reporters beyond the contract: the app tells the provider that an account left it
 * (Account Removal Reporter) and that a push arrived (Push Notification Reporter). The app reads
 * only the status; what matters is what the provider does with the call.
 */

const REMOVAL_DOC: Source = { kind: 'docs', ref: 'api/client/account_removal_reporter' };
const DELIVERY_DOC: Source = { kind: 'docs', ref: 'api/client/push_notification_reporter' };

/** An inference of this product, with its reasoning. */
const inferred = (ref: string): Source => ({ kind: 'inference', ref });

/** The answer is documented for neither: 2xx is read as success, by the common rule. */
const ANSWER_INFERRED = inferred(
	'the answer is not documented: 2xx is read as success, as for every service'
);

/** What the app does with any answer: nothing the user sees. */
const NOTHING_SHOWN = inferred(
	'the app reads only the status and shows nothing; whether it reports again is not documented'
);

/** The rules both reporters follow: the common rule, with an answer no page documents. */
const REPORTER_RULES = {
	...BY_COMMON_RULE,
	failure: 'silentlyIgnore',
	responseBody: 'report'
} satisfies Partial<Service>;

const REPORTER_RULE_SOURCES = {
	...INTRO_RULES,
	success: ANSWER_INFERRED,
	failure: NOTHING_SHOWN,
	responseBody: NOTHING_SHOWN
};

const ANSWER_REMARK: Remark = {
	text: 'The answer is not documented: any 2xx is read as delivered (answer with no body); the app shows nothing either way.',
	source: ANSWER_INFERRED
};

/** The Account Removal Reporter's key names: the platform does not publish them. */
const REMOVAL_KEYS = inferred(
	'key names not published by the platform: named by the prefix rule of every service'
);

/** The Push Token Reporter's app ids: the removal page lists only the selector and tokens. */
const APP_IDS_INFERRED = inferred(
	"the Push Token Reporter's app ids; the documentation lists only the selector and tokens"
);

/** Account Removal Reporter: the app says an account left it, so its push tokens can go. */
export const accountRemovalReporter: Service = {
	id: 'accountRemovalReporter',
	title: 'Account Removal Reporter',
	caller: 'app',
	kind: 'template',
	purpose:
		'Tells the provider that the user signed out or removed the account (never when the app is uninstalled), so that it deletes the push tokens the Push Token Reporter stored.',
	keys: templateKeys('accountRemovalReporter', ACCOUNT_XML, FORM, REMOVAL_KEYS),
	deprecatedKeys: [],
	variables: pushTokenReporter.variables.map((v) => ({
		...v,
		source: v.name.startsWith('pushappid') ? APP_IDS_INFERRED : REMOVAL_DOC
	})),
	...REPORTER_RULES,
	source: REMOVAL_DOC,
	ruleSources: REPORTER_RULE_SOURCES,
	remarks: [
		{
			text: 'The key names are not published by the platform: these follow the prefix rule of every service. Check them against your app before relying on them.',
			source: REMOVAL_KEYS
		},
		{
			text: 'Called only on sign-out or account removal, never on uninstall: delete the tokens stored under the selector, and still drop a token the push gateway says is no longer registered.',
			source: REMOVAL_DOC
		},
		ANSWER_REMARK
	]
};

/** A key of the received push, as the Push Notification Reporter's variable. */
function pushKey(name: string, meaning: string, sample = '') {
	return variable({ name, scope: 'service', meaning, sample, source: DELIVERY_DOC });
}

/** Push Notification Reporter: the app reports each push it receives, with the push's keys. */
export const pushNotificationReporter: Service = {
	id: 'pushNotificationReporter',
	title: 'Push Notification Reporter',
	caller: 'app',
	kind: 'template',
	purpose:
		'Reports each push the app receives, with the keys of the push, for push tests and delivery statistics.',
	keys: contentTypeInferred(
		templateKeys('pushNotificationReporter', ACCOUNT_XML, FORM, DELIVERY_DOC)
	),
	deprecatedKeys: [],
	variables: [
		pushKey('pushId', 'The id of a push test; empty for any other push.', 'test-7f3a9c21'),
		pushKey('s', 'The push’s s key (an incoming call); empty when the push has none.'),
		pushKey('sm', 'The push’s sm key (a text message); empty when the push has none.'),
		pushKey('s_missed', 'The push’s s_missed key (a missed call); empty when it has none.'),
		pushKey('type', 'The push’s type key; empty when the push has none.')
	],
	...REPORTER_RULES,
	source: DELIVERY_DOC,
	ruleSources: REPORTER_RULE_SOURCES,
	remarks: [
		{
			text: 'Called on every received push. The values of s, sm, s_missed and type are the push’s own; the documentation does not list them.',
			source: DELIVERY_DOC
		},
		ANSWER_REMARK
	]
};
