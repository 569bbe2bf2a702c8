import { describe, expect, it } from 'vitest';
import {
	gatewayRespond,
	isJsonContentType,
	type GatewayOptions,
	type GatewayReply,
	type GatewayRequest
} from './gateway';
import { interpretGatewayResponse } from './interpret';
import { PUSH_GATEWAY_OUTCOMES, type PushOutcome, type PushOutcomeId } from './outcomes';
import { samplePush } from './samples';

const TEXT = 'NotifyTextMessage';
const GENERIC = 'NotifyGenericTextMessage';
const REPROVISION = 'NotifyReprovision';

function post(
	endpoint: GatewayRequest['endpoint'],
	body: unknown,
	options?: GatewayOptions
): GatewayReply {
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	return gatewayRespond(
		{ endpoint, method: 'POST', contentType: 'application/json', body: text },
		options
	);
}

/** `http 200 / status 404 / 0 pushes / missing_data`: the parts of a reply the table talks about. */
function shape(reply: GatewayReply): string {
	const body = reply.body as { status?: number } | { status: number }[];
	const status = Array.isArray(body) ? `[${body.map((b) => b.status).join(',')}]` : body?.status;
	const outcomes = reply.trace.map((t) => t.outcome).join(',');
	return `http ${reply.httpStatus} / status ${status} / ${reply.pushes.length} pushes / ${outcomes}`;
}

function responseText(reply: GatewayReply): string {
	return (reply.body as { response: string }).response;
}

/** One case per row of the contract's "Push gateway" Errors table. */
const CASES: Record<PushOutcomeId, (row: PushOutcome) => void> = {
	accepted: () => {
		const reply = post('send', samplePush(TEXT));
		expect(shape(reply)).toBe('http 200 / status 200 / 1 pushes / accepted');
		expect(reply.pushes[0].request).toEqual(samplePush(TEXT));
	},
	missing_core_attribute: () => {
		for (const name of ['verb', 'AppId', 'DeviceToken']) {
			const reply = post('send', samplePush(REPROVISION, { [name]: undefined }));
			expect(shape(reply)).toBe('http 200 / status 400 / 0 pushes / missing_core_attribute');
			expect(responseText(reply)).toContain(`The attribute ${name} is missing`);
		}
	},
	missing_data: () => {
		const selector = post('send', samplePush(TEXT, { Selector: undefined }));
		expect(shape(selector)).toBe('http 200 / status 404 / 0 pushes / missing_data');
		expect(responseText(selector)).toContain('Selector');
		const badge = post('send', samplePush(TEXT, { Badge: undefined }), { target: 'platformA13' });
		expect(shape(badge)).toBe('http 200 / status 404 / 0 pushes / missing_data');
		const app = post('send', samplePush(GENERIC), { lookupToken: () => 'unknown-app' });
		expect(shape(app)).toBe('http 200 / status 404 / 0 pushes / missing_data');
		expect(responseText(app)).toContain('"com.provider.app.ios" is not registered');
		const upstream = post('send', samplePush(GENERIC), { lookupToken: () => 'upstream-error' });
		expect(shape(upstream)).toBe('http 200 / status 500 / 0 pushes / missing_data');
	},
	token_unregistered: () => {
		const reply = post('send', samplePush(TEXT), { lookupToken: () => 'unregistered' });
		expect(shape(reply)).toBe('http 200 / status 404 / 0 pushes / token_unregistered');
		const read = interpretGatewayResponse('send', 200, JSON.stringify(reply.body));
		expect(read.pushes[0].stopSendingToToken).toBe(true);
	},
	bad_request: () => {
		const body = JSON.stringify(samplePush(TEXT));
		for (const endpoint of ['send', 'multisend'] as const) {
			const requests: GatewayRequest[] = [
				{ endpoint, method: 'GET', contentType: 'application/json', body },
				{ endpoint, method: 'POST', contentType: 'text/plain', body },
				{ endpoint, method: 'POST', contentType: null, body },
				{ endpoint, method: 'POST', contentType: 'application/json', body: '{"verb":' },
				{ endpoint, method: 'POST', contentType: 'application/json', body: '' }
			];
			for (const request of requests) {
				const reply = gatewayRespond(request);
				expect(shape(reply)).toBe('http 400 / status 400 / 0 pushes / bad_request');
			}
		}
	},
	gateway_problem: () => {
		const lookupToken = () => {
			throw new Error('upstream unreachable');
		};
		const single = post('send', samplePush(TEXT), { lookupToken });
		expect(shape(single)).toBe('http 500 / status 500 / 0 pushes / gateway_problem');
		const many = post('multisend', [samplePush(TEXT)], { lookupToken });
		expect(shape(many)).toBe('http 500 / status 500 / 0 pushes / gateway_problem');
	},
	multisend_non_object_element: () => {
		const reply = post('multisend', [samplePush(TEXT), null, 5, 'x', [], samplePush(GENERIC)]);
		expect(shape(reply)).toBe(
			'http 200 / status [200,400,400,400,400,200] / 2 pushes / ' +
				'accepted,multisend_non_object_element,multisend_non_object_element,' +
				'multisend_non_object_element,multisend_non_object_element,accepted'
		);
		expect(reply.pushes.map((p) => p.index)).toEqual([0, 5]);
		expect((reply.body as { response: string }[])[1].response).toContain('null');
	},
	multisend_bare_null: () => {
		expect(shape(post('multisend', 'null'))).toBe(
			'http 400 / status 400 / 0 pushes / multisend_bare_null'
		);
	},
	multisend_list_with_null: () => {
		const reply = post('multisend', '[null]');
		expect(shape(reply)).toBe('http 200 / status [400] / 0 pushes / multisend_non_object_element');
		expect(Array.isArray(reply.body) && reply.body.length).toBe(1);
	}
};

