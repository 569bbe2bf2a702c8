import { PUSH_SOUNDS } from './reference';
import type { PushRequest, PushTarget } from './schema';

/**
 * How the target device presents an accepted push, as the contract's "Push gateway: single
 * push" section describes each verb per platform. The device view of a sandbox shows this.
 */

/** The names of the platforms, as a provider reads them. */
export const PUSH_TARGET_LABELS: Readonly<Record<PushTarget, string>> = {
	platformA13: 'Mobile platform A, version 13 or later',
	platformAOlder: 'Mobile platform A, before version 13',
	platformB: 'Mobile platform B',
	unknown: 'Platform not known'
};

/**
 * `notification`: shown to the user at once; `background-fetch`: a silent push that wakes the
 * app, which fetches the messages and then shows the notification; `text`: a plain text shown
 * to the user; `reprovision`: the app reloads its configuration and shows nothing.
 */
export type DeviceKind = 'notification' | 'background-fetch' | 'text' | 'reprovision';

/** A push as the device presents it. */
export interface DevicePresentation {
	kind: DeviceKind;
	/** One line saying what happens on the device. */
	headline: string;
	/** The sender name (NotifyTextMessage), when given. */
	sender?: string;
	/** The text shown: the preview (NotifyTextMessage) or the message (generic). */
	text?: string;
	badge?: number;
	/** The sound in words: "Chime (s2.caf)", "Silent", "Default sound". */
	sound?: string;
	/** The thread the notification is grouped in. */
	thread?: string;
	/** The message id the fetch answers with as `sms_id`. */
	messageId?: string;
	/** What else happens, in order. */
	notes: string[];
	/** What may go wrong on the device. */
	warnings: string[];
}

/** `Sound` in words. */
export function soundWords(sound: string | undefined): string {
	if (sound === undefined || sound === '') return 'Silent';
	const known = PUSH_SOUNDS.find((s) => s.value === sound);
	if (known) return sound === 'default' ? known.label : `${known.label} (${sound})`;
	return `"${sound}", not a bundled sound name`;
}

function sender(request: PushRequest): string | undefined {
	const name = request.UserDisplayName ?? request.UserName;
	return typeof name === 'string' && name !== '' ? name : undefined;
}

/** How the device with platform `target` presents the accepted push `request`. */
export function presentPush(request: PushRequest, target: PushTarget): DevicePresentation {
	switch (request.verb) {
		case 'NotifyReprovision':
			return {
				kind: 'reprovision',
				headline: 'Configuration reloaded',
				notes: [
					'The app reloads its configuration from the portal and from the external provisioning URL at once.',
					'No notification is shown.'
				],
				warnings: []
			};
		case 'NotifyGenericTextMessage':
			return {
				kind: 'text',
				headline: 'Text shown to the user',
				text: request.Message,
				sound: soundWords(request.Sound),
				notes: ['The app only shows the text; nothing is fetched.'],
				warnings: []
			};
		case 'NotifyTextMessage': {
			const id = typeof request.Id === 'string' && request.Id !== '' ? request.Id : undefined;
			const fetchNote = id
				? `The Fetch Messages answer carries the message with sms_id "${id}"; its content becomes the notification body.`
				: 'The Fetch Messages answer supplies the notification body.';
			const warnings = id
				? []
				: [
						'No Id: the device cannot match the push to the fetched message, so the user may be notified twice (once on the push, once after the fetch).'
					];
			const common = {
				sender: sender(request),
				text: request.Message,
				messageId: id,
				thread: request.ThreadId
			};
			if (target === 'platformAOlder' || target === 'platformB') {
				return {
					kind: 'background-fetch',
					headline: 'Silent push: the app fetches messages in the background',
					...common,
					notes: [
						'Nothing is shown when the push arrives.',
						'The app wakes and calls Fetch Messages in the background.',
						fetchNote,
						'Then the app shows the notification.'
					],
					warnings
				};
			}
			const notes = [
				'The notification is shown as it arrives, with the sender, preview, badge and sound of the push.',
				'The platform may then hand the push to the app, which calls Fetch Messages in the background and replaces the notification body with the real content.',
				fetchNote
			];
			if (target === 'unknown') {
				notes.push(
					'Shown as on mobile platform A 13+; on older versions and on platform B the push arrives silently and the notification follows the fetch.'
				);
			}
			return {
				kind: 'notification',
				headline: 'Notification',
				...common,
				badge: request.Badge,
				sound: soundWords(request.Sound),
				notes,
				warnings
			};
		}
	}
}
