import { FLOW_ROWS, type ContractRow, type FlowRowId } from '../catalogue/flows';
import type { Issue } from '../issues';
import type { Settings, Values } from '../request';
import type { Interpretation } from '../response';

/**
 * The shapes of a flow: the platform's calls in order, each planned from the profile's settings
 * and the values known so far, sent by whoever runs the flow (the server, through the same path
 * as a test call), and decided by a row of the contract.
 */

/** One call the platform makes: a service, its settings, and the values it fills them with. */
export interface StepPlan {
	service: string;
	settings: Settings;
	values: Values;
	/** The values this flow put in (the number, the PIN, the verifier's keys…), by placeholder. */
	filled: Record<string, string>;
}

/** How one request of a step ended. */
export type StepOutcome =
	| { kind: 'answered'; status: number; body: string; interpretation: Interpretation }
	/** Never sent: the request cannot be sent as configured (a plain http: URL where https is required…). */
	| { kind: 'refused'; code: string; message: string }
	/** Sent, but no answer: unreachable, refused by the policy, timed out. */
	| { kind: 'failed'; code: string; message: string };

/** What sending a plan gives: one result per request (none when the service is not called). */
export interface Sent<R> {
	results: { outcome: StepOutcome; record: R }[];
	/** The build's issues (why nothing was sent when there is no result). */
	issues: Issue[];
}

/** Sends the request(s) of a plan. */
export type SendStep<R> = (plan: StepPlan) => Promise<Sent<R>>;

/** What the platform does after a step. */
export interface Decision {
	/** `ok`: as the contract wants; `ignored`: the answer is silently ignored; `failed`; `skipped`. */
	status: 'ok' | 'ignored' | 'failed' | 'skipped';
	/** In the platform's terms: what happened and what the user sees. */
	text: string;
	/** The text the user is shown, or null. */
	shownToUser: string | null;
}

/** One step of a run: the call (its record from the sender, or null when none was made). */
export interface FlowStep<R> {
	service: string;
	record: R | null;
	filled: Record<string, string>;
	decision: Decision;
	contractRow: ContractRow;
}

/** A finished run: whether the journey went as the contract wants, every step, what it gave. */
export interface FlowRun<R> {
	ok: boolean;
	steps: FlowStep<R>[];
	result: Record<string, unknown>;
}

/** A step record. */
export function step<R>(
	plan: Pick<StepPlan, 'service' | 'filled'>,
	record: R | null,
	decision: Decision,
	row: FlowRowId
): FlowStep<R> {
	return {
		service: plan.service,
		record,
		filled: plan.filled,
		decision,
		contractRow: FLOW_ROWS[row]
	};
}

/** The sentence naming how a request ended without an answer. */
export function noAnswer(outcome: Exclude<StepOutcome, { kind: 'answered' }>): string {
	// The sentence around it ends itself: a message's own full stop would double it.
	const why = outcome.message.replace(/\.$/, '');
	return outcome.kind === 'refused'
		? `the request was not sent (${why})`
		: `no answer came (${why})`;
}

/** A string value of a scenario ('' when absent or not text). */
export function text(values: Values, key: string): string {
	const value = Object.hasOwn(values, key) ? values[key] : undefined;
	return typeof value === 'string' ? value : '';
}

/** Why nothing was sent for a plan: the build's url_missing issue, or a general sentence. */
export function notCalled(title: string, issues: readonly Issue[]): string {
	const issue = issues.find((i) => i.code === 'url_missing' || i.code === 'no_recipients');
	return issue ? issue.message : `${title} is not called.`;
}
