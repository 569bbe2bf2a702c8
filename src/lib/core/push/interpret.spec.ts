import { describe, expect, it } from 'vitest';
import {
	interpretGatewayResponse,
	readResponseObject,
	saysTokenUnregistered,
	type PushVerdict
} from './interpret';

function brief(p: PushVerdict): string {
	return `${p.accepted ? 'accepted' : 'not accepted'} ${p.status}${p.stopSendingToToken ? ' stop' : ''}`;
}

describe('interpretGatewayResponse', () => {
	it('reads an accepted single push and says it is not a delivery', () => {
		const read = interpretGatewayResponse('send', 200, '{"status":200,"response":"OK"}');
		expect(read.pushes.map(brief)).toEqual(['accepted 200']);
		expect(read.summary.verdict).toBe('accepted');
		expect(read.notes.join(' ')).toMatch(/not that the device received it/);
	});

	it('reads the integer from code when status is absent', () => {
		const read = interpretGatewayResponse('send', 200, '{"code":404,"response":"x"}');
		expect(read.pushes.map(brief)).toEqual(['not accepted 404']);
	});

	it('prefers status over code', () => {
		const read = interpretGatewayResponse('send', 200, '{"status":200,"code":404}');
		expect(read.pushes.map(brief)).toEqual(['accepted 200']);
	});

	it('stops sending to a token the text calls no longer registered', () => {
		const body = JSON.stringify([
			{ status: 200, response: 'ok' },
			{ code: 404, response: 'DeviceToken is no longer registered' },
			{ status: 404, response: 'Selector is missing' }
		]);
		const read = interpretGatewayResponse('multisend', 200, body);
		expect(read.pushes.map(brief)).toEqual([
			'accepted 200',
			'not accepted 404 stop',
			'not accepted 404'
		]);
		expect(read.summary).toMatchObject({
			verdict: 'partly_accepted',
			accepted: 1,
			notAccepted: 2,
			stopSendingTo: [1]
		});
		expect(read.summary.text).toContain('push 2');
	});

	it('says a non-2xx answer to send rejected the request as a whole', () => {
		const read = interpretGatewayResponse('send', 400, '{"status":400,"response":"bad"}');
		expect(read.summary.verdict).toBe('rejected');
		expect(read.pushes.map(brief)).toEqual(['not accepted 400']);
		expect(read.pushes[0].text).toBe('bad');
	});

	it('does not read the body of a non-2xx answer to multisend', () => {
		const read = interpretGatewayResponse('multisend', 400, '[{"status":200}]');
		expect(read.summary.verdict).toBe('rejected');
		expect(read.pushes).toEqual([]);
		expect(read.summary.text).toMatch(/no guaranteed content/);
	});

	it.each(['send', 'multisend'] as const)('calls 5xx on %s a problem inside the gateway', (e) => {
		const read = interpretGatewayResponse(e, 503, 'Service Unavailable');
		expect(read.summary.verdict).toBe('gateway_error');
		expect(read.summary.text).toMatch(/inside the gateway/);
	});

	it('calls a 2xx answer without JSON unreadable', () => {
		expect(interpretGatewayResponse('send', 200, '<html>').summary.verdict).toBe('unreadable');
		expect(interpretGatewayResponse('multisend', 200, '').summary.verdict).toBe('unreadable');
		expect(interpretGatewayResponse('send', 200, '{"response":"x"}').summary.verdict).toBe(
			'unreadable'
		);
	});

	it('reads one object on multisend as a list of one, with a note', () => {
		const read = interpretGatewayResponse('multisend', 200, '{"status":200,"response":"ok"}');
		expect(read.pushes.map(brief)).toEqual(['accepted 200']);
		expect(read.notes.join(' ')).toMatch(/instead of a list/);
	});

	it('calls an empty list empty', () => {
		expect(interpretGatewayResponse('multisend', 200, '[]').summary.verdict).toBe('empty');
	});
});

describe('readResponseObject', () => {
	it.each([
		[{ status: 500, response: 'x' }, 'not accepted 500'],
		[{ status: '200', response: 'x' }, 'accepted 200'],
		[{ status: 2.5 }, 'not accepted null'],
		[{ status: 201 }, 'not accepted 201'],
		[null, 'not accepted null'],
		[[200], 'not accepted null']
	])('reads %j as %s', (value, expected) => {
		expect(brief(readResponseObject(value))).toBe(expected);
	});
});

describe('saysTokenUnregistered', () => {
	it.each([
		['The DeviceToken is no longer registered at the upstream push service.', true],
		['Unregistered', true],
		['BadDeviceToken', true],
		['device token not registered', true],
		['The application id "com.token.app" is not registered at the push service.', false],
		['Selector is missing', false],
		['', false]
	])('%j → %s', (text, expected) => {
		expect(saysTokenUnregistered(text)).toBe(expected);
	});
});
