import { findService, keyOf } from '../catalogue/services';
import type { Service } from '../catalogue/schema';
import { ruleIssue } from '../catalogue/sources';
import type { Issue } from '../issues';
import { fieldOf, firstCharacters, formatOf, messageOf, parseBody, sniffFormat } from './body';
import type { InterpretContext } from './interpret-context';
import { readPhoneNumbers, type PhoneNumbers } from './phone-numbers';
import { readProvisioningAccount, type ProvisioningAccount } from './provisioning';
import { readFetchAnswer, type FetchedMessages } from './fetched-messages';
import { readBalanceAnswer, type BalanceReading } from './balance';
import { readRateAnswer, type RateReading } from './rate';
import { readReporterAnswer, type ReporterId } from './reporters';
import { readProvisioningAnswer, type ProvisioningAnswerReading } from './provisioning-answer';
import { readContactsAnswer, type ContactsReading } from './contacts';
import { interpretGatewayResponse, type GatewayInterpretation } from '../push/interpret';
import { matchAnswerShape, type ShapeMatch } from './shapes';

/**
 * The response interpreter: status, headers and body become what the caller does, per the
 * contract's Errors table as the catalogue records it. It says whether the call succeeded, the
 * exact text a user is shown (or that nothing is shown), and what is kept from the body.
 */

/** A response as received. Header names are matched case-insensitively. */
export interface ResponseInput {
	status: number;
	headers: Record<string, string> | { name: string; value: string }[];
	body: string;
}

/** What the caller does with the response. */
export type CallerAction =
	| { kind: 'success' }
	| { kind: 'storeSmsId'; smsId: string }
	| { kind: 'showUser'; text: string; source: 'message' | 'bodyPrefix' }
	| { kind: 'showGenericError' }
	| { kind: 'silentlyIgnore' }
	| { kind: 'retryLater' }
	| { kind: 'phoneNumbers'; result: PhoneNumbers }
	| { kind: 'provisioningAccount'; result: ProvisioningAccount }
	| { kind: 'fetchedMessages'; result: FetchedMessages }
	| { kind: 'balance'; result: Omit<BalanceReading, 'issues'> }
	| { kind: 'rate'; result: Omit<RateReading, 'issues'> }
	| { kind: 'report'; delivered: boolean; duty: string | null }
	| { kind: 'provisioningAnswer'; result: Omit<ProvisioningAnswerReading, 'issues'> }
	| { kind: 'contacts'; result: Omit<ContactsReading, 'issues'> }
	| { kind: 'pushResults'; result: GatewayInterpretation }
	| { kind: 'wizardNext'; placeholders: Record<string, string> }
	| { kind: 'wizardStays' }
	| { kind: 'wizardMessageBox'; text: string; source: 'message' | 'bodyPrefix' };

/** The interpretation of one response. */
export interface Interpretation {
	success: boolean;
	/** The success rule that was applied, in words. */
	rule: string;
	action: CallerAction;
	/** One sentence: what the caller does. */
	summary: string;
	/** The exact text shown to the user, or null when nothing is shown. */
	shownToUser: string | null;
	issues: Issue[];
	/**
	 * Send Message only: which of the answer shapes seen in practice the answer matched (its
	 * issues say where the platform reads it otherwise than the provider means it).
	 */
	shape?: ShapeMatch;
}

/** Placeholder names a verifier key must match to be usable as `%key%`. */
const PLACEHOLDER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function header(input: ResponseInput, name: string): string | null {
	const wanted = name.toLowerCase();
	const list = Array.isArray(input.headers)
		? input.headers.map((h) => [h.name, h.value] as const)
		: Object.entries(input.headers);
	return list.find(([key]) => key.toLowerCase() === wanted)?.[1] ?? null;
}

function successRule(service: Service): string {
	const status = service.success.status;
	const base =
		status.kind === 'exact' ? `Only status ${status.status} is success` : '2xx is success';
	if (service.success.body === 'validOrAbsent') return `${base}, with a valid or absent body`;
	if (service.success.body === 'matchesContentType') {
		return `${base}, with a body that matches its Content-Type`;
	}
	return base;
}

function isSuccessStatus(service: Service, status: number): boolean {
	const rule = service.success.status;
	return rule.kind === 'exact' ? status === rule.status : status >= 200 && status < 300;
}

