import { getService, keyOf } from '../catalogue';
import type { Settings, Values } from '../request';
import {
	noAnswer,
	notCalled,
	step,
	text,
	type Decision,
	type FlowRun,
	type FlowStep,
	type SendStep,
	type StepOutcome,
	type StepPlan
} from './model';

/**
 * The registration wizard, row by row of the contract's States table: page 1 sends the number to
 * the Phone Number Verifier; a 2xx with a valid or absent body moves to page 2 and its key/value
 * pairs become `%key%` placeholders; a non-2xx keeps page 1 with a message box; page 2 sends the
 * PIN through the external provisioning call.
 */

/** Where the wizard ends: the page shown, its message box, and the verifier's placeholders. */
export interface WizardResult {
	page: 1 | 2;
	/** Provisioning continued after page 2 (the external provisioning call was answered). */
	provisioned: boolean;
	messageBox: string | null;
	placeholders: Record<string, string>;
}

/** The registration's inputs, from the scenario. */
export interface RegistrationInput {
	phoneNumber: string;
	pin: string;
}

/** The inputs read from values (the number and the PIN). */
export function registrationInput(values: Values): RegistrationInput {
	return { phoneNumber: text(values, 'phoneNumber'), pin: text(values, 'pin') };
}

/** Page 1: the verifier called with the number (global parameters from the values). */
export function verifierPlan(settings: Settings, values: Values, phoneNumber: string): StepPlan {
	return {
		service: 'phoneNumberVerifier',
		settings,
		values: { ...values, phoneNumber },
		filled: { phoneNumber }
	};
}

/** What page 1 does with the verifier's answer. */
export function decideVerifier(outcome: StepOutcome): {
	decision: Decision;
	row: 'wizardVerified' | 'wizardRejected';
	placeholders: Record<string, string> | null;
} {
	if (outcome.kind !== 'answered') {
		return {
			decision: {
				status: 'failed',
				text: `The verifier was not reached: ${noAnswer(outcome)}. The wizard stays on page 1; no SMS is sent.`,
				shownToUser: null
			},
			row: 'wizardRejected',
			placeholders: null
		};
	}
	const { status, interpretation } = outcome;
	const action = interpretation.action;
	if (action.kind === 'wizardNext') {
		const keys = Object.keys(action.placeholders);
		const list = keys.map((k) => `%${k}%`).join(', ');
		return {
			decision: {
				status: 'ok',
				text: `The verifier answered ${status}; the wizard moves to page 2 (PIN entry) and the user waits for the SMS.${keys.length ? ` ${list} become placeholders for the external provisioning call.` : ' The body is empty: no placeholders.'}`,
				shownToUser: null
			},
			row: 'wizardVerified',
			placeholders: action.placeholders
		};
	}
	if (action.kind === 'wizardMessageBox') {
		return {
			decision: {
				status: 'failed',
				text: `The verifier answered ${status}; the wizard stays on page 1 and shows in a message box: “${action.text}”.`,
				shownToUser: action.text
			},
			row: 'wizardRejected',
			placeholders: null
		};
	}
	// 2xx with a body that is not a valid map of strings: the condition of the row is not met.
	return {
		decision: {
			status: 'failed',
			text: `The verifier answered ${status} but its body is not valid: the wizard does not move to page 2. ${interpretation.summary}`,
			shownToUser: null
		},
		row: 'wizardVerified',
		placeholders: null
	};
}

/**
 * The service page 2 calls: initial provisioning, the app's own call, when its URL is set; else
 * the SSO server's external provisioning URL by its priority, as profiles made before it have.
 */
export function pageTwoService(
	services: Partial<Record<string, Settings>>
): 'initialProvisioning' | 'extSSOProv' {
	const url = keyOf(getService('initialProvisioning'), 'url') ?? '';
	return (services.initialProvisioning?.[url] ?? '').trim() !== ''
		? 'initialProvisioning'
		: 'extSSOProv';
}

/** The settings page 2 sends: the SSO skip flag is about sign-in, not the wizard. */
export function pageTwoSettings(
	services: Partial<Record<string, Settings>>,
	service: string
): Settings {
	const settings = services[service] ?? {};
	const flag = keyOf(getService(service), 'flag');
	return Object.fromEntries(Object.entries(settings).filter(([key]) => key !== flag));
}

