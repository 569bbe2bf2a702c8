import type { PushVerb } from './reference';

/**
 * One realistic, valid push request per verb, with the value shapes the platform's docs show
 * (reverse-domain app id, base64 token, `<sha1>:<suffix>` selector). They carry no warnings for
 * any target, so editors can start from them and tests can break one attribute at a time.
 */
export const PUSH_SAMPLES: Readonly<Record<PushVerb, Readonly<Record<string, unknown>>>> = {
	NotifyTextMessage: {
		verb: 'NotifyTextMessage',
		AppId: 'com.provider.app.ios',
		DeviceToken: 'Udl99X2JFP1bWwS5gR/wGeLE1hmAB2CMpr1Ej0wxkrY=',
		Selector: '12869E0E6E553673C54F29105A0647204C416A2A:7C3A0D14',
		Message: 'See you at eight?',
		Badge: 3,
		Sound: 'default',
		UserDisplayName: 'Alice',
		ContentType: 'text/plain',
		Id: 'msg-0001',
		ThreadId: '+15551230000'
	},
	NotifyGenericTextMessage: {
		verb: 'NotifyGenericTextMessage',
		AppId: 'com.provider.app.ios',
		DeviceToken: 'Udl99X2JFP1bWwS5gR/wGeLE1hmAB2CMpr1Ej0wxkrY=',
		Message: 'Calls to Europe are free this weekend.',
		Sound: 's2.caf'
	},
	NotifyReprovision: {
		verb: 'NotifyReprovision',
		AppId: 'com.provider.app.ios',
		DeviceToken: 'Udl99X2JFP1bWwS5gR/wGeLE1hmAB2CMpr1Ej0wxkrY=',
		Selector: '12869E0E6E553673C54F29105A0647204C416A2A:7C3A0D14'
	}
};

/**
 * The sample of `verb` with some attributes replaced; a change to `undefined` removes the
 * attribute. Returns a fresh object each time.
 */
export function samplePush(
	verb: PushVerb,
	changes: Readonly<Record<string, unknown>> = {}
): Record<string, unknown> {
	const object: Record<string, unknown> = { ...PUSH_SAMPLES[verb], ...changes };
	for (const [key, value] of Object.entries(changes)) if (value === undefined) delete object[key];
	return object;
}
