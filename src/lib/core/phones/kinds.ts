import { FILE_TRANSFER, fileTransferProblem } from '../response/fetched-checks';

/**
 * The kinds of message Send Message carries (the contract's Outgoing message): a text, a media
 * message or a disposition notification, told by `content_type`, and the delivery and display
 * notifications a message asks for. A page offers them and the journey refuses anything else.
 */

/** Characters a journey takes in each account field and in a message's body. */
export const JOURNEY_LIMITS = { username: 200, password: 1000, displayName: 200, body: 10_000 };

/** A kind of message: its content type as a page offers it (the vendor part is an example). */
export interface MessageKind {
	id: 'text' | 'media' | 'disposition';
	label: string;
	contentType: string;
}

export const MESSAGE_KINDS: readonly MessageKind[] = [
	{ id: 'text', label: 'Text', contentType: 'text/plain' },
	{ id: 'media', label: 'Media', contentType: 'application/x-acro-filetransfer+json' },
	{
		id: 'disposition',
		label: 'Disposition notification',
		contentType: 'application/x-acro-disposition-notification'
	}
];

const DISPOSITION_TYPE = /^application\/x-[a-z0-9-]+-disposition-notification$/i;

/** The notification kinds the contract names in `<identifier>:<comma-separated kinds>`. */
export const DISPOSITION_KINDS = ['positive-delivery', 'display'] as const;

/** An IMDN identifier: no colon (it ends the identifier), no space, no control character. */
const IDENTIFIER = /^[^\s:\p{Cc}]{1,128}$/u;

/** The kind a content type is, or null when the contract has no such kind. */
export function kindOf(contentType: string): MessageKind['id'] | null {
	if (contentType === 'text/plain') return 'text';
	if (FILE_TRANSFER.test(contentType)) return 'media';
	if (DISPOSITION_TYPE.test(contentType)) return 'disposition';
	return null;
}

/** A media message's body: the file-transfer JSON with one attachment, for a page to start from. */
export const MEDIA_EXAMPLE = JSON.stringify({
	body: 'A photo',
	attachments: [
		{
			'content-type': 'image/jpeg',
			'content-url': 'https://media.example.com/f/7f3a9c21.jpg',
			'content-size': 48213,
			filename: 'photo.jpg'
		}
	]
});

/**
 * Why a message cannot be sent as given, by the field at fault; null when it can. A null
 * disposition notification is one the sender makes up (a new identifier asking for both kinds).
 */
export function messageProblem(message: {
	body: string;
	contentType: string;
	dispositionNotification: string | null;
}): { field: 'content_type' | 'sms_body' | 'disposition_notification'; message: string } | null {
	const kind = kindOf(message.contentType);
	if (kind === null) {
		return {
			field: 'content_type',
			message: `content_type is text/plain, application/x-<vendor>-filetransfer+json (a media message) or application/x-<vendor>-disposition-notification; “${message.contentType.slice(0, 80)}” is none of them.`
		};
	}
	const media = kind === 'media' ? fileTransferProblem(message.body) : null;
	if (media) {
		return {
			field: 'sms_body',
			message: `A media message's body is the file-transfer JSON: ${media} (an object with attachments, each with a content-url).`
		};
	}
	const dn = message.dispositionNotification;
	if (dn === null) return null;
	if (dn === '') {
		return kind === 'disposition'
			? {
					field: 'disposition_notification',
					message:
						'A disposition notification message needs a disposition_notification (<identifier>:<kinds>): it carries the delivery or display notification.'
				}
			: null;
	}
	const at = dn.indexOf(':');
	const kinds = at === -1 ? [] : dn.slice(at + 1).split(',');
	if (at === -1 || !IDENTIFIER.test(dn.slice(0, at)) || kinds.includes('')) {
		return {
			field: 'disposition_notification',
			message: `disposition_notification is <identifier>:<kinds>, as in “Msg-7f3a9c21:positive-delivery,display” (an identifier of at most 128 characters without spaces or colons, then ${DISPOSITION_KINDS.join(' or ')}, comma-separated); or empty for none.`
		};
	}
	const unknown = kinds.find((k) => !(DISPOSITION_KINDS as readonly string[]).includes(k));
	if (unknown !== undefined) {
		return {
			field: 'disposition_notification',
			message: `“${unknown.slice(0, 40)}” is not a kind of disposition notification: the kinds are ${DISPOSITION_KINDS.join(' and ')}.`
		};
	}
	if (new Set(kinds).size !== kinds.length) {
		return {
			field: 'disposition_notification',
			message: 'disposition_notification names a kind twice.'
		};
	}
	return null;
}
