import {
	deviceCredentials,
	legacyCredentials,
	provisioningRoute,
	type LegacyCredential,
	type Settings,
	type Values
} from '../request';
import { readAccountTags, type PhoneNumbers } from '../response';
import {
	noAnswer,
	notCalled,
	step,
	type Decision,
	type FlowRun,
	type FlowStep,
	type SendStep,
	type StepOutcome,
	type StepPlan
} from './model';

/**
 * SSO sign-in: the SSO server's external provisioning call (URL by priority, or skipped by the
 * flag, or none configured), whose account document fills the legacy `%username%` and
 * `%password%`, then External Authentication (https only) with the verified numbers, `uri` and
 * `networkId` it answers, and what stops working when it fails.
 */

/** What the sign-in gave. */
export interface SsoResult {
	/** Where `%username%` and `%password%` came from. */
	credentials: { placeholder: string; source: LegacyCredential['source'] }[];
	/** The parsed answer of External Authentication, or null when it failed or was ignored. */
	authentication: PhoneNumbers | null;
	/** What the platform cannot do when External Authentication did not work. */
	impaired: string[];
}

/** What stops working when External Authentication does not work (the contract's words). */
export const SSO_IMPAIRED = ['contact sync', 'smart contact resolution'] as const;

/** The first step's plan: the external provisioning call with the device credentials. */
export function ssoProvisioningPlan(settings: Settings, values: Values): StepPlan {
	const device = deviceCredentials(values);
	return {
		service: 'extSSOProv',
		settings,
		values,
		filled: {
			'account[cloud_username]': device.username,
			'account[cloud_password]': device.password
		}
	};
}

/**
 * What the SSO server takes from the external provisioning answer: the legacy credentials (the
 * account document's tags, else the device's). An answer that fails or is not an account
 * document is ignored, and the device credentials are used.
 */
export function decideSsoProvisioning(
	outcome: StepOutcome,
	device: { username: string; password: string }
): { decision: Decision; credentials: LegacyCredential[]; stop: boolean } {
	if (outcome.kind !== 'answered') {
		return {
			decision: {
				status: 'failed',
				text: `The external provisioning call failed: ${noAnswer(outcome)}. Sign-in stops here.`,
				shownToUser: null
			},
			credentials: legacyCredentials(null, device),
			stop: true
		};
	}
	const { status, interpretation } = outcome;
	if (interpretation.action.kind !== 'provisioningAccount') {
		return {
			decision: {
				status: 'ignored',
				text: `External provisioning answered ${status}; the answer is silently ignored, so %username% and %password% of External Authentication are the device credentials.`,
				shownToUser: null
			},
			credentials: legacyCredentials(null, device),
			stop: false
		};
	}
	const credentials = legacyCredentials(readAccountTags(outcome.body, []), device);
	const from = credentials
		.map(
			(c) =>
				`%${c.placeholder}% from ${c.source === 'device' ? 'the device credentials' : 'the account document'}`
		)
		.join(', ');
	return {
		decision: {
			status: 'ok',
			text: `External provisioning answered ${status} with an account document: ${from}.`,
			shownToUser: null
		},
		credentials,
		stop: false
	};
}

/** The second step's plan: External Authentication with the legacy credentials filled. */
export function externalAuthPlan(
	settings: Settings,
	values: Values,
	credentials: readonly LegacyCredential[]
): StepPlan {
	const filled = Object.fromEntries(credentials.map((c) => [c.placeholder, c.value]));
	return { service: 'externalAuth', settings, values: { ...values, ...filled }, filled };
}

function impairedText(): string {
	return `${SSO_IMPAIRED[0]} and ${SSO_IMPAIRED[1]} are impaired`;
}

