import { z } from '../zod';
import { PUSH_ENDPOINT_NAMES, type PushEndpointInfo } from './endpoints';

export {
	PUSH_ENDPOINTS,
	pushEndpointUrl,
	type PushEndpoint,
	type PushEndpointInfo
} from './endpoints';

/**
 * The push gateway's vocabulary written as data: the verbs, the request-object attribute table,
 * the bundled sounds and the two endpoints. The validator, the gateway model and the UI all read
 * these tables, so a row changes in one place.
 */

/** The three push verbs of the contract. */
export const PushVerbSchema = z.enum([
	'NotifyTextMessage',
	'NotifyGenericTextMessage',
	'NotifyReprovision'
]);
export type PushVerb = z.infer<typeof PushVerbSchema>;

/** One verb with what it does, as the contract describes it. */
export const PushVerbInfoSchema = z.object({
	verb: PushVerbSchema,
	title: z.string(),
	purpose: z.string(),
	/** `Selector` must be present (every verb but `NotifyGenericTextMessage`). */
	needsSelector: z.boolean(),
	/** The user sees a notification (not for `NotifyReprovision`). */
	showsNotification: z.boolean()
});
export type PushVerbInfo = z.infer<typeof PushVerbInfoSchema>;

/** The verbs in contract order, each with its purpose text. */
export const PUSH_VERBS: readonly PushVerbInfo[] = [
	{
		verb: 'NotifyTextMessage',
		title: 'Incoming message',
		purpose:
			'Notifies about an incoming message. Needs Selector. On mobile platform A 13+ the notification may not wake the app, so it must carry Badge, Sound, the sender name, the preview and the content type; the platform may then deliver it to the app, which fetches in the background (Fetch Messages) and replaces the notification body with the real content. On older versions of that platform and on platform B the push arrives silently, the app runs the fetch in the background and then shows the notification.',
		needsSelector: true,
		showsNotification: true
	},
	{
		verb: 'NotifyGenericTextMessage',
		title: 'Generic text',
		purpose:
			'Shows Message as text to the user and does nothing else (marketing, reminders). Selector is not required.',
		needsSelector: false,
		showsNotification: true
	},
	{
		verb: 'NotifyReprovision',
		title: 'Reprovision',
		purpose:
			'The app immediately reloads its configuration from the portal and from the external provisioning URL. No user notification is shown. Needs Selector.',
		needsSelector: true,
		showsNotification: false
	}
];

/** The verb's row of `PUSH_VERBS`. */
export function pushVerbInfo(verb: PushVerb): PushVerbInfo {
	return PUSH_VERBS.find((v) => v.verb === verb) ?? PUSH_VERBS[0];
}

/** One row of the contract's "Push gateway request object" table. */
export const PushAttributeSchema = z.object({
	/** Stable id of the row: its first attribute name. */
	id: z.string(),
	/** The row's title as the contract writes it (`UserName or UserDisplayName`). */
	title: z.string(),
	/** The attribute names the row covers; names are case-sensitive. */
	names: z.array(z.string()).min(1),
	type: z.enum(['string', 'integer']),
	/** The contract's "Required" column, verbatim. */
	required: z.string(),
	/** Verbs for which the attribute must be present whatever the target device. */
	requiredFor: z.array(PushVerbSchema),
	/** Verbs the contract describes the attribute for; elsewhere it has no effect. */
	usedBy: z.array(PushVerbSchema),
	/** Missing it is allowed but deserves a warning. */
	recommended: z.boolean(),
	meaning: z.string()
});
export type PushAttribute = z.infer<typeof PushAttributeSchema>;

const ALL_VERBS = PushVerbSchema.options;
const TEXT: PushVerb[] = ['NotifyTextMessage'];
const SHOWN: PushVerb[] = ['NotifyTextMessage', 'NotifyGenericTextMessage'];

