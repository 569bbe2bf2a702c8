import { describe, expect, it } from 'vitest';
import { buildRequests } from '../request';
import { resolveSettings } from '../request/settings';
import { interpretResponse } from '../response';
import { ServiceSchema } from './schema';
import { getService } from './services';
import { ruleSource, sourceOf } from './sources';
import { isXmlKey } from './placement';

const balance = getService('balanceChecker');
const rate = getService('rateChecker');
const XML = { 'content-type': 'application/xml' };
const JSON_TYPE = { 'content-type': 'application/json' };

describe('Balance Checker in the catalogue', () => {
	it('is an app service with its keys and two number settings with their defaults', () => {
		expect(ServiceSchema.parse(balance)).toEqual(balance);
		expect(balance.keys.map((k) => [k.key, k.role, k.default ?? null])).toEqual([
			['genericBalanceCheckUrl', 'url', null],
			['genericBalanceCheckPostData', 'postData', null],
			['genericBalanceCheckContentType', 'contentType', null],
			['balanceCheckIntervalInSeconds', 'number', '300'],
			['balanceCheckDelayInSeconds', 'number', '5']
		]);
		for (const key of balance.keys) expect(isXmlKey(balance, key.key)).toBe(true);
		expect(sourceOf(balance.keys[3]).kind).toBe('docs');
		expect(sourceOf(balance.keys[0]).kind).toBe('providers');
		expect(ruleSource(balance, 'failure').kind).toBe('inference');
	});

	it('warns of a setting that is not a whole number, and takes an empty one', () => {
		const issues = (value: string) =>
			resolveSettings(balance, {
				genericBalanceCheckUrl: 'https://b.example.com/',
				balanceCheckIntervalInSeconds: value
			}).issues.filter((i) => i.code === 'number_invalid');
		expect(issues('5 min')).toEqual([
			expect.objectContaining({
				severity: 'warning',
				field: 'balanceCheckIntervalInSeconds',
				message: expect.stringContaining('(300 when empty)')
			})
		]);
		expect(issues('')).toEqual([]);
		expect(issues('600')).toEqual([]);
	});

	it.each([
		[
			'the legacy XML',
			XML,
			'<response><error>0</error><balanceString>$60.20</balanceString></response>',
			'$60.20'
		],
		['the JSON', JSON_TYPE, '{"balanceString":"€ 3.10","balance":3.1,"currency":"EUR"}', '€ 3.10']
	])('reads %s answer into the text the app shows', (_, headers, body, shown) => {
		const result = interpretResponse('balanceChecker', { status: 200, headers, body });
		expect(result.success).toBe(true);
		expect(result.shownToUser).toBe(shown);
		expect(result.action).toMatchObject({ kind: 'balance', result: { shown } });
		expect(result.summary).toBe(`The app shows the balance “${shown}”.`);
	});

	it.each([
		['an error flag', XML, '<response><error>1</error></response>', /<error> is 1/],
		['an HTML page', {}, '<!doctype html><title>Sign in</title>', /HTML page/],
		['no balanceString', JSON_TYPE, '{"balance": 3}', /no balanceString/]
	])('says why nothing is shown for %s', (_, headers, body, why) => {
		const result = interpretResponse('balanceChecker', { status: 200, headers, body });
		expect(result.success).toBe(false);
		expect(result.shownToUser).toBeNull();
		expect(result.summary).toMatch(why);
		expect(result.summary).toMatch(/the app shows no balance\.$/);
	});
});

describe('Rate Checker in the catalogue', () => {
	it('has its keys, the content type inferred by the common rule, and its variables', () => {
		expect(ServiceSchema.parse(rate)).toEqual(rate);
		expect(rate.keys.map((k) => [k.key, sourceOf(k).kind])).toEqual([
			['genericRateCheckUrl', 'docs'],
			['genericRateCheckPostData', 'docs'],
			['genericRateCheckContentType', 'inference'],
			['rateCheckMinNumberLength', 'docs']
		]);
		expect(rate.variables.map((v) => [v.name, v.scope])).toEqual([
			['targetNumber', 'service'],
			['smartUri', 'service']
		]);
	});

	it('sends the number the user types', () => {
		const built = buildRequests({
			service: rate,
			settings: { genericRateCheckUrl: 'https://r.example.com/rate?to=%targetNumber%' },
			values: { targetNumber: '+15551231234', smartUri: '' }
		});
		expect(built.requests[0]).toMatchObject({
			method: 'GET',
			url: 'https://r.example.com/rate?to=%2B15551231234'
		});
	});

	it('shows the call and message rates, and the smart ones for a smart contact', () => {
		const body =
			'{"callRateString":"$0.02/min","messageRateString":"$0.01","smartCallRateString":"free","smartMessageRateString":"free"}';
		const plain = interpretResponse('rateChecker', { status: 200, headers: JSON_TYPE, body });
		expect(plain.action).toMatchObject({
			kind: 'rate',
			result: { shown: [{ value: '$0.02/min' }, { value: '$0.01' }] }
		});
		expect(plain.shownToUser).toBe('Call rate: $0.02/min\nMessage rate: $0.01');
		const smart = interpretResponse(
			'rateChecker',
			{ status: 200, headers: JSON_TYPE, body },
			{ smartUri: 'sip:alice@example.com' }
		);
		expect(smart.shownToUser).toBe('Call rate: free\nMessage rate: free');
	});

	it('shows the legacy rateString, and nothing for a set error flag or a failure', () => {
		const legacy = interpretResponse('rateChecker', {
			status: 200,
			headers: XML,
			body: '<response><rateString>5 c/min</rateString></response>'
		});
		expect([legacy.success, legacy.shownToUser]).toEqual([true, 'Rate: 5 c/min']);
		const flagged = interpretResponse('rateChecker', {
			status: 200,
			headers: XML,
			body: '<response><error>2</error><rateString>x</rateString></response>'
		});
		expect([flagged.success, flagged.shownToUser]).toEqual([false, null]);
		expect(flagged.summary).toMatch(/the app shows no rate\.$/);
		const failed = interpretResponse('rateChecker', { status: 503, headers: {}, body: '' });
		expect(failed.action).toEqual({ kind: 'retryLater' });
	});
});
