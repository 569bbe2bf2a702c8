import { describe, expect, it } from 'vitest';
import { isSecretAccountKey, sampleValues, vocabularyOf } from '../catalogue';
import { getService } from '../catalogue/services';
import { diffDocuments } from '../profile/diff';
import { emptyDocument, type ProfileDocument } from '../profile/schema';
import { isSecretKey } from '../profile/secret-keys';
import { joinSecrets, keepMaskedSecrets, SECRET_MASK, splitSecrets } from '../profile/secrets';
import { analyzeTemplate } from '../template';
import { credentialElementName, declaredAccountKeys } from './account';
import { exportXml as exportOnly } from './export';
import { SETTINGS_PATH } from './forms';
import { checkedBySecondParser } from '../../../../tests/helpers/xml';

/** `exportXml`, with every exported document read by a second, independent XML parser. */
const exportXml = checkedBySecondParser(exportOnly);

const kept = (index: number, xml: string, path = SETTINGS_PATH) => ({ path, index, xml });

function withKept(...preservedXml: ProfileDocument['preservedXml']): ProfileDocument {
	return { ...emptyDocument(), preservedXml };
}

describe('which account elements are credentials', () => {
	it.each([
		'password',
		'cloud_password',
		'apiPass',
		'sipPassword',
		'sippassword',
		'api_key',
		'apiKey',
		'authToken',
		'TOKEN',
		'clientSecret',
		'voicemail-pin',
		'pwd'
	])('%s is a credential', (name) => {
		expect(isSecretAccountKey(name)).toBe(true);
		expect(isSecretKey(`account[${name}]`)).toBe(true);
	});

	it.each([
		'authUsername',
		'username',
		'apiUser',
		'host',
		'monkey',
		'shipping',
		'keyboard',
		'title'
	])('%s is not', (name) => {
		expect(isSecretAccountKey(name)).toBe(false);
		expect(isSecretKey(`account[${name}]`)).toBe(false);
	});

	it('finds a credential by the element or a child, only when it holds text', () => {
		expect(credentialElementName('<password>p&amp;1</password>')).toBe('password');
		expect(credentialElementName('<password><![CDATA[x]]></password>')).toBe('password');
		expect(credentialElementName('<sip a="1"><authPassword>x</authPassword></sip>')).toBe('sip');
		expect(credentialElementName('<password/>')).toBeNull();
		expect(credentialElementName('<password>  </password>')).toBeNull();
		expect(credentialElementName('<codec>opus</codec>')).toBeNull();
		expect(credentialElementName('<note><!-- <password> -->x</note>')).toBeNull();
	});
});

describe('declaredAccountKeys', () => {
	it('reads the plain elements of the settings element that are not settings, first of a name', () => {
		const declared = declaredAccountKeys([
			kept(3, '<apiPass>s3cr&amp;t</apiPass>'),
			kept(0, '<apiUser>acme&amp;co</apiUser>'),
			kept(1, '<authUsername>alice-sip</authUsername>'),
			kept(2, '<apiUser>second</apiUser>'),
			kept(4, '<nested><a>1</a></nested>'),
			kept(5, '<phoneNumberVerifierUrl>https://x</phoneNumberVerifierUrl>'),
			kept(0, '<elsewhere>1</elsewhere>', 'provisioning')
		]);
		expect(declared).toEqual([
			{ name: 'apiUser', value: 'acme&co', secret: false },
			{ name: 'authUsername', value: 'alice-sip', secret: false },
			{ name: 'apiPass', value: '', secret: true }
		]);
	});

	it('makes custom keys known where the app fills every account key, and fills the samples', () => {
		const declared = declaredAccountKeys([
			kept(0, '<apiUser>acme</apiUser>'),
			kept(1, '<apiPass>hidden</apiPass>'),
			kept(2, '<authUsername>alice-sip</authUsername>')
		]);
		const sendMessage = getService('sendMessage');
		const template = 'u=%account[apiUser]%&p=%account[apiPass]%&a=%account[authUsername]%';
		expect(analyzeTemplate(template, sendMessage).issues.map((i) => i.code)).toEqual([
			'unknown_variable',
			'unknown_variable'
		]);
		expect(analyzeTemplate(template, sendMessage, undefined, declared).issues).toEqual([]);
		const samples = sampleValues(sendMessage, declared);
		expect(samples['account[apiUser]']).toBe('acme');
		expect(samples['account[authUsername]']).toBe('alice-sip');
		expect(samples['account[apiPass]']).not.toBe('hidden');
		const entry = vocabularyOf(sendMessage, declared).entries.find(
			(e) => e.key === 'account[apiPass]'
		);
		expect(entry?.variable.secret).toBe(true);
		// The SSO server fills a fixed set of account keys: a custom one stays unknown there.
		const sso = getService('externalAuth');
		expect(vocabularyOf(sso, declared).entries.map((e) => e.key)).not.toContain('account[apiUser]');
	});
});

describe('credentials in kept XML', () => {
	const document = withKept(
		kept(0, '<apiUser>acme</apiUser>'),
		kept(1, '<password>p@ss&amp;1</password>')
	);

	it('are taken out of the stored document, and come back as values or as the mask', () => {
		const { document: stored, secrets } = splitSecrets(document);
		expect(JSON.stringify(stored)).not.toContain('p@ss');
		expect(stored.preservedXml[1].xml).toBe('<password/>');
		expect(joinSecrets(stored, secrets, 'values')).toEqual(document);
		const masked = joinSecrets(stored, secrets, 'mask');
		expect(masked.preservedXml[1].xml).toBe(`<password>${SECRET_MASK}</password>`);
		// Saved back as the mask, the stored value is kept.
		const again = splitSecrets(masked);
		const kept2 = keepMaskedSecrets(again.secrets, secrets);
		expect(joinSecrets(again.document, kept2, 'values')).toEqual(document);
	});

	it('are left out of an export unless included, and a masked one never goes out', () => {
		const left = exportXml(document, 'account');
		expect(left.ok && left.value).not.toContain('password');
		expect(left.ok && left.value).toContain('<apiUser>acme</apiUser>');
		expect(left.issues.map((i) => i.code)).toContain('xml_credentials_left_out');
		const included = exportXml(document, 'account', { credentials: 'include' });
		expect(included.ok && included.value).toContain('<password>p@ss&amp;1</password>');
		const { document: stored, secrets } = splitSecrets(document);
		const masked = exportXml(joinSecrets(stored, secrets, 'mask'), 'account', {
			credentials: 'include'
		});
		expect(masked.ok && masked.value).not.toContain(SECRET_MASK);
	});

	it('are masked in a diff', () => {
		const changes = diffDocuments(emptyDocument(), document);
		expect(JSON.stringify(changes)).not.toContain('p@ss');
		expect(changes.map((c) => c.after)).toContain(`<password>${SECRET_MASK}</password>`);
	});
});
