import {
	PUSH_ATTRIBUTE_NAMES,
	PUSH_SOUNDS,
	PushVerbSchema,
	findPushAttribute,
	pushVerbInfo,
	type PushVerb
} from './reference';
import type { PushIssue, PushIssueCode, PushSeverity, PushTarget } from './schema';
import { describeValue, orList, quote, sameIgnoringCase } from './words';

/**
 * The rules of the contract's request-object table, one function per attribute. Each appends
 * issues in words a provider's admin understands; `validatePush` runs them in table order.
 */

/** A push object's attributes. */
export type Attributes = Record<string, unknown>;

/** The attributes whose absence means the gateway sends nothing at all. */
export const CORE_ATTRIBUTES: readonly string[] = ['verb', 'AppId', 'DeviceToken'];

const VERBS = PushVerbSchema.options;
const SOUND_NAMES = PUSH_SOUNDS.map((s) => s.value);
const SELECTOR_SHAPE = /^[0-9A-Fa-f]{40}:\S+$/;
const IDENTIFIERS = ['AppId', 'DeviceToken', 'Selector'];

/** One issue; `field` (the attribute) also becomes the one-element `path`. */
export function issue(
	code: PushIssueCode,
	severity: PushSeverity,
	field: string | undefined,
	message: string
): PushIssue {
	return field === undefined
		? { code, severity, path: [], message }
		: { code, severity, path: [field], message, field };
}

