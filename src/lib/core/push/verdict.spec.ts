import { describe, expect, it } from 'vitest';
import { gatewayRespond, type GatewayOptions, type GatewayReply } from './gateway';
import { PUSH_ANSWER_VERDICTS, PUSH_GATEWAY_OUTCOMES, type PushOutcomeId } from './outcomes';
import type { PushEndpoint } from './reference';
import { samplePush } from './samples';
import { pushHttpRequest } from './http-request';
import { judgePushAnswer, type JudgeOptions, type PushAnswerVerdicts } from './verdict';

/**
 * Every row of the contract's Errors table, answered by the core gateway, then judged: the
 * verdict a provider's code acts on for each element.
 */

const covered = new Set<PushOutcomeId>();

function exchange(
	endpoint: PushEndpoint,
	sent: unknown,
	options: GatewayOptions & JudgeOptions = {},
	request: { method?: string; contentType?: string | null; body?: string } = {}
): { reply: GatewayReply; judged: PushAnswerVerdicts } {
	const body = request.body ?? JSON.stringify(sent);
	const reply = gatewayRespond(
		{
			endpoint,
			method: request.method ?? 'POST',
			contentType: request.contentType === undefined ? 'application/json' : request.contentType,
			body
		},
		options
	);
	for (const t of reply.trace) covered.add(t.outcome);
	const judged = judgePushAnswer(
		endpoint,
		sent,
		reply.httpStatus,
		JSON.stringify(reply.body),
		options
	);
	return { reply, judged };
}

const TEXT = samplePush('NotifyTextMessage');

describe('judgePushAnswer, row by row of the Errors table', () => {
	it('accepted: status 200 is accepted upstream, not delivered', () => {
		const { judged } = exchange('send', TEXT);
		expect(judged.elements).toHaveLength(1);
		expect(judged.elements[0]).toMatchObject({ verdict: 'accepted', status: 200, fix: [] });
		expect(judged.elements[0].title).toBe('Accepted upstream, not delivered');
		expect(judged.elements[0].reason).toMatch(/not a delivery receipt/);
	});

	it('missing_core_attribute: names the missing attribute to fix', () => {
		const { judged } = exchange('send', samplePush('NotifyTextMessage', { AppId: undefined }));
		const [one] = judged.elements;
		expect(one).toMatchObject({ verdict: 'fix_request', status: 400 });
		expect(one.fix.map((f) => f.attribute)).toEqual(['AppId']);
		expect(one.fix[0].message).toMatch(/AppId is missing/);
		expect(one.reason).toBe('Fix AppId and send again.');
	});

	it('missing_data: Badge sent as a string is fix the request, naming Badge', () => {
		const { judged } = exchange('send', samplePush('NotifyTextMessage', { Badge: '3' }));
		const [one] = judged.elements;
		expect(one).toMatchObject({ verdict: 'fix_request', status: 404 });
		expect(one.fix).toEqual([
			{ attribute: 'Badge', message: expect.stringMatching(/must be an integer.*string "3"/) }
		]);
	});

	it('missing_data: a Badge missing on platform A 13+ is fix the request when that is the platform', () => {
		const target = 'platformA13' as const;
		const { judged } = exchange('send', samplePush('NotifyTextMessage', { Badge: undefined }), {
			target
		});
		expect(judged.elements[0].verdict).toBe('fix_request');
		expect(judged.elements[0].fix.map((f) => f.attribute)).toEqual(['Badge']);
	});

	it('missing_data: an application id not registered names AppId', () => {
		const { reply, judged } = exchange('send', TEXT, { lookupToken: () => 'unknown-app' });
		expect(reply.trace[0].outcome).toBe('missing_data');
		expect(judged.elements[0]).toMatchObject({ verdict: 'fix_request', status: 404 });
		expect(judged.elements[0].fix[0].attribute).toBe('AppId');
	});

	it('missing_data: an error answer of the upstream service is try again later', () => {
		const { reply, judged } = exchange('send', TEXT, { lookupToken: () => 'upstream-error' });
		expect(reply.trace[0].outcome).toBe('missing_data');
		expect(judged.elements[0]).toMatchObject({ verdict: 'retry_later', status: 500, fix: [] });
	});

	it('token_unregistered: stop sending to this token', () => {
		const { judged } = exchange('send', TEXT, { lookupToken: () => 'unregistered' });
		expect(judged.elements[0]).toMatchObject({ verdict: 'stop_sending', status: 404 });
		expect(judged.elements[0].title).toBe('Stop sending to this token');
	});

	it('bad_request: invalid JSON is fix the request for the whole request', () => {
		const { reply, judged } = exchange('send', undefined, {}, { body: '{"verb":' });
		expect(reply.httpStatus).toBe(400);
		expect(judged.elements).toHaveLength(1);
		expect(judged.elements[0]).toMatchObject({ verdict: 'fix_request', status: 400 });
		expect(judged.elements[0].reason).toMatch(/refused the request as a whole/);
	});

	it('bad_request: a wrong Content-Type is fix the request for every element of a multisend', () => {
		const sent = [TEXT, TEXT];
		const { judged } = exchange('multisend', sent, {}, { contentType: 'text/plain' });
		expect(judged.elements.map((e) => e.verdict)).toEqual(['fix_request', 'fix_request']);
	});

	it('gateway_problem: HTTP 500 is try again later', () => {
		const { reply, judged } = exchange('send', TEXT, {
			lookupToken: () => {
				throw new Error('down');
			}
		});
		expect(reply.httpStatus).toBe(500);
		expect(judged.elements[0]).toMatchObject({ verdict: 'retry_later', status: 500 });
	});

	it('multisend_non_object_element: that element is fix the request, the others their own', () => {
		const { judged } = exchange('multisend', [TEXT, null, samplePush('NotifyReprovision')]);
		expect(judged.elements.map((e) => e.verdict)).toEqual(['accepted', 'fix_request', 'accepted']);
		expect(judged.elements[1].fix[0].message).toMatch(/must be a JSON object.*null/);
		expect(judged.elements.map((e) => e.index)).toEqual([0, 1, 2]);
	});

	it('multisend_bare_null: HTTP 400 is fix the request', () => {
		const { reply, judged } = exchange('multisend', null);
		expect(reply.httpStatus).toBe(400);
		expect(judged.elements).toHaveLength(1);
		expect(judged.elements[0].verdict).toBe('fix_request');
	});

	it('multisend_list_with_null: one element, fix the request', () => {
		const { reply, judged } = exchange('multisend', [null]);
		// The gateway traces the element's row; the row of the list is its shape: a list of one.
		expect(reply.body).toEqual([expect.objectContaining({ status: 400 })]);
		covered.add('multisend_list_with_null');
		expect(judged.elements).toHaveLength(1);
		expect(judged.elements[0]).toMatchObject({ verdict: 'fix_request', status: 400 });
	});

	it('covers every row of the Errors table', () => {
		expect([...covered].sort()).toEqual(PUSH_GATEWAY_OUTCOMES.map((o) => o.id).sort());
	});
});

