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
 * App start: the app reports its push token and selector (Push Token Reporter; a failed report
 * counts as failed and is made again), then the provider sends a NotifyTextMessage (or, asked
 * with `push`, a NotifyReprovision) to the reported token and selector through the push gateway
 * (a sandbox), whose device view shows what the device does.
 */

/** The pushes the provider may send after app start (`push` of the values), the first by default. */
export const APP_START_PUSHES = ['NotifyTextMessage', 'NotifyReprovision'] as const;
export type AppStartPush = (typeof APP_START_PUSHES)[number];

/** The push a run's values ask for, or null when `push` names none of {@link APP_START_PUSHES}. */
export function appStartPushOf(values: Values): AppStartPush | null {
	const asked = text(values, 'push').trim();
	if (asked === '') return 'NotifyTextMessage';
	return APP_START_PUSHES.find((verb) => verb === asked) ?? null;
}

/** How a push went, as the sender of the push reads the gateway's answer. */
export interface PushSent<R> {
	record: R;
	accepted: boolean;
	/** The gateway's verdict in words (or why no answer came). */
	text: string;
}

/** Sends a push body to the gateway. */
export type SendPush<R> = (body: Record<string, unknown>) => Promise<PushSent<R>>;

/** The reporter's plan: the values as the app fills them on this start. */
export function reporterPlan(settings: Settings, values: Values): StepPlan {
	const filled = Object.fromEntries(
		['selector', 'pushToken', 'pushappid', 'pushTokenOther']
			.filter((name) => text(values, name) !== '')
			.map((name) => [name, text(values, name)])
	);
	return { service: 'pushTokenReporter', settings, values, filled };
}

/** What the app does with the reporter's answer. */
export function decideReporter(outcome: StepOutcome, retry: boolean): Decision {
	const again = retry ? 'The report is not made again in this run.' : 'The app makes it again.';
	if (outcome.kind !== 'answered') {
		return {
			status: 'failed',
			text: `The push token report failed: ${noAnswer(outcome)}. ${again}`,
			shownToUser: null
		};
	}
	if (outcome.interpretation.success) {
		return {
			status: 'ok',
			text: `Answered ${outcome.status}: the provider has the token and the selector for pushes to this account.`,
			shownToUser: null
		};
	}
	return {
		status: 'ignored',
		text: `Answered ${outcome.status}: silently ignored, but the report counts as failed and is retried later. ${again}`,
		shownToUser: null
	};
}

/** The NotifyTextMessage the provider sends to the reported token and selector. */
export function incomingMessagePush(values: Values): Record<string, unknown> {
	const message = text(values, 'message') || 'New message';
	return {
		verb: 'NotifyTextMessage',
		AppId: text(values, 'pushappid'),
		DeviceToken: text(values, 'pushToken'),
		Selector: text(values, 'selector'),
		Message: message,
		Badge: 1,
		Sound: 'default',
		UserName: text(values, 'sender') || 'Provisioning Studio',
		Id: `flow-${text(values, 'selector').slice(0, 8) || 'message'}`
	};
}

/** The NotifyReprovision the provider sends to the reported token and selector. */
export function reprovisionPush(values: Values): Record<string, unknown> {
	return {
		verb: 'NotifyReprovision',
		AppId: text(values, 'pushappid'),
		DeviceToken: text(values, 'pushToken'),
		Selector: text(values, 'selector')
	};
}

/** Runs app start: the report (made again once when it fails), then the push. */
export async function runAppStart<R>(
	services: Partial<Record<string, Settings>>,
	values: Values,
	send: SendStep<R>,
	push: SendPush<R>
): Promise<FlowRun<R>> {
	const steps: FlowStep<R>[] = [];
	const settings = services.pushTokenReporter ?? {};
	// Platform A 13+ may report first with a null pushTokenOther, then again with the value.
	const later = text(values, 'pushTokenOther');
	const twice = text(values, 'platform') === 'platformA13' && later !== '';
	const reports = twice ? [{ ...values, pushTokenOther: '' }, values] : [values];
	let reported = false;
	for (const [index, report] of reports.entries()) {
		const plan = reporterPlan(settings, report);
		const first = twice && index === 0;
		reported = false;
		for (const retry of [false, true]) {
			const sent = await send(plan);
			const answer = sent.results[0];
			if (!answer) {
				const decision: Decision = {
					status: 'failed',
					text: `${notCalled('Push Token Reporter', sent.issues)} The provider never learns the token.`,
					shownToUser: null
				};
				steps.push(step<R>(plan, null, decision, 'pushTokenReported'));
				return { ok: false, steps, result: {} };
			}
			const decision = decideReporter(answer.outcome, retry);
			if (first && decision.status === 'ok') {
				decision.text +=
					' This first report carries a null pushTokenOther; the app reports again with the value.';
			}
			const row =
				decision.status !== 'ok'
					? 'pushTokenRetried'
					: first
						? 'pushTokenLater'
						: 'pushTokenReported';
			steps.push(step(plan, answer.record, decision, row));
			if (decision.status === 'ok') {
				reported = true;
				break;
			}
		}
	}
	if (!reported) return { ok: false, steps, result: {} };
	const verb = appStartPushOf(values) ?? 'NotifyTextMessage';
	const body = verb === 'NotifyReprovision' ? reprovisionPush(values) : incomingMessagePush(values);
	const pushed = await push(body);
	const then =
		verb === 'NotifyReprovision'
			? ' The device reloads its configuration from the portal and from the external provisioning URL; no notification is shown.'
			: '';
	const decision: Decision = {
		status: pushed.accepted ? 'ok' : 'failed',
		text: pushed.accepted
			? `The gateway accepted the ${verb} for the reported token and selector: ${pushed.text}${then}`
			: `The ${verb} was not accepted: ${pushed.text}`,
		shownToUser: null
	};
	steps.push(
		step(
			{
				service: 'pushSend',
				filled: { DeviceToken: text(values, 'pushToken'), Selector: text(values, 'selector') }
			},
			pushed.record,
			decision,
			verb === 'NotifyReprovision' ? 'reprovisionPush' : 'incomingMessagePush'
		)
	);
	return { ok: pushed.accepted, steps, result: { push: body } };
}
