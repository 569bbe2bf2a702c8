import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gatewayRespond, type GatewayRequest } from './gateway';
import { interpretGatewayResponse } from './interpret';
import { PUSH_ATTRIBUTE_NAMES, PushVerbSchema } from './reference';
import { samplePush } from './samples';
import { PushRequestSchema } from './schema';
import { validatePush } from './validate';

const endpoint = fc.constantFrom<GatewayRequest['endpoint']>('send', 'multisend');
const method = fc.oneof(fc.constant('POST'), fc.constantFrom('GET', 'PUT', 'post'), fc.string());
const contentType = fc.oneof(
	fc.constantFrom('application/json', 'APPLICATION/JSON; charset=utf-8', 'text/plain'),
	fc.constant(null),
	fc.string()
);
const target = fc.constantFrom('platformA13', 'platformAOlder', 'platformB', 'unknown' as const);

/** Objects made of the contract's attributes (and near misses) with plausible or odd values. */
const pushLike = fc
	.dictionary(
		fc.oneof(
			fc.constantFrom(...PUSH_ATTRIBUTE_NAMES, '__proto__', 'appid', 'constructor'),
			fc.string()
		),
		fc.oneof(
			fc.constantFrom(...PushVerbSchema.options, 'default', 's1.caf', '', ' ', 0, 3, -1, 1.5),
			fc.jsonValue()
		),
		{ maxKeys: 14 }
	)
	// Through JSON, so `__proto__` becomes an own key as it does in a parsed request body.
	.map((o) => JSON.parse(JSON.stringify(o)) as unknown);

/** A sample push with a few attributes changed or removed: mostly valid, sometimes not. */
const nearValid = fc
	.tuple(
		fc.constantFrom(...PushVerbSchema.options),
		fc.dictionary(
			fc.constantFrom(...PUSH_ATTRIBUTE_NAMES, 'extra'),
			fc.oneof(fc.constant(undefined), fc.constantFrom('', 'x', 2, null, 's9.caf')),
			{ maxKeys: 2 }
		)
	)
	.map(([verb, changes]) => JSON.parse(JSON.stringify(samplePush(verb, changes))) as unknown);

const anyPush = fc.oneof(pushLike, nearValid);
const jsonBody = fc.oneof(fc.jsonValue(), anyPush, fc.array(fc.oneof(anyPush, fc.jsonValue())));

function answers(request: GatewayRequest, lookup = false): ReturnType<typeof gatewayRespond> {
	return gatewayRespond(request, {
		lookupToken: lookup ? (appId) => (appId.length % 2 ? 'ok' : 'unregistered') : undefined
	});
}

describe('push gateway properties', () => {
	it('gatewayRespond never throws for any JSON body, method and content type', () => {
		fc.assert(
			fc.property(endpoint, method, contentType, jsonBody, fc.boolean(), (e, m, c, body, l) => {
				const reply = answers(
					{ endpoint: e, method: m, contentType: c, body: JSON.stringify(body) },
					l
				);
				expect([200, 400]).toContain(reply.httpStatus);
			})
		);
	});

	it('gatewayRespond never throws for any string body', () => {
		fc.assert(
			fc.property(endpoint, fc.string(), (e, body) => {
				const reply = answers({
					endpoint: e,
					method: 'POST',
					contentType: 'application/json',
					body
				});
				expect([200, 400]).toContain(reply.httpStatus);
			})
		);
	});

	it('multisend answers a list as long as the request list whenever it answers HTTP 200', () => {
		fc.assert(
			fc.property(fc.array(fc.oneof(anyPush, fc.jsonValue())), fc.boolean(), (list, l) => {
				const body = JSON.stringify(list);
				const reply = answers(
					{ endpoint: 'multisend', method: 'POST', contentType: 'application/json', body },
					l
				);
				expect(reply.httpStatus).toBe(200);
				expect(Array.isArray(reply.body) && reply.body.length).toBe(list.length);
			})
		);
	});

	it('sends exactly the pushes whose response status is 200', () => {
		fc.assert(
			fc.property(fc.array(anyPush), fc.boolean(), (list, l) => {
				const body = JSON.stringify(list);
				const reply = answers(
					{ endpoint: 'multisend', method: 'POST', contentType: 'application/json', body },
					l
				);
				const statuses = (reply.body as { status: number }[]).map((r) => r.status);
				const accepted = statuses.flatMap((s, i) => (s === 200 ? [i] : []));
				expect(reply.pushes.map((p) => p.index)).toEqual(accepted);
				const read = interpretGatewayResponse(
					'multisend',
					reply.httpStatus,
					JSON.stringify(reply.body)
				);
				expect(read.summary.accepted).toBe(accepted.length);
			})
		);
	});

	it('validatePush never throws for any JSON value and any target', () => {
		fc.assert(
			fc.property(fc.oneof(fc.jsonValue(), anyPush), target, (value, t) => {
				const result = validatePush(value, { target: t });
				expect(result.ok || result.issues.some((i) => i.severity === 'error')).toBe(true);
			})
		);
	});

	it('validatePush never throws for any value at all', () => {
		fc.assert(
			fc.property(fc.anything(), (value) => {
				expect(typeof validatePush(value).ok).toBe('boolean');
			})
		);
	});

	it('validatePush agrees with PushRequestSchema when the target is unknown', () => {
		fc.assert(
			fc.property(anyPush, (value) => {
				expect(validatePush(value).ok).toBe(PushRequestSchema.safeParse(value).success);
			})
		);
	});

	it('interpretGatewayResponse never throws and always summarizes', () => {
		fc.assert(
			fc.property(
				endpoint,
				fc.integer({ min: 0, max: 999 }),
				fc.oneof(
					fc.string(),
					jsonBody.map((b) => JSON.stringify(b))
				),
				(e, status, body) => {
					const read = interpretGatewayResponse(e, status, body);
					expect(read.summary.accepted + read.summary.notAccepted).toBe(read.pushes.length);
				}
			)
		);
	});
});
