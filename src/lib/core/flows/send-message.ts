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
 * Send Message to several recipients: the app calls the service once per recipient (the
 * builder makes one request per element of `sms_to`), shows each outcome, and keeps every
 * `sms_id` it is given.
 */

/** What the app does with one recipient's answer. */
export function decideSend(
	recipient: string,
	outcome: StepOutcome
): { decision: Decision; smsId: string | null } {
	if (outcome.kind !== 'answered') {
		return {
			decision: {
				status: 'failed',
				text: `The message to ${recipient} was not sent: ${noAnswer(outcome)}.`,
				shownToUser: null
			},
			smsId: null
		};
	}
	const { status, interpretation } = outcome;
	const action = interpretation.action;
	if (action.kind === 'storeSmsId') {
		return {
			decision: {
				status: 'ok',
				text: `Answered ${status}: the message to ${recipient} counts as sent; the app stores sms_id “${action.smsId}”.`,
				shownToUser: null
			},
			smsId: action.smsId
		};
	}
	if (interpretation.success) {
		return {
			decision: {
				status: 'ok',
				text: `Answered ${status}: the message to ${recipient} counts as sent (no sms_id to store).`,
				shownToUser: null
			},
			smsId: null
		};
	}
	return {
		decision: {
			status: 'failed',
			text: `Answered ${status}: the message to ${recipient} is not sent. ${interpretation.summary}`,
			shownToUser: interpretation.shownToUser
		},
		smsId: null
	};
}

/** One call per recipient of `sms_to` (a list, or one value). */
export async function runSendMessage<R>(
	services: Partial<Record<string, Settings>>,
	values: Values,
	send: SendStep<R>
): Promise<FlowRun<R>> {
	const plan = { service: 'sendMessage', settings: services.sendMessage ?? {}, values, filled: {} };
	const sent = await send(plan);
	const steps: FlowStep<R>[] = [];
	const smsIds: string[] = [];
	if (!sent.results.length) {
		const decision: Decision = {
			status: 'failed',
			text: notCalled('Send Message', sent.issues),
			shownToUser: null
		};
		steps.push(step<R>(plan, null, decision, 'sendPerRecipient'));
		return { ok: false, steps, result: { smsIds } };
	}
	const recipients = Array.isArray(values.sms_to)
		? values.sms_to.filter((v): v is string => typeof v === 'string')
		: [typeof values.sms_to === 'string' ? values.sms_to : ''];
	sent.results.forEach((answer, i) => {
		const recipient = recipients[i] ?? '';
		const decided = decideSend(recipient, answer.outcome);
		if (decided.smsId !== null) smsIds.push(decided.smsId);
		const row = decided.decision.status === 'ok' ? 'sendPerRecipient' : 'sendFailed';
		steps.push(
			step({ ...plan, filled: { sms_to: recipient } }, answer.record, decided.decision, row)
		);
	});
	return { ok: steps.every((s) => s.decision.status === 'ok'), steps, result: { smsIds } };
}