/** What the SSO server does with External Authentication's answer. */
export function decideExternalAuth(outcome: StepOutcome): {
	decision: Decision;
	row: 'ssoAuthenticated' | 'ssoFailed' | 'ssoHttpsOnly';
	numbers: PhoneNumbers | null;
} {
	if (outcome.kind !== 'answered') {
		const https = outcome.kind === 'refused' && outcome.code === 'https_required';
		return {
			decision: {
				status: 'failed',
				text: `External Authentication did not work: ${noAnswer(outcome)}. The account gets no verified numbers, so ${impairedText()}.`,
				shownToUser: null
			},
			row: https ? 'ssoHttpsOnly' : 'ssoFailed',
			numbers: null
		};
	}
	const { status, interpretation } = outcome;
	if (interpretation.action.kind === 'phoneNumbers') {
		const found = interpretation.action.result;
		return {
			decision: {
				status: 'ok',
				text: `External Authentication answered ${status}. ${found.summary}`,
				shownToUser: null
			},
			row: 'ssoAuthenticated',
			numbers: found
		};
	}
	return {
		decision: {
			status: 'ignored',
			text: `External Authentication answered ${status}; the SSO server silently ignores it (nothing is shown), so ${impairedText()}. ${interpretation.summary}`,
			shownToUser: null
		},
		row: 'ssoFailed',
		numbers: null
	};
}

/** Runs the sign-in: external provisioning (unless skipped or not configured), then authentication. */
export async function runSso<R>(
	services: Partial<Record<string, Settings>>,
	values: Values,
	send: SendStep<R>
): Promise<FlowRun<R>> {
	const steps: FlowStep<R>[] = [];
	const device = deviceCredentials(values);
	const provSettings = services.extSSOProv ?? {};
	const route = provisioningRoute(provSettings);
	const first = ssoProvisioningPlan(provSettings, values);
	let credentials = legacyCredentials(null, device);
	if (route.skipped) {
		const decision: Decision = {
			status: 'skipped',
			text: `${route.flagKey} is 1: the SSO server makes no external provisioning call; %username% and %password% are the device credentials.`,
			shownToUser: null
		};
		steps.push(step<R>(first, null, decision, 'ssoProvisioningSkipped'));
	} else if (!route.chosen) {
		const decision: Decision = {
			status: 'skipped',
			text: `No external provisioning URL is set (${route.candidates.map((c) => c.key).join(', ')}): the simple flow, with the device credentials.`,
			shownToUser: null
		};
		steps.push(step<R>(first, null, decision, 'ssoSimpleFlow'));
	} else {
		const sent = await send(first);
		const answer = sent.results[0];
		if (!answer) {
			const decision: Decision = {
				status: 'skipped',
				text: `${notCalled('External provisioning', sent.issues)} The device credentials are used.`,
				shownToUser: null
			};
			steps.push(step<R>(first, null, decision, 'ssoSimpleFlow'));
		} else {
			const decided = decideSsoProvisioning(answer.outcome, device);
			const row =
				answer.outcome.kind === 'refused' && answer.outcome.code === 'https_required'
					? 'ssoHttpsOnly'
					: decided.decision.status === 'ok'
						? 'ssoLegacyCredentials'
						: 'ssoProvisioningUrl';
			steps.push(step(first, answer.record, decided.decision, row));
			credentials = decided.credentials;
			if (decided.stop) return ssoRun(false, steps, credentials, null);
		}
	}
	const second = externalAuthPlan(services.externalAuth ?? {}, values, credentials);
	const sent = await send(second);
	const answer = sent.results[0];
	if (!answer) {
		const decision: Decision = {
			status: 'failed',
			text: `${notCalled('External Authentication', sent.issues)} The account gets no verified numbers, so ${impairedText()}.`,
			shownToUser: null
		};
		steps.push(step<R>(second, null, decision, 'ssoFailed'));
		return ssoRun(false, steps, credentials, null);
	}
	const decided = decideExternalAuth(answer.outcome);
	steps.push(step(second, answer.record, decided.decision, decided.row));
	return ssoRun(decided.numbers !== null, steps, credentials, decided.numbers);
}

function ssoRun<R>(
	ok: boolean,
	steps: FlowStep<R>[],
	credentials: readonly LegacyCredential[],
	authentication: PhoneNumbers | null
): FlowRun<R> {
	const sso: SsoResult = {
		credentials: credentials.map((c) => ({ placeholder: c.placeholder, source: c.source })),
		authentication,
		impaired: authentication ? [] : [...SSO_IMPAIRED]
	};
	return { ok, steps, result: { sso } };
}
