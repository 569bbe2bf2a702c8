import {
	headerOf,
	htmlPage,
	INFERRED,
	isSuccessStatus,
	quoted,
	ruleIssue,
	type AnswerInput,
	type ReaderIssue,
	type RuleSource
} from './answer';

/**
 * The answers of the reporters the app calls (Push Token Reporter, Push Notification Reporter,
 * Account Removal Reporter): the app reads only the status, so what matters is what the provider
 * does with the call. Push Token Reporter's body rule (it must match its Content-Type) is the
 * contract's and is checked by the response interpreter.
 */

/** A reporter the app calls. */
export type ReporterId =
	'pushTokenReporter' | 'pushNotificationReporter' | 'accountRemovalReporter';

/** What a reporter's answer means. */
export interface ReporterReading {
	/** Whether the app counts the report as delivered. */
	success: boolean;
	/** Where the success rule comes from. */
	rule: RuleSource;
	/** One or two sentences: the outcome, and what the provider should do with the call. */
	verdict: string;
	/** What the provider should do with a delivered report; null when it was not delivered. */
	duty: string | null;
	issues: ReaderIssue[];
}

const CONTRACT: RuleSource = { kind: 'contract', ref: 'Endpoints: Push Token Reporter' };
const SUCCESS_INFERRED: RuleSource = {
	kind: 'inference',
	ref: 'the answer is not documented: 2xx is read as success, as for every service'
};

/** The success rule of each reporter, and where its purpose is documented. */
const REPORTERS: Record<ReporterId, { rule: RuleSource; purpose: RuleSource }> = {
	pushTokenReporter: { rule: CONTRACT, purpose: CONTRACT },
	pushNotificationReporter: {
		rule: SUCCESS_INFERRED,
		purpose: { kind: 'docs', ref: 'api/client/push_notification_reporter' }
	},
	accountRemovalReporter: {
		rule: SUCCESS_INFERRED,
		purpose: { kind: 'docs', ref: 'api/client/account_removal_reporter' }
	}
};

/** A body the app does not read, yet downloads, over this size is noted. */
const BODY_LIMIT = 64 * 1024;

/** What the provider should do with a delivered report; `push` holds the received push's keys. */
function duty(reporter: ReporterId, push: Record<string, string>): string {
	switch (reporter) {
		case 'pushTokenReporter':
			return 'The provider should now store pushToken and pushTokenIncomingCall with their application ids under the selector, replacing the ones it had, and pass the selector as Selector in account-specific pushes.';
		case 'accountRemovalReporter':
			return 'The provider should now delete the push tokens it stored for this selector: the account was signed out or removed, so no push may go to it.';
		case 'pushNotificationReporter': {
			const id = Object.hasOwn(push, 'pushId') ? push.pushId : '';
			if (id !== '') return `The provider should now count push test ${quoted(id)} as delivered.`;
			const type =
				Object.hasOwn(push, 'type') && push.type !== '' ? ` (type ${quoted(push.type, 40)})` : '';
			return `The provider should now count the delivery of this push${type} in its statistics.`;
		}
	}
}

/** Reads a reporter's answer; `push` is the received push a Push Notification Reporter reports. */
export function readReporterAnswer(
	reporter: ReporterId,
	input: AnswerInput,
	push: Record<string, string> = {}
): ReporterReading {
	const { rule } = REPORTERS[reporter];
	const issues: ReaderIssue[] = [];
	if (!isSuccessStatus(input.status)) {
		const message = `HTTP ${input.status} is not a success: the report counts as not delivered. Whether and when the app reports again is not documented.`;
		issues.push(ruleIssue(INFERRED, 'reporter_not_2xx', 'warning', message));
		return {
			success: false,
			rule,
			verdict: `HTTP ${input.status}: the report is not delivered, so the provider has nothing to do with it; the app shows nothing to the user.`,
			duty: null,
			issues
		};
	}
	const page = htmlPage(input.body, headerOf(input.headers, 'content-type'));
	if (page) {
		const named = page.title ? ` (“${page.title}”)` : '';
		const message = `The 2xx answer is an HTML page${named}: the app does not read the body and counts the report as delivered, but a proxy's login or error page often answers in place of the service. Check that the report reached it.`;
		issues.push(ruleIssue(INFERRED, 'reporter_html_answer', 'warning', message));
	} else if (input.body.length > BODY_LIMIT) {
		const size = input.body.length.toLocaleString('en');
		const message = `The body is ${size} characters long: the app does not read it, yet downloads it with every report. Answer with no body.`;
		issues.push(ruleIssue(INFERRED, 'reporter_body_large', 'info', message));
	}
	const todo = duty(reporter, push);
	return { success: true, rule, verdict: `The report is delivered. ${todo}`, duty: todo, issues };
}
