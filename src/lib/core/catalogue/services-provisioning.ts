import { portal, templateKeys } from './keys';
import type { Service, Source } from './schema';
import { BY_COMMON_RULE, contentTypeInferred, FORM, INTRO_RULES } from './services-beyond';
import { variable } from './variables';

/**
 * Initial provisioning: the call the app makes from its sign-in screen (and from the registration
 * wizard's page 2) to the provider's external provisioning service, whose `<account>` answer the
 * app merges into its settings. Its keys are typed into the portal, not the account XML.
 */

const PROVISIONING_DOC: Source = { kind: 'docs', ref: 'provisioning/external_provisioning' };
const SIGN_IN = portal('Provisioning Options (step 2)');

/** Initial provisioning: the sign-in screen's credentials for the account's settings. */
export const initialProvisioning: Service = {
	id: 'initialProvisioning',
	title: 'Initial provisioning',
	caller: 'app',
	kind: 'template',
	purpose:
		'Sends the credentials typed on the sign-in screen (or the number and PIN of the registration wizard) and merges the <account> document it gets into the app’s settings.',
	keys: [
		...contentTypeInferred(templateKeys('InitialProvisioning', SIGN_IN, FORM, PROVISIONING_DOC)),
		{
			key: 'InitialProvisioningMethod',
			role: 'method',
			label: 'Method',
			location: SIGN_IN,
			description: 'GET or POST. Unset: GET without post data, POST with it.',
			source: PROVISIONING_DOC
		}
	],
	deprecatedKeys: [],
	variables: [
		variable({
			name: 'username',
			scope: 'service',
			meaning: 'The username typed on the sign-in screen; the phone number in the wizard.',
			sample: 'alice',
			source: PROVISIONING_DOC
		}),
		variable({
			name: 'password',
			scope: 'service',
			meaning: 'The password typed on the sign-in screen; the PIN in the wizard.',
			sample: 'p@ss word&1',
			secret: true,
			source: PROVISIONING_DOC
		}),
		variable({
			name: 'fullcode',
			scope: 'service',
			meaning: 'The cloud id of the application the user signs in to.',
			sample: 'AcmeCloud',
			source: PROVISIONING_DOC
		})
	],
	...BY_COMMON_RULE,
	// No account exists before the answer arrives: only global values and the sign-in screen's.
	accountKeys: 'none',
	method: { kind: 'configurable', methods: ['GET', 'POST'], bodyIgnoredFor: ['GET'] },
	failure: 'showMessageOrGeneric',
	responseBody: 'provisioningAnswer',
	source: PROVISIONING_DOC,
	ruleSources: {
		...INTRO_RULES,
		accountKeys: PROVISIONING_DOC,
		method: PROVISIONING_DOC,
		failure: PROVISIONING_DOC,
		responseBody: PROVISIONING_DOC
	},
	remarks: [
		{
			text: 'A 2xx answer is an <account> document (application/xml) whose elements are merged into the app’s settings; a non-2xx stops provisioning with the text of its <message>, else a generic error.',
			source: PROVISIONING_DOC
		},
		{
			text: 'Give the account a title that is not empty.',
			source: { kind: 'providers', ref: 'the app needs a title for the account' }
		},
		{
			text: 'In the registration wizard, page 2 calls it with the phone number as %username% and the PIN as %password%; the Phone Number Verifier’s returned keys are usable as %key%.',
			source: { kind: 'contract', ref: 'States and transitions (Wizard page 2)' }
		},
		{
			text: 'Re-provisioning has its own prefix and placeholder rules, which the readable documentation does not give.',
			source: PROVISIONING_DOC
		}
	]
};
