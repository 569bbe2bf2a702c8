import { describe, expect, it } from 'vitest';
import { buildRequests } from '../request';
import { interpretResponse } from '../response';
import { analyzeTemplate } from '../template';
import { ServiceSchema } from './schema';
import { getService } from './services';
import { ruleSource, sourceOf } from './sources';
import { isXmlKey } from './placement';
import { vocabularyOf } from './vocabulary';

const removal = getService('accountRemovalReporter');
const delivery = getService('pushNotificationReporter');
const ok = { status: 200, headers: {}, body: '' };

describe('Account Removal Reporter in the catalogue', () => {
	it('names its keys by the prefix rule, each marked as an inference', () => {
		expect(ServiceSchema.parse(removal)).toEqual(removal);
		expect(removal.keys.map((k) => [k.key, k.role, sourceOf(k).kind])).toEqual([
			['accountRemovalReporterUrl', 'url', 'inference'],
			['accountRemovalReporterPostData', 'postData', 'inference'],
			['accountRemovalReporterContentType', 'contentType', 'inference']
		]);
		for (const key of removal.keys) {
			expect(isXmlKey(removal, key.key)).toBe(true);
			expect(sourceOf(key).ref).toMatch(/not published/);
		}
		expect(sourceOf(removal).kind).toBe('docs');
	});

	it("has the Push Token Reporter's variables, the app-id ones inferred", () => {
		expect(removal.variables.map((v) => [v.name, v.scope, sourceOf(v).kind])).toEqual([
			['selector', 'service', 'docs'],
			['pushToken', 'service', 'docs'],
			['pushTokenIncomingCall', 'service', 'docs'],
			['pushTokenOther', 'service', 'docs'],
			['pushappid', 'service', 'inference'],
			['pushappid_incoming_call', 'service', 'inference'],
			['pushappid_other', 'service', 'inference']
		]);
		const keys = vocabularyOf(removal).entries.map((e) => e.key);
		expect(keys).toEqual(expect.arrayContaining(['account[username]', 'appid', 'selector']));
	});

	it('sends the selector and the tokens, POST with post data', () => {
		const built = buildRequests({
			service: removal,
			settings: {
				accountRemovalReporterUrl: 'https://p.example.com/remove',
				accountRemovalReporterPostData: 'selector=%selector%&token=%pushToken%'
			},
			values: { selector: 'AB:CD', pushToken: 'a+b/c=' }
		});
		expect(built.requests[0]).toMatchObject({
			method: 'POST',
			body: 'selector=AB%3ACD&token=a%2Bb%2Fc%3D'
		});
	});

	it('reads a 2xx as delivered: the provider deletes the selector’s tokens', () => {
		const result = interpretResponse(removal, { ...ok, status: 204 });
		expect(result.success).toBe(true);
		expect(result.action).toEqual({
			kind: 'report',
			delivered: true,
			duty: expect.stringContaining('delete the push tokens it stored for this selector')
		});
		expect(result.summary).toMatch(/^The report is delivered\./);
		expect(result.shownToUser).toBeNull();
		expect(result.issues).toEqual([]);
	});

	it('reads a non-2xx as not delivered, a warning, and says the app shows nothing', () => {
		const result = interpretResponse(removal, { ...ok, status: 404 });
		expect(result.success).toBe(false);
		expect(result.action).toEqual({ kind: 'report', delivered: false, duty: null });
		expect(result.summary).toContain('HTTP 404');
		expect(result.summary).toContain('the app shows nothing');
		expect(result.shownToUser).toBeNull();
		expect(result.issues).toEqual([
			expect.objectContaining({ code: 'reporter_not_2xx', severity: 'warning' })
		]);
		expect(ruleSource(removal, 'failure').kind).toBe('inference');
	});
});

describe('Push Notification Reporter in the catalogue', () => {
	it('has its documented keys and the content type by the common rule, inferred', () => {
		expect(ServiceSchema.parse(delivery)).toEqual(delivery);
		expect(delivery.keys.map((k) => [k.key, sourceOf(k).kind])).toEqual([
			['pushNotificationReporterUrl', 'docs'],
			['pushNotificationReporterPostData', 'docs'],
			['pushNotificationReporterContentType', 'inference']
		]);
		for (const key of delivery.keys) expect(isXmlKey(delivery, key.key)).toBe(true);
	});

	it('has every key of a received push as a variable, each with its source', () => {
		expect(delivery.variables.map((v) => [v.name, v.scope, sourceOf(v).kind])).toEqual([
			['pushId', 'service', 'docs'],
			['s', 'service', 'docs'],
			['sm', 'service', 'docs'],
			['s_missed', 'service', 'docs'],
			['type', 'service', 'docs']
		]);
		const issues = analyzeTemplate('%pushid%', delivery, 'pushNotificationReporterUrl').issues;
		expect(issues).toEqual([
			expect.objectContaining({ code: 'unknown_variable', severity: 'warning' })
		]);
	});

	it('counts a push test, or the delivery of a push of its type', () => {
		const test = interpretResponse(delivery, ok, { push: { pushId: 'test-42' } });
		expect(test.success).toBe(true);
		expect(test.summary).toContain('count push test “test-42” as delivered');
		const message = interpretResponse(delivery, ok, { push: { pushId: '', type: 'sm' } });
		expect(message.summary).toContain('count the delivery of this push (type “sm”)');
		const plain = interpretResponse(delivery, ok, { push: { pushId: '', type: '' } });
		expect(plain.summary).toContain('count the delivery of this push in its statistics');
		expect(ruleSource(delivery, 'success').kind).toBe('inference');
	});

	it('notes an HTML page answered with 2xx, a warning at most', () => {
		const result = interpretResponse(delivery, {
			status: 200,
			headers: { 'content-type': 'text/html' },
			body: '<!doctype html><title>Sign in</title>'
		});
		expect(result.success).toBe(true);
		expect(result.issues).toEqual([
			expect.objectContaining({ code: 'reporter_html_answer', severity: 'warning' })
		]);
	});
});