/** Does the body match its Content-Type (Push Token Reporter's rule)? */
function bodyMatchesType(body: string, contentType: string | null): string | null {
	const format = formatOf(contentType);
	if (format === 'json' || format === 'xml') {
		if (body.trim() === '')
			return `an empty body is not ${format.toUpperCase()} (send at least ${format === 'json' ? '{}' : 'a root element'})`;
		const parsed = parseBody(body, format);
		return parsed.ok ? null : `the body is not valid ${format.toUpperCase()}: ${parsed.reason}`;
	}
	return null;
}

function failureText(
	service: Service,
	input: ResponseInput
): { text: string; source: 'message' | 'bodyPrefix' } | null {
	const message = messageOf(input.body, header(input, 'content-type'));
	if (message !== undefined) return { text: message, source: 'message' };
	const limit = service.limits.shownBodyChars;
	return limit === null ? null : { text: firstCharacters(input.body, limit), source: 'bodyPrefix' };
}

function failure(
	service: Service,
	input: ResponseInput,
	rule: string,
	issues: Issue[]
): Interpretation {
	const base = { success: false, rule, issues };
	switch (service.failure) {
		case 'showMessageOrBodyPrefix':
		case 'wizardMessageBox': {
			const shown = failureText(service, input) ?? { text: '', source: 'bodyPrefix' as const };
			const where = service.failure === 'wizardMessageBox' ? 'in a message box' : '';
			const what =
				shown.source === 'message'
					? 'the message field'
					: `the first ${service.limits.shownBodyChars} characters of the body`;
			const action: CallerAction =
				service.failure === 'wizardMessageBox'
					? { kind: 'wizardMessageBox', ...shown }
					: { kind: 'showUser', ...shown };
			const stays =
				service.failure === 'wizardMessageBox'
					? 'The wizard stays on page 1 and shows'
					: 'The user is shown';
			return {
				...base,
				action,
				summary: `${stays} ${what}${where ? ` ${where}` : ''}: “${shown.text}”.`,
				shownToUser: shown.text
			};
		}
		case 'showMessageOrGeneric': {
			const message = messageOf(input.body, header(input, 'content-type'));
			if (message !== undefined) {
				return {
					...base,
					action: { kind: 'showUser', text: message, source: 'message' },
					summary: `The user is shown the message field: “${message}”.`,
					shownToUser: message
				};
			}
			return {
				...base,
				action: { kind: 'showGenericError' },
				summary:
					'The body has no message field, so the user is shown the app’s generic error message.',
				shownToUser: '(the app’s generic error message)'
			};
		}
		case 'ignoreAndRetry':
			return {
				...base,
				action: { kind: 'retryLater' },
				summary: 'Nothing is shown; the call counts as failed and is made again later.',
				shownToUser: null
			};
		case 'silentlyIgnore':
		case 'providerDecides': {
			const message = messageOf(input.body, header(input, 'content-type'));
			const debug =
				message !== undefined ? ` Its message (for debugging only) is “${message}”.` : '';
			return {
				...base,
				action: { kind: 'silentlyIgnore' },
				summary: `The response is silently ignored; nothing is shown.${debug}`,
				shownToUser: null
			};
		}
	}
}

const NOT_ACCOUNT = 'The body is not an account document, so the answer is silently ignored.';
const NOT_PARSED = 'The body cannot be parsed, so the response is silently ignored.';
const NOT_FETCHED = 'The body is not a Fetch Messages answer, so the app shows no new messages.';

/** A body read into an action, or, when it could not be read, silently ignored (`unread` says why). */
function read(
	base: Pick<Interpretation, 'rule' | 'issues' | 'shownToUser'>,
	action: CallerAction | null,
	result: { summary: string } | null,
	unread: string
): Interpretation {
	if (action === null || result === null) {
		return { ...base, success: false, action: { kind: 'silentlyIgnore' }, summary: unread };
	}
	return { ...base, success: true, action, summary: result.summary };
}

/** A reader's issue as every interpretation's issue: its place is already in its message. */
function plainIssue({ code, severity, message }: Issue): Issue {
	return { code, severity, message };
}

/** A texts answer (balance, rate): success when the app shows something, the reading says what. */
function shownTexts(
	base: Pick<Interpretation, 'rule' | 'issues'>,
	action: Extract<CallerAction, { kind: 'balance' | 'rate' }>,
	shown: string | null
): Interpretation {
	return {
		...base,
		success: shown !== null,
		action,
		summary: action.result.verdict,
		shownToUser: shown
	};
}

/**
 * A reporter's answer, either status: the app reads only the status and shows nothing, so the
 * reading says whether the report counts as delivered and what the provider should do with it.
 */