/** Whether a value is a JSON object (not null, not a list). */
export function isPushObject(value: unknown): value is Attributes {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own attribute's value, or undefined when absent. */
export function get(object: Attributes, name: string): unknown {
	// Only own properties count: an inherited `AppId` (a polluted prototype) is not in the push.
	return Object.hasOwn(object, name) ? object[name] : undefined;
}

/** A required string attribute: present, a string, not blank; identifiers without edge spaces. */
export function checkRequiredString(
	object: Attributes,
	name: string,
	why: string,
	out: PushIssue[]
) {
	const value = get(object, name);
	if (value === undefined) {
		out.push(issue('missing_attribute', 'error', name, `The attribute ${name} is missing. ${why}`));
	} else if (typeof value !== 'string') {
		out.push(
			issue(
				'invalid_type',
				'error',
				name,
				`The attribute ${name} must be a string, but it is ${describeValue(value)}.`
			)
		);
	} else if (!/\S/.test(value)) {
		out.push(issue('empty_attribute', 'error', name, `The attribute ${name} is empty. ${why}`));
	} else if (value.trim() !== value && IDENTIFIERS.includes(name)) {
		out.push(
			issue(
				'surrounding_whitespace',
				'warning',
				name,
				`The attribute ${name} starts or ends with spaces or a line break. An identifier copied with extra white space usually matches nothing, so check how it was copied.`
			)
		);
	}
}

/** `verb`: required and one of the three verbs; returns the verb when it is one. */
export function checkVerb(object: Attributes, out: PushIssue[]): PushVerb | undefined {
	const value = get(object, 'verb');
	const why = `Set it to ${orList(VERBS)}.`;
	checkRequiredString(object, 'verb', why, out);
	if (typeof value !== 'string' || !/\S/.test(value)) return undefined;
	const parsed = PushVerbSchema.safeParse(value);
	if (parsed.success) return parsed.data;
	const near = sameIgnoringCase(value.trim(), VERBS);
	const hint = near ? ` Verbs are case-sensitive: did you mean ${near}?` : '';
	out.push(
		issue(
			'unknown_verb',
			'error',
			'verb',
			`The attribute verb is ${quote(value)}, which is not a verb of the push gateway. ${why}${hint}`
		)
	);
	return undefined;
}

/** An optional string attribute: absent, or a string (`null` is not absent). */
export function checkOptionalString(object: Attributes, name: string, out: PushIssue[]) {
	const value = get(object, name);
	if (value !== undefined && typeof value !== 'string') {
		const nullHint = value === null ? ' To leave it out, omit the attribute.' : '';
		out.push(
			issue(
				'invalid_type',
				'error',
				name,
				`The attribute ${name} must be a string, but it is ${describeValue(value)}.${nullHint}`
			)
		);
	}
}

/** `Selector`: required unless the verb is NotifyGenericTextMessage; hints at an odd shape. */
export function checkSelector(object: Attributes, verb: PushVerb | undefined, out: PushIssue[]) {
	if (verb !== undefined && pushVerbInfo(verb).needsSelector) {
		checkRequiredString(
			object,
			'Selector',
			`${verb} needs the selector the app reported through the Push Token Reporter, which tells which account processes the push.`,
			out
		);
	} else {
		checkOptionalString(object, 'Selector', out);
	}
	const value = get(object, 'Selector');
	if (typeof value === 'string' && /\S/.test(value) && !SELECTOR_SHAPE.test(value.trim())) {
		out.push(
			issue(
				'unusual_selector',
				'info',
				'Selector',
				'The attribute Selector does not look like the selector the app reports (40 hexadecimal digits, a colon and a suffix). Check that it is the selector value from the Push Token Reporter.'
			)
		);
	}
}

/** `Message`: the text of NotifyGenericTextMessage (required there), the preview elsewhere. */
export function checkMessage(object: Attributes, verb: PushVerb | undefined, out: PushIssue[]) {
	if (verb === 'NotifyGenericTextMessage') {
		checkRequiredString(
			object,
			'Message',
			'NotifyGenericTextMessage shows Message to the user and does nothing else, so without it there is nothing to show.',
			out
		);
	} else {
		checkOptionalString(object, 'Message', out);
	}
}

/** `Badge`: an integer of 0 or more; required for NotifyTextMessage on platform A 13+. */
export function checkBadge(
	object: Attributes,
	verb: PushVerb | undefined,
	target: PushTarget,
	out: PushIssue[]
) {
	const value = get(object, 'Badge');
	if (value === undefined) {
		if (verb !== 'NotifyTextMessage') return;
		if (target === 'platformA13') {
			out.push(
				issue(
					'badge_required',
					'error',
					'Badge',
					'The attribute Badge is missing. On mobile platform A version 13 or later, NotifyTextMessage must carry Badge, the total number of unread messages shown on the app icon.'
				)
			);
		} else if (target === 'unknown') {
			out.push(
				issue(
					'badge_recommended',
					'warning',
					'Badge',
					'The attribute Badge is missing. If the device runs mobile platform A version 13 or later, NotifyTextMessage must carry Badge (the total number of unread messages), so add it unless you know the device.'
				)
			);
		}
		return;
	}
	if (typeof value !== 'number') {
		out.push(
			issue(
				'invalid_type',
				'error',
				'Badge',
				`The attribute Badge must be an integer (a JSON number without quotes), but it is ${describeValue(value)}.`
			)
		);
	} else if (!Number.isSafeInteger(value) || value < 0) {
		out.push(
			issue(
				'invalid_value',
				'error',
				'Badge',
				`The attribute Badge must be a whole number of 0 or more (the count of unread messages), but it is ${String(value)}.`
			)
		);
	}
}

/** `Sound`: a string; unknown names and sounds on NotifyReprovision are warnings. */
export function checkSound(object: Attributes, verb: PushVerb | undefined, out: PushIssue[]) {
	const value = get(object, 'Sound');
	checkOptionalString(object, 'Sound', out);
	if (typeof value !== 'string') return;
	if (verb === 'NotifyReprovision') {
		out.push(
			issue(
				'sound_ignored',
				'warning',
				'Sound',
				'The attribute Sound has no effect on NotifyReprovision, which shows no notification. Sound is only valid for NotifyTextMessage and NotifyGenericTextMessage.'
			)
		);
		return;
	}
	if (SOUND_NAMES.includes(value)) return;
	const withSuffix = `${value}.caf`.toLowerCase();
	const near =
		sameIgnoringCase(value, SOUND_NAMES) ?? SOUND_NAMES.find((n) => n.toLowerCase() === withSuffix);
	const hint = near ? ` Did you mean ${near}?` : '';
	out.push(
		issue(
			'unknown_sound',
			'warning',
			'Sound',
			`The attribute Sound is ${quote(value)}, which is not a documented sound (default, empty for silent, or s1.caf to s6.caf). It only plays if the app bundles a sound of that name.${hint}`
		)
	);
}

/** NotifyTextMessage: `Id` recommended; on platform A 13+ what a shown notification needs. */
export function checkRecommended(
	object: Attributes,
	verb: PushVerb | undefined,
	target: PushTarget,
	out: PushIssue[]
) {
	if (verb !== 'NotifyTextMessage') return;
	const id = get(object, 'Id');
	if (id === undefined || id === '') {
		out.push(
			issue(
				'id_recommended',
				'warning',
				'Id',
				'The attribute Id (the message id) is missing. The app uses it to match the push with the message it fetches (sms_id); without it the user can be notified twice, once when the push arrives and once after the background fetch.'
			)
		);
	}
	if (target !== 'platformA13') return;
	const wanted: [string[], string][] = [
		[['Sound'], 'Sound (omitted means a silent notification)'],
		[['UserName', 'UserDisplayName'], 'the sender name (UserName or UserDisplayName)'],
		[['Message'], 'the preview text (Message)'],
		[['ContentType'], 'the content type (ContentType)']
	];
	for (const [names, label] of wanted) {
		if (names.some((n) => get(object, n) !== undefined)) continue;
		out.push(
			issue(
				'attribute_recommended',
				'warning',
				names[0],
				`On mobile platform A version 13 or later the push may not wake the app, so NotifyTextMessage should carry ${label}; the user sees this notification as it is sent.`
			)
		);
	}
}

/** Attributes the contract does not name (warning) or does not use for this verb (info). */
export function checkUnusedAndUnknown(
	object: Attributes,
	verb: PushVerb | undefined,
	out: PushIssue[]
) {
	for (const name of Object.keys(object)) {
		const attribute = findPushAttribute(name);
		if (!attribute) {
			const near = sameIgnoringCase(name, PUSH_ATTRIBUTE_NAMES);
			const hint = near ? ` Attribute names are case-sensitive: did you mean ${near}?` : '';
			out.push(
				issue(
					'unknown_attribute',
					'warning',
					name,
					`The attribute ${quote(name)} is not defined for push requests. It is kept and sent as it is, but the gateway probably ignores it.${hint}`
				)
			);
		} else if (verb && name !== 'Sound' && !attribute.usedBy.includes(verb)) {
			out.push(
				issue(
					'attribute_unused',
					'info',
					name,
					`The attribute ${name} has no documented effect on ${verb}; the contract describes it for ${orList(attribute.usedBy)}.`
				)
			);
		}
	}
}
