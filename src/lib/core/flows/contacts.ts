import type { Settings, Values } from '../request';
import {
	noAnswer,
	notCalled,
	step,
	type Decision,
	type FlowRun,
	type FlowStep,
	type SendStep,
	type StepOutcome
} from './model';

/**
 * The contacts server's events: Invitation Accepted and New Smart Contact, each sent with the
 * payload of the scenario; 204 is success and anything else is silently ignored. The two events
 * are independent (neither answer feeds the other), so both are sent.
 */

/** The events, in the order of the contract's Events table. */
export const CONTACT_EVENTS = [
	{ service: 'invitationAccepted', title: 'Invitation Accepted', row: 'invitationAccepted' },
	{ service: 'smartContactNotification', title: 'New Smart Contact', row: 'newSmartContact' }
] as const;

/** What the contacts server does with an event's answer. */
export function decideContactEvent(
	title: string,
	outcome: StepOutcome
): { decision: Decision; ignored: boolean } {
	if (outcome.kind !== 'answered') {
		return {
			decision: {
				status: 'failed',
				text: `${title} was not delivered: ${noAnswer(outcome)}.`,
				shownToUser: null
			},
			ignored: false
		};
	}
	if (outcome.interpretation.success) {
		return {
			decision: {
				status: 'ok',
				text: `The provider answered ${outcome.status}: the ${title} event is delivered.`,
				shownToUser: null
			},
			ignored: false
		};
	}
	return {
		decision: {
			status: 'ignored',
			text: `The provider answered ${outcome.status}, not 204: the contacts server silently ignores it (nothing is shown, nothing is retried).`,
			shownToUser: null
		},
		ignored: true
	};
}

/** Sends each event whose URL is set; an event without a URL is shown as not configured. */
export async function runContacts<R>(
	services: Partial<Record<string, Settings>>,
	values: Values,
	send: SendStep<R>
): Promise<FlowRun<R>> {
	const steps: FlowStep<R>[] = [];
	let ok = true;
	for (const event of CONTACT_EVENTS) {
		const plan = {
			service: event.service,
			settings: services[event.service] ?? {},
			values,
			filled: {}
		};
		const sent = await send(plan);
		const answer = sent.results[0];
		if (!answer) {
			const decision: Decision = {
				status: 'skipped',
				text: notCalled(event.title, sent.issues),
				shownToUser: null
			};
			steps.push(step<R>(plan, null, decision, event.row));
			ok = false;
			continue;
		}
		const decided = decideContactEvent(event.title, answer.outcome);
		steps.push(
			step(plan, answer.record, decided.decision, decided.ignored ? 'contactsIgnored' : event.row)
		);
		if (decided.decision.status !== 'ok') ok = false;
	}
	return { ok, steps, result: {} };
}
