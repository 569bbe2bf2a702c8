import { describe, expect, it } from 'vitest';
import { emptyDocument, type ProfileDocument } from '../profile';
import { checkedBySecondParser, readBySecondParser } from '../../../../tests/helpers/xml';
import { escapeXmlText, exportXml as exportOnly, portalSheet, portalSheetMarkdown } from '.';

/** `exportXml`, with every exported document read by a second, independent XML parser. */
const exportXml = checkedBySecondParser(exportOnly);

function withServices(services: Record<string, Record<string, string>>): ProfileDocument {
	return { ...emptyDocument(), services };
}

describe('exportXml', () => {
	it('leaves the Digest password out unless secrets are included, and never writes its mask', () => {
		const document = withServices({
			webServiceContacts: {
				wsContactsUrl: 'https://c.example.com/contacts',
				wsContactsAuthUsername: 'alice',
				wsContactsAuthPassword: 'digest-pw'
			}
		});
		const plain = exportXml(document, 'provisioning');
		expect(plain.ok && plain.value).toContain(
			'<wsContactsAuthUsername>alice</wsContactsAuthUsername>'
		);
		expect(plain.ok && plain.value).not.toContain('wsContactsAuthPassword');
		expect(plain.issues).toContainEqual(
			expect.objectContaining({
				code: 'xml_credentials_left_out',
				message: expect.stringContaining('<wsContactsAuthPassword>')
			})
		);
		const included = exportXml(document, 'provisioning', { credentials: 'include' });
		expect(included.ok && included.value).toContain(
			'<wsContactsAuthPassword>digest-pw</wsContactsAuthPassword>'
		);
		const masked = structuredClone(document);
		masked.services.webServiceContacts!.wsContactsAuthPassword = '\u2022'.repeat(8);
		const fromView = exportXml(masked, 'provisioning', { credentials: 'include' });
		expect(fromView.ok && fromView.value).not.toContain('wsContactsAuthPassword');
	});

	it('writes an empty profile as empty containers', () => {
		const exported = exportXml(emptyDocument(), 'provisioning');
		expect(exported.ok && exported.value).toBe(
			'<?xml version="1.0" encoding="UTF-8"?>\n<provisioning>\n\t<account>\n\t\t<core/>\n\t</account>\n</provisioning>\n'
		);
		const account = exportXml(emptyDocument(), 'account');
		expect(account.ok && account.value).toBe(
			'<?xml version="1.0" encoding="UTF-8"?>\n<account/>\n'
		);
	});

	it('leaves portal settings out of the XML', () => {
		const exported = exportXml(
			withServices({
				externalAuth: { externalAuthUrl: 'https://auth/' },
				invitationAccepted: { invitationAcceptedUrl: 'https://inv/' },
				sendMessage: { genericSmsSendUrl: 'https://sms/' }
			}),
			'account'
		);
		expect(exported.ok && exported.value).not.toMatch(/externalAuth|invitationAccepted/);
		expect(exported.ok && exported.value).toContain(
			'<genericSmsSendUrl>https://sms/</genericSmsSendUrl>'
		);
	});

	it('refuses characters XML 1.0 cannot carry, naming the setting', () => {
		const exported = exportXml(
			withServices({ sendMessage: { genericSmsSendPostData: 'a\u0001b' } }),
			'provisioning'
		);
		expect(exported.ok).toBe(false);
		expect(exported.issues).toEqual([
			expect.objectContaining({
				code: 'xml_char_invalid',
				field: 'genericSmsSendPostData',
				from: 1
			})
		]);
	});

	it('writes a deprecated post data key under its replacement, or leaves it out with a warning', () => {
		const alone = exportXml(
			withServices({ sendMessage: { genericSmsPostData: 'x=1' } }),
			'account'
		);
		expect(alone.ok && alone.value).toContain(
			'<genericSmsSendPostData>x=1</genericSmsSendPostData>'
		);
		expect(alone.issues.map((i) => i.code)).toEqual(['deprecated_key']);
		const both = exportXml(
			withServices({ sendMessage: { genericSmsPostData: 'x=1', genericSmsSendPostData: 'y=2' } }),
			'account'
		);
		expect(both.ok && both.value).not.toContain('x=1');
		expect(both.issues[0].message).toMatch(/left out/);
	});

	it('refuses a preserved element that is not one well-formed element', () => {
		for (const xml of ['</core><evil/>', '<a/><b/>', 'text', '<?pi x?><a/>', '<!DOCTYPE a><a/>']) {
			const document = {
				...emptyDocument(),
				preservedXml: [{ path: 'provisioning', index: 0, xml }]
			};
			const exported = exportXml(document, 'provisioning');
			expect(exported.ok, xml).toBe(false);
			expect(exported.issues[0].code).toBe('xml_preserved_invalid');
		}
	});

	it('leaves elements the account form has no place for out, with a warning', () => {
		const document = {
			...emptyDocument(),
			preservedXml: [
				{ path: 'provisioning', index: 0, xml: '<branding/>' },
				{ path: 'provisioning/account/core', index: 0, xml: '<kept/>' }
			]
		};
		const exported = exportXml(document, 'account');
		expect(exported.ok && exported.value).toBe(
			'<?xml version="1.0" encoding="UTF-8"?>\n<account>\n\t<kept/>\n</account>\n'
		);
		expect(exported.issues.map((i) => i.code)).toEqual(['xml_preserved_omitted']);
	});

	it('escapes markup, ]]> and CR, and nothing else', () => {
		expect(escapeXmlText('a & <b> ]]> "q" \'s\'\r\n\t🎉')).toBe(
			'a &amp; &lt;b&gt; ]]&gt; "q" \'s\'&#13;\n\t🎉'
		);
	});
});

