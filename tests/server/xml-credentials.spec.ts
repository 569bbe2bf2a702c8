import { readdir, readFile } from 'node:fs/promises';
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
import { stopAllServers, type Client, type TestServer } from '../helpers/server';
import { readBySecondParser } from '../helpers/xml';

/**
 * Credentials inside imported account XML (`<password>`, a provider's own `<apiPass>`) are
 * secrets: sealed at rest, shown to nobody (the mask), kept when the mask is saved back, masked
 * in diffs and reviews, and exported only when an admin asks for them (audited).
 */

const MASK = '\u2022'.repeat(8);
const PASSWORD = 'Xml-pa55&word-\u00e9';
const API_PASS = 'api-S3cret-9f2c';

const ACCOUNT_XML = `<?xml version="1.0" encoding="UTF-8"?>
<account>
	<username>5551234567</username>
	<password>${PASSWORD.replace('&', '&amp;')}</password>
	<apiUser>acme-bridge</apiUser>
	<apiPass>${API_PASS}</apiPass>
	<genericSmsSendUrl>https://sms.example.com/send?u=%account[apiUser]%&amp;to=%sms_to%</genericSmsSendUrl>
	<genericSmsSendPostData>pass=%account[apiPass]%&amp;body=%sms_body%</genericSmsSendPostData>
</account>
`;

let server: TestServer;
let admin: Client;
let viewer: TestUser;
let editor: TestUser;
let id: string;

beforeAll(async () => {
	({ server, admin } = await serverWithAdmin());
	[viewer, editor] = await Promise.all([
		createUser(admin, 'viewer', 'viewer@example.test'),
		createUser(admin, 'editor', 'editor@example.test')
	]);
	id = await createProfile(editor.client, 'Bridge', profileDocument());
});

afterAll(stopAllServers);

function exposes(text: string): boolean {
	return text.includes(PASSWORD) || text.includes('pa55&amp;word') || text.includes(API_PASS);
}

async function filesUnder(dir: string): Promise<string[]> {
	const entries = await readdir(dir, { withFileTypes: true, recursive: true });
	return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('credentials in imported account XML', () => {
	it('are masked in the review and in the applied profile, for the editor who imported them', async () => {
		const review = await editor.client.fetch(`/api/import?profile=${id}`, {
			method: 'POST',
			headers: { 'content-type': 'application/xml' },
			body: ACCOUNT_XML
		});
		const reviewText = await review.text();
		expect(review.status, reviewText).toBe(200);
		expect(exposes(reviewText)).toBe(false);
		expect(reviewText).toContain(`<password>${MASK}</password>`);
		expect(reviewText).toContain('xml_account_values');

		const applied = await editor.client.json<{ profile: { document: ProfileDocument } }>(
			`/api/profiles/${id}/import`,
			{ method: 'POST', json: { baseRevision: 1, xml: ACCOUNT_XML } }
		);
		expect(applied.status, applied.text).toBe(200);
		expect(exposes(applied.text)).toBe(false);
		expect(applied.body.profile.document.preservedXml.map((p) => p.xml)).toEqual([
			'<username>5551234567</username>',
			`<password>${MASK}</password>`,
			'<apiUser>acme-bridge</apiUser>',
			`<apiPass>${MASK}</apiPass>`
		]);
	});

	it('are never shown to a viewer, and not in the revision diff', async () => {
		const profile = await viewer.client.json(`/api/profiles/${id}`);
		expect(profile.status).toBe(200);
		expect(exposes(profile.text)).toBe(false);
		expect(profile.text).toContain(`<apiPass>${MASK}</apiPass>`);
		const diff = await viewer.client.json(`/api/profiles/${id}/diff?from=1&to=2`);
		expect(diff.status).toBe(200);
		expect(exposes(diff.text)).toBe(false);
		expect(diff.text).toContain(`<password>${MASK}</password>`);
	});

	it('are left out of an export, and exported only for an admin who confirms (audited)', async () => {
		for (const client of [viewer.client, editor.client, admin]) {
			const plain = await client.fetch(`/api/profiles/${id}/export.xml?form=account`);
			const text = await plain.text();
			expect(plain.status).toBe(200);
			readBySecondParser(text);
			expect(exposes(text)).toBe(false);
			expect(text).not.toContain('<password');
			expect(text).not.toContain(MASK);
			expect(text).toContain('<apiUser>acme-bridge</apiUser>');
		}
		for (const client of [viewer.client, editor.client]) {
			const refused = await client.json(`/api/profiles/${id}/export.xml/secrets`, {
				method: 'POST',
				json: { form: 'account', confirm: true }
			});
			expect(refused.status).toBe(403);
		}
		const unconfirmed = await admin.json(`/api/profiles/${id}/export.xml/secrets`, {
			method: 'POST',
			json: { form: 'account' }
		});
		expect(unconfirmed.status).toBe(400);
		const withSecrets = await admin.fetch(`/api/profiles/${id}/export.xml/secrets`, {
			method: 'POST',
			json: { form: 'account', confirm: true }
		});
		expect(withSecrets.status).toBe(200);
		expect(withSecrets.headers.get('content-disposition')).toContain(
			'Bridge-account-with-secrets.xml'
		);
		const text = await withSecrets.text();
		// The password's & is escaped: a second parser reads the document and the password back.
		const read = readBySecondParser(text);
		expect(read.getElementsByTagName('password')[0].textContent).toBe(PASSWORD);
		expect(text).toContain(`\t<password>Xml-pa55&amp;word-\u00e9</password>\n`);
		expect(text).toContain(`\t<apiPass>${API_PASS}</apiPass>\n`);
		const log = await admin.json('/api/audit?action=profile.exported_with_secrets');
		expect(log.body.entries?.filter((e) => e.target === id)).toEqual([
			expect.objectContaining({
				actor: 'admin@example.test',
				details: { form: 'account', revision: 2, requestId: expect.any(String) }
			})
		]);
	});

	it('keep their stored value when the masked document is saved back', async () => {
		const current = await editor.client.json<{ profile: { document: ProfileDocument } }>(
			`/api/profiles/${id}`
		);
		const document = current.body.profile.document;
		const saved = await editor.client.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: {
				baseRevision: 2,
				document: { ...document, rawSubstitution: true },
				message: 'Raw'
			}
		});
		expect(saved.status, saved.text).toBe(200);
		const diff = await viewer.client.json(`/api/profiles/${id}/diff?from=2&to=3`);
		expect(diff.body.changes?.map((c) => c.path)).toEqual(['rawSubstitution']);
		const withSecrets = await admin.fetch(`/api/profiles/${id}/export.xml/secrets`, {
			method: 'POST',
			json: { form: 'provisioning', confirm: true }
		});
		const text = await withSecrets.text();
		expect(withSecrets.status).toBe(200);
		expect(readBySecondParser(text).getElementsByTagName('apiPass')[0].textContent).toBe(API_PASS);
		expect(text).toContain(`<apiPass>${API_PASS}</apiPass>`);
	});

	it('are not in plain text in any file of the data directory, nor in the output', async () => {
		for (const file of await filesUnder(server.dataDir)) {
			const bytes = await readFile(file);
			for (const secret of [PASSWORD, 'pa55&amp;word', API_PASS]) {
				expect(bytes.includes(Buffer.from(secret)), `${secret} in ${file}`).toBe(false);
			}
		}
		expect(exposes(server.stdout() + server.stderr())).toBe(false);
	});
});
