import { describe, expect, it } from 'vitest';
import { PUSH_GATEWAY_OUTCOMES, PushOutcomeSchema, pushGatewayOutcome } from './outcomes';
import {
	PUSH_ATTRIBUTES,
	PUSH_ENDPOINTS,
	PUSH_SOUNDS,
	PUSH_VERBS,
	PushAttributeSchema,
	PushEndpointInfoSchema,
	PushVerbInfoSchema,
	findPushAttribute,
	pushEndpointUrl,
	pushVerbInfo
} from './reference';

describe('push reference data', () => {
	it('lists the three verbs in contract order, each valid and with a purpose', () => {
		expect(PUSH_VERBS.map((v) => PushVerbInfoSchema.parse(v).verb)).toEqual([
			'NotifyTextMessage',
			'NotifyGenericTextMessage',
			'NotifyReprovision'
		]);
		expect(pushVerbInfo('NotifyGenericTextMessage').needsSelector).toBe(false);
	});

	it('has the eleven rows of the request-object table', () => {
		expect(PUSH_ATTRIBUTES.map((a) => PushAttributeSchema.parse(a).title)).toEqual([
			'verb',
			'AppId',
			'DeviceToken',
			'Selector',
			'Message',
			'Badge',
			'Sound',
			'UserName or UserDisplayName',
			'ContentType',
			'Id',
			'ThreadId'
		]);
	});

	it('finds attributes by their exact name only', () => {
		expect(findPushAttribute('UserDisplayName')?.id).toBe('UserName');
		expect(findPushAttribute('appid')).toBeUndefined();
	});

	it('labels every documented sound', () => {
		expect(PUSH_SOUNDS.map((s) => `${s.value}=${s.label}`)).toEqual([
			'default=Default sound',
			'=Silent (empty or omitted)',
			's1.caf=Tri tone',
			's2.caf=Chime',
			's3.caf=Glass',
			's4.caf=Horn',
			's5.caf=Bell',
			's6.caf=Electronic'
		]);
	});

	it('describes both endpoints as JSON POSTs below {push_url}', () => {
		for (const info of Object.values(PUSH_ENDPOINTS)) PushEndpointInfoSchema.parse(info);
		expect(pushEndpointUrl('https://pnm.example.com/', 'send')).toBe(
			'https://pnm.example.com/pnm2/send'
		);
		expect(pushEndpointUrl('https://pnm.example.com', 'multisend')).toBe(
			'https://pnm.example.com/pnm2/multisend'
		);
		expect(PUSH_ENDPOINTS.multisend.id).toBe('pushMultisend');
	});

	it('has one outcome per row of the Errors table, with unique ids', () => {
		const ids = PUSH_GATEWAY_OUTCOMES.map((o) => PushOutcomeSchema.parse(o).id);
		expect(new Set(ids).size).toBe(9);
		expect(pushGatewayOutcome('token_unregistered').result).toContain('no more pushes');
	});
});
