import { describe, expect, it } from 'vitest';
import { emptyDocument, type ProfileDocument } from '../profile';
import { checkedBySecondParser } from '../../../../tests/helpers/xml';
import { applyImport, exportXml as exportOnly, importXml, type ImportedXml } from '.';

/** `exportXml`, with every exported document read by a second, independent XML parser. */
const exportXml = checkedBySecondParser(exportOnly);

function read(xml: string): ImportedXml {
	const result = importXml(xml);
	if (!result.ok) throw new Error(result.issues[0].message);
	return result.value;
}

function profile(): ProfileDocument {
	const document = emptyDocument();
	document.services = {
		sendMessage: { genericSmsSendUrl: 'https://old.example.com/', genericSmsPostData: 'old=1' },
		externalAuth: { externalAuthUrl: 'https://auth.example.com/' },
		pushTokenReporter: { pushTokenReporterUrl: 'https://push.example.com/' }
	};
	document.scenarios = [{ name: 'Default', values: { sms_to: '+1' } }];
	document.preservedXml = [
		{ path: 'provisioning', index: 0, xml: '<branding/>' },
		{ path: 'provisioning/account/core', index: 0, xml: '<old/>' }
	];
	return document;
}

describe('applyImport', () => {
	it('replaces every XML setting and kept element with a whole provisioning document', () => {
		const applied = applyImport(
			profile(),
			read(
				'<provisioning><account><core><extSSOProvUrl>https://p/</extSSOProvUrl><n/></core></account></provisioning>'
			)
		);
		expect(applied.ok && applied.value.services).toEqual({
			externalAuth: { externalAuthUrl: 'https://auth.example.com/' },
			extSSOProv: { extSSOProvUrl: 'https://p/' }
		});
		expect(applied.ok && applied.value.preservedXml).toEqual([
			{ path: 'provisioning/account/core', index: 1, xml: '<n/>' }
		]);
		expect(applied.ok && applied.value.scenarios).toEqual(profile().scenarios);
	});

	it('keeps the provisioning-level elements with an account document, which has no place for them', () => {
		const applied = applyImport(profile(), read('<account><x/></account>'));
		expect(applied.ok && applied.value.preservedXml).toEqual([
			{ path: 'provisioning', index: 0, xml: '<branding/>' },
			{ path: 'provisioning/account/core', index: 0, xml: '<x/>' }
		]);
	});

	it('sets only what a fragment holds, drops the deprecated spelling it replaces, adds its elements last', () => {
		const applied = applyImport(
			profile(),
			read('<genericSmsSendPostData>new=1</genericSmsSendPostData><extra/>')
		);
		if (!applied.ok) throw new Error('not applied');
		expect(applied.value.services.sendMessage).toEqual({
			genericSmsSendUrl: 'https://old.example.com/',
			genericSmsSendPostData: 'new=1'
		});
		expect(applied.value.services.pushTokenReporter).toEqual(profile().services.pushTokenReporter);
		const exported = exportXml(applied.value, 'provisioning');
		expect(exported.ok && exported.value).toMatch(
			/<old\/>\s*<genericSmsSendUrl>.*\s*<genericSmsSendPostData>new=1<\/genericSmsSendPostData>\s*<pushTokenReporterUrl>.*\s*<extra\/>\s*<\/core>/
		);
	});

	it('refuses to apply until every conflict has a chosen value, then uses the choice', () => {
		const imported = read(
			'<account><genericSmsPostData>a</genericSmsPostData><genericSmsSendPostData>b</genericSmsSendPostData></account>'
		);
		const refused = applyImport(profile(), imported);
		expect(refused.ok).toBe(false);
		expect(refused.issues).toEqual([
			expect.objectContaining({
				code: 'setting_conflict_unresolved',
				message: 'Choose a value for Send Message · Post data (2 were given).',
				field: 'genericSmsSendPostData'
			})
		]);
		expect(applyImport(profile(), imported, { 'sendMessage.genericSmsSendPostData': 5 }).ok).toBe(
			false
		);
		const chosen = applyImport(profile(), imported, { 'sendMessage.genericSmsSendPostData': 0 });
		expect(chosen.ok && chosen.value.services.sendMessage).toEqual({
			genericSmsSendPostData: 'a'
		});
	});

	it('never changes the document it is given', () => {
		const before = profile();
		applyImport(before, read('<genericSmsSendUrl>x</genericSmsSendUrl>'));
		expect(before).toEqual(profile());
	});
});