describe('portal field sheet', () => {
	const document = withServices({
		externalAuth: { externalAuthUrl: 'https://auth.example.com/?u=%username%' },
		phoneNumberVerifier: { phoneNumberVerifierPostData: 'code ```x``` `y`' },
		sendMessage: { genericSmsSendUrl: 'https://sms/' }
	});

	it('lists the portal settings with their step and value, and no XML setting', () => {
		const sheet = portalSheet(document);
		expect(sheet.map((f) => f.key)).toContain('invitationAcceptedUrl');
		expect(sheet.map((f) => f.key)).toContain('smartContactNotificationContentType');
		expect(sheet.map((f) => f.key)).not.toContain('genericSmsSendUrl');
		expect(sheet.find((f) => f.key === 'externalAuthUrl')).toMatchObject({
			serviceTitle: 'External Authentication',
			step: 'Provisioning Options (step 2)',
			value: 'https://auth.example.com/?u=%username%'
		});
		expect(sheet.find((f) => f.key === 'phoneNumberVerifierUrl')).toMatchObject({
			step: 'White-label configuration',
			value: ''
		});
	});

	it('gives the initial provisioning URL one row, naming both entries that use it', () => {
		const sheet = portalSheet(
			withServices({
				initialProvisioning: { InitialProvisioningUrl: 'https://prov.example.com/i' }
			})
		);
		const rows = sheet.filter((f) => f.key.toLowerCase() === 'initialprovisioningurl');
		expect(rows).toHaveLength(1);
		expect(rows[0]).toMatchObject({
			service: 'initialProvisioning',
			key: 'InitialProvisioningUrl',
			value: 'https://prov.example.com/i',
			alsoNamed: [{ serviceTitle: 'External provisioning on SSO', key: 'initialProvisioningUrl' }],
			differs: null
		});
		expect(rows[0].description).toContain(
			'External provisioning on SSO calls this same field when neither extSSOProvUrl nor the reprovisioning URL is set'
		);
		const markdown = portalSheetMarkdown('p', 1, sheet);
		expect(markdown).toContain('also `initialProvisioningUrl` of External provisioning on SSO');
	});

	it('takes the value either entry holds, and says when the two differ', () => {
		const only = portalSheet(
			withServices({ extSSOProv: { initialProvisioningUrl: 'https://prov.example.com/sso' } })
		).find((f) => f.key === 'InitialProvisioningUrl');
		expect(only).toMatchObject({ value: 'https://prov.example.com/sso', differs: null });
		const both = portalSheet(
			withServices({
				initialProvisioning: { InitialProvisioningUrl: 'https://a.example.com/' },
				extSSOProv: { initialProvisioningUrl: 'https://b.example.com/' }
			})
		).find((f) => f.key === 'InitialProvisioningUrl');
		expect(both?.value).toBe('https://a.example.com/');
		expect(both?.differs).toBe(
			'The profile holds another value for this one portal field: initialProvisioningUrl of External provisioning on SSO is “https://b.example.com/”. The portal keeps one: make them the same.'
		);
		expect(portalSheetMarkdown('p', 1, [both!])).toContain('**The profile holds another value');
	});

	it('writes Markdown whose code blocks carry any value, backticks included', () => {
		const markdown = portalSheetMarkdown('Acme *prod*', 3, portalSheet(document));
		expect(markdown).toContain('# Portal fields of Acme \\*prod\\* (revision 3)');
		expect(markdown).toContain('## White-label configuration');
		expect(markdown).toContain('````text\ncode ```x``` `y`\n````');
		expect(markdown).toContain('_Not set._');
	});
});

describe('the second parser that reads every exported document', () => {
	it.each([
		['an ampersand before a space', '<account><password>pa55 & word</password></account>'],
		['an ampersand before a name', '<account><password>pa55&word</password></account>'],
		['a control character', '<account><apiUser>a\u0001</apiUser></account>'],
		['a lone surrogate', '<account><apiUser>a\ud800</apiUser></account>'],
		['an element left open', '<account><core></account>'],
		['a second root', '<account/><account/>']
	])('refuses %s', (_, xml) => {
		expect(() => readBySecondParser(xml)).toThrow('A second XML parser refuses the XML');
	});

	it('reads a well-formed export, and fails an export whose writer forgot to escape', () => {
		expect(
			readBySecondParser('<a b="&amp;&#38;">x &lt; y<![CDATA[ & ]]></a>').documentElement.tagName
		).toBe('a');
		const careless = checkedBySecondParser((value: string) => ({
			ok: true as const,
			value: `<account><password>${value}</password></account>`
		}));
		expect(careless('p@ss').ok).toBe(true);
		expect(() => careless('p@ss & 1')).toThrow('A second XML parser refuses the XML');
	});
});