function reported(
	service: Service,
	input: ResponseInput,
	context: InterpretContext,
	{ rule, issues }: Pick<Interpretation, 'rule' | 'issues'>
): Interpretation {
	// Named by its keys' prefix (accountRemovalReporterUrl): a copy of the entry reads the same.
	const reporter = (keyOf(service, 'url') ?? '').replace(/Url$/, '');
	const reading = readReporterAnswer(reporter as ReporterId, input, context.push ?? {});
	issues.push(...reading.issues.map(plainIssue));
	return {
		success: reading.success,
		rule,
		issues,
		action: { kind: 'report', delivered: reading.success, duty: reading.duty },
		summary: reading.verdict,
		shownToUser: null
	};
}

function success(
	service: Service,
	input: ResponseInput,
	rule: string,
	context: InterpretContext,
	issues: Issue[]
): Interpretation {
	const contentType = header(input, 'content-type');
	const base = { success: true, rule, issues, shownToUser: null };
	switch (service.responseBody) {
		case 'smsId': {
			const format = sniffFormat(input.body, contentType);
			const smsId =
				format && input.body.trim() !== ''
					? fieldOf(parseBody(input.body, format), 'sms_id')
					: undefined;
			if (smsId !== undefined && smsId !== '') {
				return {
					...base,
					action: { kind: 'storeSmsId', smsId },
					summary: `The message counts as sent; the app stores sms_id “${smsId}” to detect duplicates in Fetch Messages.`
				};
			}
			issues.push({
				code: 'no_sms_id',
				severity: 'info',
				message:
					'The body has no sms_id: sent messages cannot be matched to fetched ones when they are synchronised.'
			});
			return {
				...base,
				action: { kind: 'success' },
				summary: 'The message counts as sent (no sms_id to store).'
			};
		}
		case 'provisioningAccount': {
			const result = readProvisioningAccount(input.body, issues);
			return read(base, result && { kind: 'provisioningAccount', result }, result, NOT_ACCOUNT);
		}
		case 'phoneNumbers': {
			const result = readPhoneNumbers(input.body, contentType, context, issues);
			return read(base, result && { kind: 'phoneNumbers', result }, result, NOT_PARSED);
		}
		case 'keyValueMap':
			return verifierSuccess(service, input.body, contentType, rule, issues);
		case 'fetchedMessages': {
			const result = readFetchAnswer(service, input.body, contentType, issues);
			return read(base, result && { kind: 'fetchedMessages', result }, result, NOT_FETCHED);
		}
		case 'balance': {
			const { issues: found, ...result } = readBalanceAnswer(input);
			issues.push(...found.map(plainIssue));
			return shownTexts(base, { kind: 'balance', result }, result.shown);
		}
		case 'rate': {
			const smart = (context.smartUri ?? '') !== '';
			const { issues: found, ...result } = readRateAnswer(input, { smart });
			issues.push(...found.map(plainIssue));
			const shown = result.shown.map((r) => `${r.label}: ${r.value}`).join('\n');
			return shownTexts(base, { kind: 'rate', result }, shown || null);
		}
		case 'provisioningAnswer':
			return provisioningAnswer(rule, input, issues);
		case 'notParsed':
		case 'pushResults':
		case 'report':
		case 'contacts': // read by contactsAnswer, before any status rule
			return {
				...base,
				action: { kind: 'success' },
				summary: `${service.title} succeeded; the body is not read.`
			};
	}
}

/** Initial provisioning: its reader judges every status, as the app reads the answer at sign-in. */
function provisioningAnswer(rule: string, input: ResponseInput, issues: Issue[]): Interpretation {
	const { issues: found, ...result } = readProvisioningAnswer(input);
	issues.push(...found.map(plainIssue));
	return {
		success: result.outcome === 'merged',
		rule,
		issues,
		action: { kind: 'provisioningAnswer', result },
		summary: result.verdict,
		shownToUser: result.shownToUser
	};
}