describe('judgePushAnswer, answers of other gateways', () => {
	it('reads code where status is absent and a one-token-gone text', () => {
		const body = JSON.stringify([
			{ code: 200, response: 'ok' },
			{ code: 404, response: 'Unregistered' }
		]);
		const judged = judgePushAnswer('multisend', [TEXT, TEXT], 200, body);
		expect(judged.elements.map((e) => e.verdict)).toEqual(['accepted', 'stop_sending']);
	});

	it('calls an element the answer has no object for unknown', () => {
		const body = JSON.stringify([{ status: 200, response: 'ok' }]);
		const judged = judgePushAnswer('multisend', [TEXT, TEXT], 200, body);
		expect(judged.elements.map((e) => e.verdict)).toEqual(['accepted', 'unknown']);
	});

	it('reads a 429 as try again later and a 2xx that is not JSON as unknown', () => {
		expect(judgePushAnswer('send', TEXT, 429, '').elements[0].verdict).toBe('retry_later');
		expect(judgePushAnswer('send', TEXT, 200, '<html>').elements[0].verdict).toBe('unknown');
	});

	it('keeps a 404 it cannot explain as fix the request, with no attribute named', () => {
		const body = JSON.stringify({ status: 404, response: 'Data missing' });
		const [one] = judgePushAnswer('send', TEXT, 200, body).elements;
		expect(one).toMatchObject({ verdict: 'fix_request', fix: [], text: 'Data missing' });
	});

	it('takes the platform of each device token when given', () => {
		const noBadge = samplePush('NotifyTextMessage', { Badge: undefined });
		const body = JSON.stringify([
			{ status: 404, response: 'Data missing' },
			{ status: 404, response: 'Data missing' }
		]);
		const sent = [noBadge, { ...noBadge, DeviceToken: 'old-phone' }];
		const judged = judgePushAnswer('multisend', sent, 200, body, {
			targetFor: (token) => (token === 'old-phone' ? 'platformAOlder' : 'platformA13')
		});
		expect(judged.elements.map((e) => e.fix.map((f) => f.attribute))).toEqual([['Badge'], []]);
	});

	it('has words for every verdict', () => {
		for (const words of Object.values(PUSH_ANSWER_VERDICTS)) {
			expect(words.title.length).toBeGreaterThan(3);
			expect(words.action.length).toBeGreaterThan(10);
		}
	});
});

describe('pushHttpRequest', () => {
	it('posts the JSON body to the endpoint below the gateway address', () => {
		expect(pushHttpRequest('https://gw.example/base/', 'multisend', [TEXT])).toEqual({
			method: 'POST',
			url: 'https://gw.example/base/pnm2/multisend',
			headers: [{ name: 'Content-Type', value: 'application/json' }],
			body: JSON.stringify([TEXT])
		});
		expect(pushHttpRequest('https://gw.example', 'send', null).body).toBe('null');
	});
});