describe('gatewayRespond: one case per row of the Push gateway Errors table', () => {
	it.each(PUSH_GATEWAY_OUTCOMES.map((row) => [row.condition, row] as const))('%s', (_c, row) => {
		const check = CASES[row.id];
		expect(check, `no case for row ${row.id}`).toBeTypeOf('function');
		check(row);
	});
});

describe('gatewayRespond', () => {
	it('accepts a single object on multisend as a one-element list', () => {
		const reply = post('multisend', samplePush(REPROVISION));
		expect(shape(reply)).toBe('http 200 / status [200] / 1 pushes / accepted');
	});

	it('answers an empty list with an empty list', () => {
		expect(post('multisend', []).body).toEqual([]);
	});

	it.each([
		['a list', '[{}]'],
		['null', 'null'],
		['a number', '5']
	])('answers HTTP 400 when the body of send is %s', (_name, body) => {
		expect(shape(post('send', body))).toBe('http 400 / status 400 / 0 pushes / bad_request');
	});

	it('answers HTTP 400 for a bare string or number on multisend', () => {
		expect(shape(post('multisend', '"x"'))).toBe('http 400 / status 400 / 0 pushes / bad_request');
		expect(shape(post('multisend', '7'))).toBe('http 400 / status 400 / 0 pushes / bad_request');
	});

	it('treats an unknown verb as missing: no push is sent, status 400', () => {
		const reply = post('send', samplePush(TEXT, { verb: 'NotifyCall' }));
		expect(shape(reply)).toBe('http 200 / status 400 / 0 pushes / missing_core_attribute');
	});

	it('sends a push with warnings, keeping them with the push', () => {
		const reply = post('multisend', [samplePush(REPROVISION, { Sound: 'default' })]);
		expect(reply.pushes[0].issues.map((i) => `${i.code} @${i.path.join('.')}`)).toEqual([
			'sound_ignored @0.Sound'
		]);
	});

	it('asks lookupToken about the application id and token of each push', () => {
		const seen: string[] = [];
		post('multisend', [samplePush(GENERIC, { DeviceToken: 'a' }), samplePush(GENERIC)], {
			lookupToken: (appId, token) => {
				seen.push(`${appId} ${token}`);
				return 'ok';
			}
		});
		expect(seen).toEqual([
			'com.provider.app.ios a',
			'com.provider.app.ios Udl99X2JFP1bWwS5gR/wGeLE1hmAB2CMpr1Ej0wxkrY='
		]);
	});

	it('answers HTTP 500 when lookupToken answers something it does not know', () => {
		const options = { lookupToken: () => 'maybe' } as unknown as GatewayOptions;
		expect(post('send', samplePush(TEXT), options).httpStatus).toBe(500);
	});

	it('names the method and the content type it refused', () => {
		const body = '{}';
		const get = gatewayRespond({ endpoint: 'send', method: 'GET', contentType: null, body });
		expect(responseText(get)).toContain('"GET"');
		const xml = { endpoint: 'send', method: 'POST', contentType: 'text/xml', body } as const;
		expect(responseText(gatewayRespond(xml))).toContain('"text/xml"');
	});

	it('treats methods as case-sensitive', () => {
		const request = { endpoint: 'send', method: 'post', contentType: 'application/json' } as const;
		expect(gatewayRespond({ ...request, body: '{}' }).httpStatus).toBe(400);
	});
});

describe('isJsonContentType', () => {
	it.each([
		['application/json', true],
		['Application/JSON', true],
		['application/json; charset=utf-8', true],
		[' application/json ;charset=UTF-8', true],
		['application/x-www-form-urlencoded', false],
		['application/jsonp', false],
		['text/json', false],
		['', false],
		[null, false]
	])('%s → %s', (contentType, expected) => {
		expect(isJsonContentType(contentType)).toBe(expected);
	});
});

describe('targetFor', () => {
	it('applies the Badge rule of each device token', () => {
		const targetFor = (token: string) => (token === 'new-phone' ? 'platformA13' : 'platformB');
		const list = [
			samplePush(TEXT, { Badge: undefined, DeviceToken: 'new-phone' }),
			samplePush(TEXT, { Badge: undefined, DeviceToken: 'old-phone' })
		];
		const reply = post('multisend', list, { targetFor });
		expect(shape(reply)).toBe('http 200 / status [404,200] / 1 pushes / missing_data,accepted');
	});

	it('is not asked when the DeviceToken is not a string', () => {
		const asked: string[] = [];
		const targetFor = (token: string) => (asked.push(token), 'platformA13' as const);
		const reply = post('send', samplePush(TEXT, { DeviceToken: 7 }), { targetFor });
		expect(shape(reply)).toBe('http 200 / status 400 / 0 pushes / missing_core_attribute');
		expect(asked).toEqual([]);
	});
});
