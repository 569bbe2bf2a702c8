import { describe, expect, it } from 'vitest';
import { deviceCredentials, legacyCredentials, provisioningRoute } from './sso';

const URL = 'https://prov.example.com/sso?u=%username%';
const RE = 'https://prov.example.com/re';
const INITIAL = 'https://prov.example.com/initial';

describe('provisioningRoute (External Authentication flows 2 and 3)', () => {
	it.each([
		[
			'extSSOProvUrl first',
			{ extSSOProvUrl: URL, reprovisioningUrl: RE, initialProvisioningUrl: INITIAL },
			'extSSOProvUrl'
		],
		[
			'else the reprovisioning URL',
			{ reprovisioningUrl: RE, initialProvisioningUrl: INITIAL },
			'reprovisioningUrl'
		],
		[
			'else the initial provisioning URL',
			{ extSSOProvUrl: '  ', initialProvisioningUrl: INITIAL },
			'initialProvisioningUrl'
		],
		['none when nothing is set', {}, null]
	])('%s', (_, settings, key) => {
		const route = provisioningRoute(settings);
		expect(route.skipped).toBe(false);
		expect(route.chosen?.key ?? null).toBe(key);
		expect(route.candidates.map((c) => c.key)).toEqual([
			'extSSOProvUrl',
			'reprovisioningUrl',
			'initialProvisioningUrl'
		]);
	});

	it('calls nothing when externalProvisioningOnSSODisabled is 1', () => {
		const route = provisioningRoute({ extSSOProvUrl: URL, externalProvisioningOnSSODisabled: '1' });
		expect(route.skipped).toBe(true);
		expect(route.flagKey).toBe('externalProvisioningOnSSODisabled');
		expect(route.chosen).toBeNull();
	});
});

describe('legacyCredentials (External Authentication flow 4)', () => {
	const device = { username: 'alice.cloud', password: 'cloud-secret' };

	it('takes the account document tags when present', () => {
		expect(legacyCredentials({ username: '1001', password: 'sip-pass' }, device)).toEqual([
			{ placeholder: 'username', value: '1001', source: 'account.xml' },
			{ placeholder: 'password', value: 'sip-pass', source: 'account.xml' }
		]);
	});

	it('falls back to the device credentials tag by tag', () => {
		expect(legacyCredentials({ username: '1001', password: '' }, device)).toEqual([
			{ placeholder: 'username', value: '1001', source: 'account.xml' },
			{ placeholder: 'password', value: 'cloud-secret', source: 'device' }
		]);
		expect(legacyCredentials(null, device).map((c) => c.source)).toEqual(['device', 'device']);
	});
});

describe('deviceCredentials', () => {
	it('reads the cloud user name and password of the scenario, text only', () => {
		expect(
			deviceCredentials({
				'account[cloud_username]': 'alice@example.com',
				'account[cloud_password]': []
			})
		).toEqual({ username: 'alice@example.com', password: '' });
	});
});
