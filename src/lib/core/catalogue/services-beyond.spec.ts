import { describe, expect, it } from 'vitest';
import { buildRequests } from '../request';
import { analyzeTemplate } from '../template';
import { ACCOUNT_CORE_PATH } from './keys';
import { ServiceSchema } from './schema';
import { BEYOND_CONTRACT_LABEL, getService, servicesByCaller } from './services';
import { remarkOf, ruleSource, sourceOf } from './sources';
import { vocabularyOf } from './vocabulary';
import { isXmlKey } from './placement';

const fetch = getService('fetchMessages');

describe('Fetch Messages in the catalogue', () => {
	it('is an app service whose entry ServiceSchema parses to itself', () => {
		expect(ServiceSchema.parse(fetch)).toEqual(fetch);
		expect(fetch.caller).toBe('app');
		expect(fetch.kind).toBe('template');
	});

	it('has the genericSmsFetch keys in the account XML, named as providers name them', () => {
		expect(fetch.keys.map((k) => [k.key, k.role])).toEqual([
			['genericSmsFetchUrl', 'url'],
			['genericSmsFetchPostData', 'postData'],
			['genericSmsFetchContentType', 'contentType']
		]);
		for (const key of fetch.keys) {
			expect(key.location).toEqual({ kind: 'accountXml', path: ACCOUNT_CORE_PATH });
			expect(sourceOf(key).kind).toBe('providers');
			expect(isXmlKey(fetch, key.key)).toBe(true);
		}
	});

	it('has its two variables, the first from the documentation, the second from providers', () => {
		const [received, sent] = fetch.variables;
		expect([received.name, sourceOf(received)]).toEqual([
			'last_known_sms_id',
			{ kind: 'docs', ref: 'api/client/fetch_messages_modern' }
		]);
		expect([sent.name, sourceOf(sent).kind]).toEqual(['last_known_sent_sms_id', 'providers']);
		expect(received.scope).toBe('service');
		expect(sent.scope).toBe('service');
	});

	it('takes account values and global parameters, and warns of an unknown name', () => {
		const keys = vocabularyOf(fetch).entries.map((e) => e.key);
		expect(keys).toEqual(expect.arrayContaining(['account[username]', 'appid', 'installid']));
		const issues = analyzeTemplate('%last_known_smsid%', fetch, 'genericSmsFetchUrl').issues;
		expect(issues).toEqual([
			expect.objectContaining({
				code: 'unknown_variable',
				severity: 'warning',
				message: expect.stringContaining('Did you mean %last_known_sms_id%?')
			})
		]);
	});

	it('is GET without post data and POST with it, form-urlencoded by default', () => {
		const values = { last_known_sms_id: 'Msg 1', last_known_sent_sms_id: '' };
		const get = buildRequests({
			service: fetch,
			settings: { genericSmsFetchUrl: 'https://sms.example.com/fetch?last=%last_known_sms_id%' },
			values
		});
		expect(get.requests[0]).toMatchObject({
			method: 'GET',
			url: 'https://sms.example.com/fetch?last=Msg%201',
			body: null
		});
		const post = buildRequests({
			service: fetch,
			settings: {
				genericSmsFetchUrl: 'https://sms.example.com/fetch',
				genericSmsFetchPostData: 'last=%last_known_sms_id%&sent=%last_known_sent_sms_id%'
			},
			values
		});
		expect(post.requests[0]).toMatchObject({
			method: 'POST',
			contentType: 'application/x-www-form-urlencoded',
			body: 'last=Msg+1&sent='
		});
	});

	it('says where each rule comes from: the intro page, an inference, providers', () => {
		expect(sourceOf(fetch)).toEqual({ kind: 'docs', ref: 'api/client/fetch_messages_modern' });
		expect(ruleSource(fetch, 'method').ref).toMatch(/^api\/client\/intro/);
		expect(ruleSource(fetch, 'failure').kind).toBe('inference');
		expect(ruleSource(fetch, 'responseBody').kind).toBe('providers');
		const kinds = fetch.remarks.map((r) => remarkOf(r).source.kind);
		expect(new Set(kinds)).toEqual(new Set(['docs', 'contract', 'providers']));
	});

	it('sits in a group of its own, beyond the contract', () => {
		const groups = servicesByCaller();
		const beyond = groups.find((g) => g.id === 'beyond');
		expect(beyond?.label).toBe(BEYOND_CONTRACT_LABEL);
		expect(beyond?.services.map((s) => s.id)).toEqual([
			'fetchMessages',
			'balanceChecker',
			'rateChecker',
			'accountRemovalReporter',
			'pushNotificationReporter',
			'initialProvisioning',
			'webServiceContacts'
		]);
		const app = groups.find((g) => g.id === 'app');
		expect(app?.services.map((s) => s.id)).not.toContain('fetchMessages');
	});
});
