import { describe, expect, it } from 'vitest';
import { buildRequests } from '../request';
import { interpretResponse } from '../response';
import { newDocument } from '../profile/schema';
import { exportXml, importXml } from '../xml';
import { portalSheet } from '../xml/portal';
import { ServiceSchema } from './schema';
import { getService } from './services';
import { portalKeyNamed } from './placement';
import { ruleSource, sourceOf } from './sources';

const provisioning = getService('initialProvisioning');
const XML = { 'content-type': 'application/xml' };
const ACCOUNT = `<account>
  <title>Alice</title>
  <password>s3cret</password>
  <genericSmsFetchUrl>https://sms.example.com/fetch</genericSmsFetchUrl>
</account>`;

describe('Initial provisioning in the catalogue', () => {
	it('is an app service whose four keys live in the portal, with their sources', () => {
		expect(ServiceSchema.parse(provisioning)).toEqual(provisioning);
		expect(provisioning.keys.map((k) => [k.key, k.role, sourceOf(k).kind])).toEqual([
			['InitialProvisioningUrl', 'url', 'docs'],
			['InitialProvisioningPostData', 'postData', 'docs'],
			['InitialProvisioningContentType', 'contentType', 'inference'],
			['InitialProvisioningMethod', 'method', 'docs']
		]);
		for (const key of provisioning.keys) {
			expect(portalKeyNamed(key.key)?.service).toBe(provisioning);
		}
		expect(provisioning.variables.map((v) => [v.name, v.secret])).toEqual([
			['username', false],
			['password', true],
			['fullcode', false]
		]);
		expect(provisioning.accountKeys).toBe('none');
		expect(ruleSource(provisioning, 'responseBody').kind).toBe('docs');
	});

	it('is GET without post data, POST with it, or the method the key chooses', () => {
		const url = 'https://prov.example.com/initial';
		const body = 'cloud_id=%fullcode%&cloud_username=%username%&cloud_password=%password%';
		const values = { username: 'alice', password: 'p&w', fullcode: 'Acme' };
		const post = buildRequests({
			service: 'initialProvisioning',
			settings: { InitialProvisioningUrl: url, InitialProvisioningPostData: body },
			values
		});
		expect(post.requests[0]).toMatchObject({
			method: 'POST',
			body: 'cloud_id=Acme&cloud_username=alice&cloud_password=p%26w'
		});
		const get = buildRequests({
			service: 'initialProvisioning',
			settings: { InitialProvisioningUrl: `${url}?u=%username%`, InitialProvisioningMethod: 'GET' },
			values
		});
		expect(get.requests[0]).toMatchObject({ method: 'GET', url: `${url}?u=alice` });
	});

	it('lists the four keys on the portal sheet and keeps them out of the XML', () => {
		const doc = newDocument();
		doc.services.initialProvisioning = { InitialProvisioningUrl: 'https://prov.example.com/i' };
		const fields = portalSheet(doc).filter((f) => f.service === 'initialProvisioning');
		expect(fields.map((f) => [f.key, f.value])).toEqual([
			['InitialProvisioningUrl', 'https://prov.example.com/i'],
			['InitialProvisioningPostData', ''],
			['InitialProvisioningContentType', ''],
			['InitialProvisioningMethod', '']
		]);
		expect(exportXml(doc, 'provisioning')).not.toContain('InitialProvisioning');
		const imported = importXml(
			'<provisioning><account><core><InitialProvisioningUrl>https://x.example.com/</InitialProvisioningUrl></core></account></provisioning>'
		);
		expect(imported.ok && imported.value.services.initialProvisioning).toBeUndefined();
		expect(imported.ok && imported.issues.map((i) => i.code)).toContain('portal_key_in_xml');
	});
});

describe('Initial provisioning answers', () => {
	it('reads a 2xx <account> into the settings the app merges and the fragment to import', () => {
		const result = interpretResponse('initialProvisioning', {
			status: 200,
			headers: XML,
			body: ACCOUNT
		});
		expect(result.success).toBe(true);
		expect(result.summary).toBe('The app merges 3 settings into its own; the account is “Alice”.');
		if (result.action.kind !== 'provisioningAnswer') throw new Error(result.action.kind);
		expect(result.action.result.settings.map((s) => s.key)).toEqual([
			'title',
			'password',
			'genericSmsFetchUrl'
		]);
		expect(result.action.result.importFragment).toBe(
			'<genericSmsFetchUrl>https://sms.example.com/fetch</genericSmsFetchUrl>'
		);
		expect(JSON.stringify(result)).not.toContain('s3cret');
	});

	it('names an empty title as a warning, the merge still happening', () => {
		const result = interpretResponse('initialProvisioning', {
			status: 200,
			headers: XML,
			body: '<account><title></title></account>'
		});
		expect(result.success).toBe(true);
		expect(result.issues[0]).toMatchObject({ code: 'account_title_empty', severity: 'warning' });
	});

	it('shows the <message> of a non-2xx as the app does, else the generic error', () => {
		const denied = interpretResponse('initialProvisioning', {
			status: 403,
			headers: XML,
			body: '<message>Wrong PIN</message>'
		});
		expect(denied).toMatchObject({ success: false, shownToUser: 'Wrong PIN' });
		expect(denied.summary).toBe('Provisioning stops; the app shows “Wrong PIN”.');
		const bare = interpretResponse('initialProvisioning', { status: 500, headers: {}, body: '' });
		expect(bare.shownToUser).toBe('(the app’s generic error message)');
	});

	it.each([
		['an HTML page', '<!DOCTYPE html><html><title>Login</title></html>', 'answer_html'],
		['a DOCTYPE', '<!DOCTYPE account><account/>', 'xml_doctype'],
		[
			'10,000 levels',
			'<account>' + '<a>'.repeat(10_000) + '</a>'.repeat(10_000) + '</account>',
			'xml_too_deep'
		]
	])('gives %s a verdict with its place', (_, body, code) => {
		const result = interpretResponse('initialProvisioning', { status: 200, headers: {}, body });
		expect(result.success).toBe(false);
		expect(result.issues[0]).toMatchObject({
			code,
			message: expect.stringMatching(/line \d+, column \d+/)
		});
		expect(result.summary).toMatch(/provisioning stops/);
	});
});