/** The request-object attribute table, one entry per row of the contract, in contract order. */
export const PUSH_ATTRIBUTES: readonly PushAttribute[] = [
	{
		id: 'verb',
		title: 'verb',
		names: ['verb'],
		type: 'string',
		required: 'yes',
		requiredFor: ALL_VERBS,
		usedBy: ALL_VERBS,
		recommended: false,
		meaning: 'One of NotifyTextMessage, NotifyGenericTextMessage, NotifyReprovision.'
	},
	{
		id: 'AppId',
		title: 'AppId',
		names: ['AppId'],
		type: 'string',
		required: 'yes',
		requiredFor: ALL_VERBS,
		usedBy: ALL_VERBS,
		recommended: false,
		meaning: 'Application id.'
	},
	{
		id: 'DeviceToken',
		title: 'DeviceToken',
		names: ['DeviceToken'],
		type: 'string',
		required: 'yes',
		requiredFor: ALL_VERBS,
		usedBy: ALL_VERBS,
		recommended: false,
		meaning: 'Identifies the target device.'
	},
	{
		id: 'Selector',
		title: 'Selector',
		names: ['Selector'],
		type: 'string',
		required: 'required except for NotifyGenericTextMessage',
		requiredFor: ['NotifyTextMessage', 'NotifyReprovision'],
		usedBy: ALL_VERBS,
		recommended: false,
		meaning: 'Identifies the account that processes the push.'
	},
	{
		id: 'Message',
		title: 'Message',
		names: ['Message'],
		type: 'string',
		required: 'used by NotifyGenericTextMessage (displayed text) and NotifyTextMessage (preview)',
		// A generic text push exists only to show Message, so without it there is nothing to show.
		requiredFor: ['NotifyGenericTextMessage'],
		usedBy: SHOWN,
		recommended: false,
		meaning: 'Text.'
	},
	{
		id: 'Badge',
		title: 'Badge',
		names: ['Badge'],
		type: 'integer',
		required: 'required for NotifyTextMessage on mobile platform A, version 13 or later',
		requiredFor: [],
		usedBy: TEXT,
		recommended: false,
		meaning: 'Total number of unread messages (application icon badge).'
	},
	{
		id: 'Sound',
		title: 'Sound',
		names: ['Sound'],
		type: 'string',
		required: 'no',
		requiredFor: [],
		usedBy: SHOWN,
		recommended: false,
		meaning:
			'default, empty or omitted (silent), or a bundled sound name. Valid for NotifyTextMessage and NotifyGenericTextMessage.'
	},
	{
		id: 'UserName',
		title: 'UserName or UserDisplayName',
		names: ['UserName', 'UserDisplayName'],
		type: 'string',
		required: 'no',
		requiredFor: [],
		usedBy: TEXT,
		recommended: false,
		meaning: 'Sender name (NotifyTextMessage).'
	},
	{
		id: 'ContentType',
		title: 'ContentType',
		names: ['ContentType'],
		type: 'string',
		required: 'no',
		requiredFor: [],
		usedBy: TEXT,
		recommended: false,
		meaning:
			'Content type of the message (NotifyTextMessage). Some content types give a silent notification that is not shown to the user but may be delivered to the app in the background to start a fetch.'
	},
	{
		id: 'Id',
		title: 'Id',
		names: ['Id'],
		type: 'string',
		required: 'no, but recommended',
		requiredFor: [],
		usedBy: TEXT,
		recommended: true,
		meaning:
			'Message id, later used as sms_id in the fetch response. When omitted, a double notification can result (one on push receipt, one on background fetch).'
	},
	{
		id: 'ThreadId',
		title: 'ThreadId',
		names: ['ThreadId'],
		type: 'string',
		required: 'no',
		requiredFor: [],
		// Grouping only matters where a notification is shown, which NotifyReprovision never does.
		usedBy: SHOWN,
		recommended: false,
		meaning: 'Thread (stream) identifier used to group notifications.'
	}
];

/** Every attribute name the contract defines (case-sensitive). */
export const PUSH_ATTRIBUTE_NAMES: readonly string[] = PUSH_ATTRIBUTES.flatMap((a) => a.names);

/** The attribute-table row that defines `name` (exact case), or undefined. */
export function findPushAttribute(name: string): PushAttribute | undefined {
	return PUSH_ATTRIBUTES.find((a) => a.names.includes(name));
}

/** One value of `Sound` with a label an admin reads. */
export const PushSoundSchema = z.object({ value: z.string(), label: z.string() });
export type PushSound = z.infer<typeof PushSoundSchema>;

/** The documented `Sound` values. An omitted `Sound` is silent, like the empty string. */
export const PUSH_SOUNDS: readonly PushSound[] = [
	{ value: 'default', label: 'Default sound' },
	{ value: '', label: 'Silent (empty or omitted)' },
	{ value: 's1.caf', label: 'Tri tone' },
	{ value: 's2.caf', label: 'Chime' },
	{ value: 's3.caf', label: 'Glass' },
	{ value: 's4.caf', label: 'Horn' },
	{ value: 's5.caf', label: 'Bell' },
	{ value: 's6.caf', label: 'Electronic' }
];

/** The two gateway endpoints, named by the last path segment. */
export const PushEndpointSchema = z.enum(PUSH_ENDPOINT_NAMES);

/** One endpoint of the push gateway (the table itself is in `./endpoints`, free of zod). */
export const PushEndpointInfoSchema = z.object({
	/** The catalogue's service id. */
	id: z.enum(['pushSend', 'pushMultisend']),
	endpoint: PushEndpointSchema,
	title: z.string(),
	method: z.literal('POST'),
	/** Path below `{push_url}`. */
	path: z.string(),
	contentType: z.literal('application/json'),
	/** What the body holds: one push object, or a list of them (one object is also accepted). */
	body: z.enum(['object', 'list']),
	purpose: z.string()
});
// The schema describes exactly the table's type: changing one without the other fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesTable: Same<z.infer<typeof PushEndpointInfoSchema>, PushEndpointInfo> = true;
void schemaMatchesTable;
