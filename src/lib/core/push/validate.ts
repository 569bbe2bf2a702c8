import {
	checkBadge,
	checkMessage,
	checkOptionalString,
	checkRecommended,
	checkRequiredString,
	checkSelector,
	checkSound,
	checkUnusedAndUnknown,
	checkVerb,
	isPushObject,
	issue
} from './checks';
import {
	PushRequestSchema,
	PushTargetSchema,
	type PushIssue,
	type PushRequest,
	type PushTarget,
	type PushValidation,
	type ValidatePushOptions
} from './schema';
import { describeValue } from './words';

/**
 * The push request checker: every rule of the contract's request-object table, reported as
 * issues, never as exceptions.
 */

const OPTIONAL_STRINGS = ['UserName', 'UserDisplayName', 'ContentType', 'Id', 'ThreadId'];

function check(value: unknown, target: PushTarget): PushValidation {
	if (!isPushObject(value)) {
		const message = `A push request must be a JSON object with attributes such as verb, AppId and DeviceToken, but this is ${describeValue(value)}.`;
		return { ok: false, issues: [issue('not_an_object', 'error', undefined, message)] };
	}
	const issues: PushIssue[] = [];
	const verb = checkVerb(value, issues);
	checkRequiredString(value, 'AppId', 'Every push needs the application id.', issues);
	checkRequiredString(
		value,
		'DeviceToken',
		'Every push needs the token the app reported (pushToken) to find the device.',
		issues
	);
	checkSelector(value, verb, issues);
	checkMessage(value, verb, issues);
	checkBadge(value, verb, target, issues);
	checkSound(value, verb, issues);
	for (const name of OPTIONAL_STRINGS) checkOptionalString(value, name, issues);
	checkRecommended(value, verb, target, issues);
	checkUnusedAndUnknown(value, verb, issues);
	if (issues.some((i) => i.severity === 'error')) return { ok: false, issues };
	// The schema is the written-down contract; if the checks above ever miss a rule it still wins.
	const parsed = PushRequestSchema.safeParse(value);
	if (!parsed.success) {
		for (const z of parsed.error.issues) {
			const path = z.path.filter((p) => typeof p !== 'symbol');
			const where = path.length ? `The attribute ${path.join('.')}` : 'The push object';
			issues.push({
				code: 'invalid_value',
				severity: 'error',
				path,
				message: `${where}: ${z.message}.`
			});
		}
		return { ok: false, issues };
	}
	// Spread defines properties, so a `__proto__` attribute stays data; Object.assign would set
	// the prototype instead and lose it.
	return { ok: true, value: { ...value } as PushRequest, issues };
}

/**
 * Checks one push request object against the contract. Errors make `ok` false; warnings and
 * infos come with a valid value too. `options.target` (default `unknown`) decides the Badge
 * rule of mobile platform A 13+. The returned value is a shallow copy that keeps unknown
 * attributes, `__proto__` included, as plain data. Never throws: a value whose reading throws
 * gives an `unreadable_value` issue.
 */
export function validatePush(value: unknown, options: ValidatePushOptions = {}): PushValidation {
	try {
		const target = PushTargetSchema.safeParse(options?.target);
		return check(value, target.success ? target.data : 'unknown');
	} catch {
		return {
			ok: false,
			issues: [
				{
					code: 'unreadable_value',
					severity: 'error',
					path: [],
					message: 'The push request could not be read as JSON data.'
				}
			]
		};
	}
}