/**
 * Page 2: the external provisioning call with the number as the username and the PIN as the
 * password (`%username%` and `%password%`; through the SSO service also `cloud_username` and
 * `cloud_password`), plus the verifier's placeholders.
 */
export function provisioningPlan(
	services: Partial<Record<string, Settings>>,
	values: Values,
	input: RegistrationInput,
	placeholders: Record<string, string>
): StepPlan {
	const service = pageTwoService(services);
	const credentials: Record<string, string> = {
		...(service === 'extSSOProv'
			? { 'account[cloud_username]': input.phoneNumber, 'account[cloud_password]': input.pin }
			: {}),
		username: input.phoneNumber,
		password: input.pin
	};
	return {
		service,
		settings: pageTwoSettings(services, service),
		values: { ...values, ...placeholders, ...credentials },
		filled: { ...placeholders, ...credentials }
	};
}

/** What page 2 leads to, from the external provisioning answer. */
export function decideProvisioning(outcome: StepOutcome): Decision {
	if (outcome.kind !== 'answered') {
		return {
			status: 'failed',
			text: `The external provisioning call failed: ${noAnswer(outcome)}. Provisioning does not continue.`,
			shownToUser: null
		};
	}
	const { status, interpretation } = outcome;
	const { action } = interpretation;
	if (action.kind === 'provisioningAnswer') {
		const merged = action.result.outcome === 'merged';
		return {
			status: merged ? 'ok' : 'failed',
			text: `External provisioning answered ${status}; ${merged ? 'provisioning continues' : 'provisioning stops'}. ${interpretation.summary}`,
			shownToUser: action.result.shownToUser
		};
	}
	if (action.kind === 'provisioningAccount') {
		return {
			status: 'ok',
			text: `External provisioning answered ${status}; provisioning continues. ${interpretation.summary}`,
			shownToUser: null
		};
	}
	return {
		status: 'failed',
		text: `External provisioning answered ${status}; the answer is not an account document the app can use, so provisioning does not continue. ${interpretation.summary}`,
		shownToUser: null
	};
}

/** Runs the wizard: page 1, then page 2 when page 1 lets the user through. */
export async function runRegistration<R>(
	services: Partial<Record<string, Settings>>,
	values: Values,
	send: SendStep<R>
): Promise<FlowRun<R>> {
	const input = registrationInput(values);
	const steps: FlowStep<R>[] = [];
	const result: WizardResult = { page: 1, provisioned: false, messageBox: null, placeholders: {} };
	const first = verifierPlan(services.phoneNumberVerifier ?? {}, values, input.phoneNumber);
	const verified = await send(first);
	const answer = verified.results[0];
	if (!answer) {
		const decision: Decision = {
			status: 'failed',
			text: `${notCalled('The Phone Number Verifier', verified.issues)} The wizard cannot leave page 1.`,
			shownToUser: null
		};
		steps.push(step<R>(first, null, decision, 'wizardVerified'));
		return { ok: false, steps, result: { wizard: result } };
	}
	const page1 = decideVerifier(answer.outcome);
	steps.push(step(first, answer.record, page1.decision, page1.row));
	if (!page1.placeholders) {
		result.messageBox = page1.decision.shownToUser;
		return { ok: false, steps, result: { wizard: result } };
	}
	result.page = 2;
	result.placeholders = page1.placeholders;
	const second = provisioningPlan(services, values, input, page1.placeholders);
	const provisioned = await send(second);
	const reply = provisioned.results[0];
	if (!reply) {
		const decision: Decision = {
			status: 'failed',
			text: `${notCalled('External provisioning', provisioned.issues)} Set InitialProvisioningUrl in the portal (the SSO server's call reads the same field), or the SSO server's extSSOProvUrl or reprovisioning URL: page 2 has nothing to call.`,
			shownToUser: null
		};
		steps.push(step<R>(second, null, decision, 'wizardPin'));
		return { ok: false, steps, result: { wizard: result } };
	}
	const decision = decideProvisioning(reply.outcome);
	steps.push(step(second, reply.record, decision, 'wizardPin'));
	result.provisioned = decision.status === 'ok';
	return { ok: result.provisioned, steps, result: { wizard: result } };
}