function verifierSuccess(
	service: Service,
	body: string,
	contentType: string | null,
	rule: string,
	issues: Issue[]
): Interpretation {
	const stays = (reason: string): Interpretation => {
		issues.push(
			ruleIssue(service, 'responseBody', {
				code: 'verifier_body_invalid',
				severity: 'error',
				message: `A 2xx body must be absent or a valid map of strings: ${reason}`
			})
		);
		return {
			success: false,
			rule,
			issues,
			action: { kind: 'wizardStays' },
			summary: `The body is not valid (${reason}), so the wizard does not move to page 2; the contract does not say what the user sees.`,
			shownToUser: null
		};
	};
	const placeholders: Record<string, string> = Object.create(null);
	if (body.trim() !== '') {
		const format = formatOf(contentType);
		if (format !== 'json' && format !== 'xml' && format !== 'form') {
			return stays(`the Content-Type ${contentType ?? '(none)'} is not JSON, XML or form data`);
		}
		const parsed = parseBody(body, format);
		if (!parsed.ok) return stays(parsed.reason);
		if (parsed.format === 'json') {
			const value = parsed.value;
			if (value === null || typeof value !== 'object' || Array.isArray(value))
				return stays('the JSON is not an object');
			for (const [key, v] of Object.entries(value)) {
				if (typeof v !== 'string') return stays(`the value of "${key}" is not a string`);
				placeholders[key] = v;
			}
		} else if (parsed.format === 'xml') {
			for (const child of parsed.root.children) placeholders[child.name] = child.text;
		} else {
			for (const [key, v] of parsed.pairs) placeholders[key] = v;
		}
	}
	const keys = Object.keys(placeholders);
	for (const key of keys.filter((k) => !PLACEHOLDER_NAME.test(k))) {
		issues.push({
			code: 'verifier_key_unusable',
			severity: 'warning',
			message: `The key "${key}" cannot be written as a %placeholder% (letters, digits and _ only, not starting with a digit).`
		});
	}
	const list = keys.map((k) => `%${k}%`).join(', ');
	return {
		success: true,
		rule,
		issues,
		action: { kind: 'wizardNext', placeholders: { ...placeholders } },
		summary: keys.length
			? `The wizard moves to page 2 (PIN entry); ${list} can be used in the external provisioning call.`
			: 'The wizard moves to page 2 (PIN entry).',
		shownToUser: null
	};
}

/** Interprets a response to a service of the catalogue (by id or entry). */
export function interpretResponse(
	serviceOrId: Service | string,
	input: ResponseInput,
	context: InterpretContext = {}
): Interpretation {
	const service = typeof serviceOrId === 'string' ? findService(serviceOrId) : serviceOrId;
	if (!service) throw new Error(`No service "${String(serviceOrId)}" in the catalogue`);
	const rule = successRule(service);
	const issues: Issue[] = [];
	if (service.kind === 'gateway') {
		const endpoint = service.endpoint?.path.endsWith('multisend') ? 'multisend' : 'send';
		const result = interpretGatewayResponse(endpoint, input.status, input.body);
		return {
			success: result.summary.verdict === 'accepted',
			rule,
			action: { kind: 'pushResults', result },
			summary: result.summary.text,
			shownToUser: null,
			issues
		};
	}
	// The contacts reader judges every status: 304 is not 2xx, yet it is the app's best answer.
	if (service.responseBody === 'contacts') return contactsAnswer(input, rule, issues);
	const shape =
		service.responseBody === 'smsId'
			? matchAnswerShape(input.status, header(input, 'content-type'), input.body, issues)
			: undefined;
	const result = judge(service, input, rule, context, issues);
	return shape ? { ...result, shape } : result;
}

/** A contacts answer: success when the app has a current list (replaced, unchanged or XML). */
function contactsAnswer(input: ResponseInput, rule: string, issues: Issue[]): Interpretation {
	const { issues: found, ...result } = readContactsAnswer(input);
	issues.push(...found.map(plainIssue));
	return {
		success: result.outcome !== 'kept',
		rule: `${rule}; 304 Not Modified keeps the list the app has`,
		action: { kind: 'contacts', result },
		summary: result.verdict,
		shownToUser: null,
		issues
	};
}

function judge(
	service: Service,
	input: ResponseInput,
	rule: string,
	context: InterpretContext,
	issues: Issue[]
): Interpretation {
	if (service.responseBody === 'report') return reported(service, input, context, { rule, issues });
	if (service.responseBody === 'provisioningAnswer') return provisioningAnswer(rule, input, issues);
	if (!isSuccessStatus(service, input.status)) {
		if (service.success.status.kind === 'exact' && input.status >= 200 && input.status < 300) {
			issues.push({
				code: 'status_not_exact',
				severity: 'warning',
				message: `${service.title} succeeds only with ${service.success.status.status}; ${input.status} is ignored like any other failure.`
			});
		}
		return failure(service, input, rule, issues);
	}
	if (service.success.body === 'matchesContentType') {
		const mismatch = bodyMatchesType(input.body, header(input, 'content-type'));
		if (mismatch) {
			issues.push(
				ruleIssue(service, 'success', {
					code: 'body_type_mismatch',
					severity: 'error',
					message: `The status is 2xx but ${mismatch}.`
				})
			);
			return failure(service, input, rule, issues);
		}
	}
	return success(service, input, rule, context, issues);
}
