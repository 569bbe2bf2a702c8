import { describe, expect, it } from 'vitest';
import { PUSH_SETTING_RULES } from '../catalogue/push-settings';
import { applyImport, exportXml as exportOnly, importXml } from '../xml';
import { makeBackup, parseBackup } from './backup';
import {
	checkPushSettings,
	gatewayOfUrl,
	hasPushSettings,
	type PushSettings
} from './push-settings';
import { emptyDocument, type ProfileDocument } from './schema';
import { checkedBySecondParser } from '../../../../tests/helpers/xml';

/** `exportXml`, with every exported document read by a second, independent XML parser. */
const exportXml = checkedBySecondParser(exportOnly);

const R = PUSH_SETTING_RULES;

function push(gatewayUrl: string, appId = 'com.provider.app'): PushSettings {
	return { gatewayUrl, appId, target: 'platformA13' };
}

const codes = (settings: PushSettings) => checkPushSettings(settings).map((i) => i.code);

/** Applies an issue's fix to the text it is about. */
function fixed(text: string, fix: { from: number; to: number; insert: string }): string {
	return text.slice(0, fix.from) + fix.insert + text.slice(fix.to);
}

describe('checkPushSettings', () => {
	it('finds nothing wrong with empty settings or a plain gateway base address', () => {
		expect(checkPushSettings(emptyDocument().push)).toEqual([]);
		expect(codes(push('https://push.example.com/gateway'))).toEqual([]);
		expect(codes(push('http://127.0.0.1:5173/sandbox/abc/'))).toEqual([]);
	});

	it.each([
		['push.example.com/gateway'],
		['ftp://push.example.com/'],
		['javascript:alert(1)'],
		['https:push.example.com'],
		['not a url at all']
	])('refuses %s as a gateway URL that is not a full http(s) address', (url) => {
		const issues = checkPushSettings(push(url));
		expect(issues).toHaveLength(1);
		expect(issues[0]).toMatchObject({ severity: 'error', field: 'gatewayUrl' });
		expect([R.gatewayUrlNotHttp.code, R.gatewayUrlSpaces.code]).toContain(issues[0].code);
	});

	it('points at the endpoint written into the base address and offers to remove it', () => {
		for (const [url, expected] of [
			['https://gw.example.com/x/pnm2/send', 'https://gw.example.com/x'],
			['https://gw.example.com/pnm2/multisend/', 'https://gw.example.com'],
			['https://gw.example.com/PNM2', 'https://gw.example.com']
		]) {
			const [issue] = checkPushSettings(push(url));
			expect(issue).toMatchObject({ code: R.gatewayUrlEndpoint.code, severity: 'error' });
			expect(url.slice(issue.from, issue.to).toLowerCase()).toMatch(/^\/pnm2/);
			expect(fixed(url, issue.fix!)).toBe(expected);
		}
	});

	it('refuses a query or a fragment, which the endpoint path would follow', () => {
		const url = 'https://gw.example.com/base?key=1';
		const [issue] = checkPushSettings(push(url));
		expect(issue).toMatchObject({ code: R.gatewayUrlQuery.code, from: url.indexOf('?') });
		expect(fixed(url, issue.fix!)).toBe('https://gw.example.com/base');
	});

	it('refuses spaces, with a fix when they are only around the address', () => {
		const [around] = checkPushSettings(push(' https://gw.example.com '));
		expect(around).toMatchObject({ code: R.gatewayUrlSpaces.code, from: 0, to: 1 });
		expect(fixed(' https://gw.example.com ', around.fix!)).toBe('https://gw.example.com');
		const [inside] = checkPushSettings(push('https://gw.example.com/a b'));
		expect(inside).toMatchObject({ code: R.gatewayUrlSpaces.code, from: 24 });
		expect(inside.fix).toBeUndefined();
	});

	it('warns of a gateway without an app id (no push is sent without AppId), and the reverse', () => {
		expect(codes(push('https://gw.example.com', ''))).toEqual([R.appIdMissing.code]);
		expect(codes(push('', 'com.provider.app'))).toEqual([R.gatewayUrlMissing.code]);
		expect(checkPushSettings(push('https://gw.example.com', ''))[0].severity).toBe('warning');
	});

	it('refuses an app id with spaces around it, which the gateway would not match', () => {
		const [issue] = checkPushSettings(push('https://gw.example.com', 'com.app '));
		expect(issue).toMatchObject({ code: R.appIdSpaces.code, field: 'appId', from: 7, to: 8 });
		expect(fixed('com.app ', issue.fix!)).toBe('com.app');
	});

	it('warns of the address of a sandbox that got a new key or was deleted', () => {
		const origin = 'http://127.0.0.1:4000';
		const sandboxes = [{ id: 's1', name: 'Lab', pushUrl: `${origin}/sandbox/newkey` }];
		const stale = checkPushSettings(push(`${origin}/sandbox/oldkey`), { sandboxes, origin });
		expect(stale.map((i) => i.code)).toEqual([R.gatewayUrlStaleSandbox.code]);
		expect(checkPushSettings(push(`${origin}/sandbox/newkey/`), { sandboxes, origin })).toEqual([]);
		expect(gatewayOfUrl(`${origin}/sandbox/newkey`, sandboxes, origin)).toEqual({
			kind: 'sandbox',
			sandbox: sandboxes[0]
		});
		expect(gatewayOfUrl('https://gw.example.com', sandboxes, origin)).toEqual({ kind: 'other' });
	});

	it('says whether a profile has push settings at all', () => {
		expect(hasPushSettings(emptyDocument().push)).toBe(false);
		expect(hasPushSettings({ ...emptyDocument().push, target: 'platformB' })).toBe(true);
	});
});

describe('push settings in exports and imports', () => {
	function withPush(): ProfileDocument {
		const document = emptyDocument();
		document.services = { sendMessage: { genericSmsSendUrl: 'https://sms.example.com/' } };
		document.push = {
			gatewayUrl: 'https://push.example.com/gateway',
			appId: 'com.provider.app',
			target: 'platformAOlder'
		};
		return document;
	}

	it('are carried whole by the JSON backup', () => {
		const document = withPush();
		const backup = makeBackup(
			{ id: 'p', name: 'P', revision: 3 },
			document,
			'left_out',
			new Date(0)
		);
		const read = parseBackup(JSON.stringify(backup));
		expect(read.ok && read.value.document.push).toEqual(document.push);
	});

	it('are not written into either form of the provisioning XML (the app does not read them)', () => {
		for (const form of ['provisioning', 'account'] as const) {
			const xml = exportXml(withPush(), form);
			expect(xml.ok).toBe(true);
			if (!xml.ok) continue;
			expect(xml.value).toContain('https://sms.example.com/');
			expect(xml.value).not.toContain('push.example.com');
			expect(xml.value).not.toContain('com.provider.app');
		}
	});

	it('survive an XML round trip: importing the export back keeps them as they were', () => {
		const document = withPush();
		const xml = exportXml(document, 'provisioning');
		const imported = importXml(xml.ok ? xml.value : '');
		if (!imported.ok) throw new Error(imported.issues[0].message);
		const applied = applyImport({ ...document, push: { ...document.push } }, imported.value);
		expect(applied.ok && applied.value.push).toEqual(document.push);
		expect(applied.ok && applied.value.services).toEqual(document.services);
	});
});
