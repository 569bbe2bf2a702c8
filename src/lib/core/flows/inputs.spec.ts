import { describe, expect, it } from 'vitest';
import { fieldProblem, fieldValue, flowFields } from './inputs';

describe('the fields a flow asks for', () => {
	it('registration asks for the number (checked as international) and the PIN (as a secret)', () => {
		const fields = flowFields('registration', {}, {});
		expect(fields.map((f) => [f.name, f.kind, f.required, f.check])).toEqual([
			['phoneNumber', 'text', true, 'phone'],
			['pin', 'secret', true, null]
		]);
	});

	it('adds the placeholders the templates use that neither the flow nor the profile gives', () => {
		const services = {
			extSSOProv: {
				extSSOProvUrl: 'https://provision.example/p',
				extSSOProvPostData: 'user=%account[cloud_username]%&host=%host%'
			}
		};
		const asked = flowFields('registration', services, {}).map((f) => [f.name, f.service]);
		expect(asked).toEqual([
			['phoneNumber', null],
			['pin', null],
			['host', 'extSSOProv']
		]);
		// A value the profile gives is not asked for again.
		const known = flowFields('registration', services, { host: 'sip.example' });
		expect(known.map((f) => f.name)).toEqual(['phoneNumber', 'pin']);
	});

	it('contacts asks for the interested parties as a list of parties', () => {
		const services = {
			smartContactNotification: {
				smartContactNotificationUrl: 'https://contacts.example/s',
				smartContactNotificationPostData: '{"p":%interestedParties%}',
				smartContactNotificationContentType: 'application/json'
			}
		};
		const fields = flowFields('contacts', services, {});
		expect(fields.find((f) => f.name === 'interestedParties')?.kind).toBe('parties');
	});

	it('send-message takes one recipient per line; app start has optional values', () => {
		expect(flowFields('send-message', {}, {}).find((f) => f.name === 'sms_to')?.kind).toBe('lines');
		const start = flowFields('app-start', {}, {});
		expect(start.filter((f) => f.required).map((f) => f.name)).toEqual([
			'selector',
			'pushToken',
			'pushappid'
		]);
		expect(start.find((f) => f.name === 'pushTokenOther')?.required).toBe(false);
		const push = start.find((f) => f.name === 'push')!;
		expect(push.choices).toEqual(['NotifyTextMessage', 'NotifyReprovision']);
		expect(fieldProblem(push, 'NotifyReprovision')).toBeNull();
		expect(fieldProblem(push, 'Reprovision')).toBe('One of NotifyTextMessage, NotifyReprovision.');
	});

	it("SSO offers the cloud id (networkId's default) without requiring it, unless a template uses it", () => {
		const sso = flowFields('sso', {}, {});
		expect(sso.find((f) => f.name === 'cloud_id')).toMatchObject({ required: false });
		const used = flowFields(
			'sso',
			{ externalAuth: { externalAuthUrl: 'https://a.example.com/?c=%cloud_id%' } },
			{}
		);
		expect(used.filter((f) => f.name === 'cloud_id')).toMatchObject([{ required: true }]);
	});
});

describe('checking and reading what is typed', () => {
	const [phone, pin] = flowFields('registration', {}, {});
	const recipients = flowFields('send-message', {}, {})[0];

	it('refuses an empty required value and a number without +, and says what is wanted', () => {
		expect(fieldProblem(pin, '  ')).toMatch(/Required/);
		expect(fieldProblem(phone, '4155550123')).toMatch(/international number/);
		expect(fieldProblem(phone, '+1 415 555-0123')).toBeNull();
		expect(fieldValue(phone, '+1 415 555-0123')).toBe('+14155550123');
	});

	it('keeps a secret exactly as typed, and reads one recipient per line', () => {
		expect(fieldValue(pin, ' 47 11 ')).toBe(' 47 11 ');
		expect(fieldValue(recipients, '+14155550123\n\n sip:bob@example.com \n')).toEqual([
			'+14155550123',
			'sip:bob@example.com'
		]);
	});

	it('accepts parties only as a JSON array of username/device objects', () => {
		const parties = {
			name: 'interestedParties',
			meaning: '',
			kind: 'parties' as const,
			required: true,
			service: null,
			check: null
		};
		expect(fieldProblem(parties, 'alice')).toMatch(/JSON array/);
		expect(fieldProblem(parties, '[{"username":"alice"}]')).toMatch(/JSON array/);
		expect(fieldProblem(parties, '[{"username":"alice","device":"phone"}]')).toBeNull();
		expect(fieldValue(parties, '[{"username":"alice","device":"phone"}]')).toEqual([
			{ username: 'alice', device: 'phone' }
		]);
	});
});
