import { afterEach, describe, expect, it } from 'vitest';
import { isSecretKey } from '../profile/secret-keys';
import { FIRST_SERVICES, findKnownService, knownServices, knowServices } from './known';
import { isXmlKey, xmlKeyNamed } from './placed';
import { SERVICES } from './services';
import { vocabularyOf } from './vocabulary';

// Tests here play the editor's first load: they put the whole catalogue back.
afterEach(() => knowServices(SERVICES));

describe('the services known so far', () => {
	it('are the whole catalogue once it is imported', () => {
		expect(knownServices()).toBe(SERVICES);
		expect(findKnownService('fetchMessages')?.title).toBe('Fetch Messages');
	});

	it('are the app’s under the contract in a first load, and every lookup follows what joins', () => {
		knowServices(FIRST_SERVICES);
		expect(findKnownService('externalAuth')).toBeUndefined();
		expect(xmlKeyNamed('genericSmsFetchUrl')).toBeUndefined();
		// The SSO server's password is a secret once its service is known.
		expect(isSecretKey('password')).toBe(false);

		knowServices(SERVICES);
		const fetchMessages = findKnownService('fetchMessages')!;
		expect(xmlKeyNamed('genericSmsFetchUrl')?.service).toBe(fetchMessages);
		expect(isXmlKey(fetchMessages, 'genericSmsFetchUrl')).toBe(true);
		expect(isSecretKey('password')).toBe(true);
	});

	it('name the service an unknown name belongs to once that service is known', () => {
		const sendMessage = findKnownService('sendMessage')!;
		const hint = () =>
			vocabularyOf(sendMessage).resolve('last_known_sms_id').issue?.().message ?? '';
		knowServices(FIRST_SERVICES);
		expect(hint()).not.toContain('Fetch Messages');
		knowServices(SERVICES);
		expect(hint()).toContain('It belongs to Fetch Messages.');
	});
});
