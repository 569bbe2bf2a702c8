import { describe, expect, it } from 'vitest';
import { interpretResponse } from './interpret';

describe('interpretResponse for the external provisioning call on SSO (extSSOProv)', () => {
	const xml = { 'Content-Type': 'application/xml' };

	it('takes %username% from the username tag and says a password tag is used', () => {
		const body = '<account><username>alice</username><password>s3cret</password></account>';
		const result = interpretResponse('extSSOProv', { status: 200, headers: xml, body });
		expect(result.success).toBe(true);
		expect(result.action).toEqual({
			kind: 'provisioningAccount',
			result: expect.objectContaining({ username: 'alice', hasPassword: true })
		});
		expect(result.summary).toContain('“alice”');
		expect(result.summary).not.toContain('s3cret');
		expect(result.shownToUser).toBeNull();
	});

	it('reads the account inside a provisioning document', () => {
		const body = '<provisioning><account><username>bob</username></account></provisioning>';
		const result = interpretResponse('extSSOProv', { status: 200, headers: xml, body });
		expect(result.action).toEqual({
			kind: 'provisioningAccount',
			result: expect.objectContaining({ username: 'bob', hasPassword: false })
		});
		expect(result.summary).toContain('%password% comes from the device credentials');
	});

	it('falls back to the device credentials for an empty answer', () => {
		const result = interpretResponse('extSSOProv', { status: 204, headers: {}, body: '' });
		expect(result.success).toBe(true);
		expect(result.summary).toContain('device credentials');
	});

	it('silently ignores an answer that is not an account document', () => {
		const body = '<response><phone-numbers/></response>';
		const result = interpretResponse('extSSOProv', { status: 200, headers: xml, body });
		expect(result.success).toBe(false);
		expect(result.action.kind).toBe('silentlyIgnore');
		expect(result.issues.map((i) => i.code)).toEqual(['xml_root_not_account']);
	});

	it('silently ignores a body that is not XML, and any non-2xx status', () => {
		const broken = interpretResponse('extSSOProv', {
			status: 200,
			headers: xml,
			body: '<account>'
		});
		expect(broken.action.kind).toBe('silentlyIgnore');
		expect(broken.issues[0].severity).toBe('warning');
		const failed = interpretResponse('extSSOProv', {
			status: 403,
			headers: xml,
			body: '<message>Denied</message>'
		});
		expect(failed.action.kind).toBe('silentlyIgnore');
		expect(failed.shownToUser).toBeNull();
		expect(failed.summary).toContain('Denied');
	});
});

describe('interpretResponse for the push gateway', () => {
	it('reads the status integer and response string of a single push', () => {
		const body = JSON.stringify({ status: 200, response: 'OK' });
		const result = interpretResponse('pushSend', { status: 200, headers: {}, body });
		expect(result.success).toBe(true);
		expect(result.action.kind).toBe('pushResults');
	});

	it('says to stop sending to a token the gateway reports unregistered', () => {
		const body = JSON.stringify([
			{ status: 200, response: 'OK' },
			{ code: 404, response: 'DeviceToken is no longer registered' }
		]);
		const result = interpretResponse('pushMultisend', { status: 200, headers: {}, body });
		expect(result.success).toBe(false);
		if (result.action.kind !== 'pushResults') throw new Error('expected push results');
		expect(result.action.result.pushes.map((p) => p.stopSendingToToken)).toEqual([false, true]);
	});
});
