import { z } from '../zod';

/**
 * The push request object as zod schemas, one per verb, plus the issue shape the validator
 * reports. Objects are loose: attributes the contract does not name are kept, because the
 * gateway or a future app version may read them, and the validator reports them instead.
 */

/** A string with at least one character that is not white space. */
const filled = z.string().regex(/\S/, 'must not be empty');

/** `Badge`: a whole number of unread messages, 0 or more. */
export const BadgeSchema = z.number().int().min(0);

/** Attributes every verb may carry; the verb schemas tighten the ones they require. */
const COMMON = {
	AppId: filled,
	DeviceToken: filled,
	Selector: filled.optional(),
	Message: z.string().optional(),
	Badge: BadgeSchema.optional(),
	Sound: z.string().optional(),
	UserName: z.string().optional(),
	UserDisplayName: z.string().optional(),
	ContentType: z.string().optional(),
	Id: z.string().optional(),
	ThreadId: z.string().optional()
};

/** `NotifyTextMessage`: an incoming message; needs `Selector`. */
export const NotifyTextMessageSchema = z.looseObject({
	...COMMON,
	verb: z.literal('NotifyTextMessage'),
	Selector: filled
});
export type NotifyTextMessage = z.infer<typeof NotifyTextMessageSchema>;

/**
 * `NotifyGenericTextMessage`: shows `Message` and nothing else. `Message` is required here (the
 * contract only says the verb "shows Message") because a push with no text shows nothing.
 * `Selector` is optional and, as it is not needed, may even be empty.
 */
export const NotifyGenericTextMessageSchema = z.looseObject({
	...COMMON,
	verb: z.literal('NotifyGenericTextMessage'),
	Selector: z.string().optional(),
	Message: filled
});
export type NotifyGenericTextMessage = z.infer<typeof NotifyGenericTextMessageSchema>;

/** `NotifyReprovision`: the app reloads its configuration; needs `Selector`. */
export const NotifyReprovisionSchema = z.looseObject({
	...COMMON,
	verb: z.literal('NotifyReprovision'),
	Selector: filled
});
export type NotifyReprovision = z.infer<typeof NotifyReprovisionSchema>;

/**
 * One push request object, discriminated by `verb`. The Badge rule for mobile platform A 13+
 * depends on the target device, which the object does not carry: `validatePush` checks it.
 */
export const PushRequestSchema = z.discriminatedUnion('verb', [
	NotifyTextMessageSchema,
	NotifyGenericTextMessageSchema,
	NotifyReprovisionSchema
]);
export type PushRequest = z.infer<typeof PushRequestSchema>;

/**
 * The device a push goes to, as far as the contract's rules care: `platformA13` is "mobile
 * platform A, version 13 or later" (Badge required for NotifyTextMessage), `unknown` when the
 * provider cannot tell.
 */
export const PushTargetSchema = z
	.enum(['platformA13', 'platformAOlder', 'platformB', 'unknown'])
	.meta({
		description:
			'A device’s platform: `platformA13` (mobile platform A 13 or later: Badge required for NotifyTextMessage), `platformAOlder`, `platformB`, or `unknown`.'
	});
export type PushTarget = z.infer<typeof PushTargetSchema>;

/** Options of `validatePush`. `target` defaults to `unknown`. */
export const ValidatePushOptionsSchema = z.object({ target: PushTargetSchema.optional() });
export type ValidatePushOptions = z.infer<typeof ValidatePushOptionsSchema>;

/** The codes of push issues, snake_case like zod's. */
export const PushIssueCodeSchema = z.enum([
	/** The push is not a JSON object. */
	'not_an_object',
	/** Reading the value threw (a getter or proxy, never JSON). */
	'unreadable_value',
	/** A required attribute is absent. */
	'missing_attribute',
	/** A required string attribute is empty or white space. */
	'empty_attribute',
	/** An attribute has the wrong JSON type. */
	'invalid_type',
	/** An attribute has the right type but a value out of range. */
	'invalid_value',
	/** `verb` is not one of the three verbs. */
	'unknown_verb',
	/** `Badge` is missing on NotifyTextMessage for mobile platform A 13+. */
	'badge_required',
	/** `Badge` is missing on NotifyTextMessage and the target is unknown. */
	'badge_recommended',
	/** What the contract says platform A 13+ needs for a visible notification is missing. */
	'attribute_recommended',
	/** `Id` is missing on NotifyTextMessage: the user may be notified twice. */
	'id_recommended',
	/** `Sound` is not a documented sound name. */
	'unknown_sound',
	/** `Sound` on a verb that shows no notification. */
	'sound_ignored',
	/** A known attribute the contract does not describe for this verb. */
	'attribute_unused',
	/** An attribute the contract does not name (names are case-sensitive). */
	'unknown_attribute',
	/** An identifier starts or ends with white space, which rarely is intended. */
	'surrounding_whitespace',
	/** `Selector` does not look like the `<sha1>:<suffix>` the app reports. */
	'unusual_selector'
]);
export type PushIssueCode = z.infer<typeof PushIssueCodeSchema>;

/** How bad a problem is: errors stop the push, warnings deserve a look, infos explain. */
export const PushSeveritySchema = z.enum(['error', 'warning', 'info']);
export type PushSeverity = z.infer<typeof PushSeveritySchema>;

/**
 * One problem of a push object. `path` points at it: `['Badge']` inside one object, `[2, 'AppId']`
 * for element 2 of a multisend list. Structurally an `Issue` of `$lib/core/issues` (with `field`
 * the attribute name), so the shared printers can show it.
 */
export const PushIssueSchema = z.object({
	code: PushIssueCodeSchema,
	severity: PushSeveritySchema,
	path: z.array(z.union([z.string(), z.number()])),
	message: z.string(),
	field: z.string().optional()
});
export type PushIssue = z.infer<typeof PushIssueSchema>;

/** The result of `validatePush`, the shape of zod's `safeParse` plus the non-blocking issues. */
export type PushValidation =
	{ ok: true; value: PushRequest; issues: PushIssue[] } | { ok: false; issues: PushIssue[] };
