import { readdir, readFile, stat } from 'node:fs/promises';
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

/**
 * Profiles through the API of the real server: lifecycle, revisions, conflicts, validation,
 * sealed secrets and the audit trail.
 */

const MASK = '\u2022'.repeat(8);
const PASSWORD_PATH = 'scenarios["Text message"].values.account[password]';
const PASSWORD_LABEL = 'Scenario “Text message” · %account[password]%';
const BODY_PATH = 'scenarios["Text message"].values.sms_body';
/** A secret sample value; it must never be readable anywhere but inside the server. */
const PLAIN = 'Pl41n-S3cret-\u00e9-value';
const PLAIN_2 = 'An0ther-S3cret-value';

let server: TestServer;
let admin: Client;
let viewer: TestUser;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
	({ server, admin } = await serverWithAdmin());
	[viewer, alice, bob] = await Promise.all([
		createUser(admin, 'viewer', 'viewer@example.test'),
		createUser(admin, 'editor', 'alice@example.test'),
		createUser(admin, 'editor', 'bob@example.test')
	]);
});

afterAll(stopAllServers);

/** Saves `document` on top of `baseRevision` and expects it to land. */
async function save(
	client: Client,
	id: string,
	baseRevision: number,
	document: ProfileDocument,
	message?: string
): Promise<number> {
	const answer = await client.json(`/api/profiles/${id}`, {
		method: 'PUT',
		json: { baseRevision, document, message }
	});
	expect(answer.status, JSON.stringify(answer.body)).toBe(200);
	return answer.body.profile!.revision;
}

/** The document with the secret in the place where the API shows the mask. */
function masked(document: ProfileDocument): ProfileDocument {
	return {
		...document,
		scenarios: document.scenarios.map((s) => ({
			...s,
			values: Object.fromEntries(
				Object.entries(s.values).map(([k, v]) => [k, k === 'account[password]' && v ? MASK : v])
			)
		}))
	};
}

async function filesUnder(dir: string): Promise<string[]> {
	const entries = await readdir(dir, { withFileTypes: true, recursive: true });
	return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('profile lifecycle', () => {
	it('creates a profile at revision 1 with the document sent, listed for every role', async () => {
		const document = profileDocument({ sms_body: 'Hello' });
		const created = await alice.client.json('/api/profiles', {
			method: 'POST',
			json: { name: 'Acme', document }
		});
		expect(created.status).toBe(201);
		expect(created.body.profile).toMatchObject({
			name: 'Acme',
			revision: 1,
			headRevision: 1,
			author: 'alice',
			message: 'Created',
			deletedAt: null,
			document
		});
		const listed = await viewer.client.json('/api/profiles');
		expect(listed.body.profiles?.map((p) => p.id)).toContain(created.body.profile!.id);
	});

	it('creates an empty profile when no document is sent', async () => {
		const created = await alice.client.json('/api/profiles', {
			method: 'POST',
			json: { name: 'Empty' }
		});
		expect(created.status).toBe(201);
		expect(created.body.profile?.document).toEqual({
			version: 1,
			services: {},
			push: { gatewayUrl: '', appId: '', target: 'unknown' },
			scenarios: [],
			rawSubstitution: false,
			preservedXml: []
		});
	});

	it('duplicates a profile with its document and its secret (duplicateOf)', async () => {
		const document = profileDocument({ 'account[password]': PLAIN, sms_body: 'Copy me' });
		const source = await createProfile(alice.client, 'Original', document);
		const copy = await bob.client.json('/api/profiles', {
			method: 'POST',
			json: { name: 'Copy', duplicateOf: source }
		});
		expect(copy.status).toBe(201);
		expect(copy.body.profile?.id).not.toBe(source);
		expect(copy.body.profile).toMatchObject({
			name: 'Copy',
			revision: 1,
			message: 'Duplicated',
			document: masked(document)
		});
		const missing = await bob.client.json('/api/profiles', {
			method: 'POST',
			json: { name: 'Copy', duplicateOf: '00000000-0000-4000-8000-000000000000' }
		});
		expect(missing.status).toBe(404);
	});

	it('renames without a new revision (PATCH name)', async () => {
		const id = await createProfile(alice.client, 'Before');
		const renamed = await bob.client.json(`/api/profiles/${id}`, {
			method: 'PATCH',
			json: { name: 'After' }
		});
		expect(renamed.status).toBe(200);
		expect(renamed.body.profile).toMatchObject({ name: 'After', headRevision: 1 });
		expect((await viewer.client.json(`/api/profiles/${id}`)).body.profile?.name).toBe('After');
	});

	it('deletes softly: listed with ?deleted=1, unsaveable, and undeleted with PATCH', async () => {
		const id = await createProfile(alice.client, 'Doomed');
		const deleted = await bob.client.fetch(`/api/profiles/${id}`, { method: 'DELETE' });
		expect(deleted.status).toBe(204);

		const live = await viewer.client.json('/api/profiles');
		expect(live.body.profiles?.map((p) => p.id)).not.toContain(id);
		const gone = await viewer.client.json('/api/profiles?deleted=1');
		expect(gone.body.profiles?.find((p) => p.id === id)?.deletedAt).toEqual(expect.any(Number));

		const saveDeleted = await alice.client.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: { baseRevision: 1, document: profileDocument() }
		});
		expect(saveDeleted.status).toBe(404);
		expect((await bob.client.json(`/api/profiles/${id}`, { method: 'DELETE' })).status).toBe(404);

		const undeleted = await bob.client.json(`/api/profiles/${id}`, {
			method: 'PATCH',
			json: { deleted: false }
		});
		expect(undeleted.status).toBe(200);
		expect(undeleted.body.profile?.deletedAt).toBeNull();
		const back = await viewer.client.json('/api/profiles');
		expect(back.body.profiles?.map((p) => p.id)).toContain(id);
		expect((await viewer.client.json('/api/profiles?deleted=1')).body.profiles).not.toContainEqual(
			expect.objectContaining({ id })
		);
	});

	it('answers 404 for unknown profiles', async () => {
		const unknown = '00000000-0000-4000-8000-000000000000';
		for (const suffix of ['', '/revisions', '/revisions/1', '/diff?from=1&to=1']) {
			expect((await viewer.client.json(`/api/profiles/${unknown}${suffix}`)).status).toBe(404);
		}
		const patch = await alice.client.json(`/api/profiles/${unknown}`, {
			method: 'PATCH',
			json: { name: 'x' }
		});
		expect(patch.status).toBe(404);
	});
});

describe('revisions', () => {
	let id: string;
	const v1 = profileDocument({ sms_body: 'one' });
	const v2 = profileDocument({ sms_body: 'two', sms_from: 'Acme' });
	const v3 = profileDocument({ sms_body: 'three' });

	beforeAll(async () => {
		id = await createProfile(alice.client, 'History', v1);
		await save(bob.client, id, 1, v2, 'second');
		await save(alice.client, id, 2, v3);
	});

	it('lists the revisions newest first with author and message', async () => {
		const answer = await viewer.client.json(`/api/profiles/${id}/revisions`);
		expect(answer.status).toBe(200);
		expect(answer.body.revisions?.map((r) => [r.revision, r.authorName, r.message])).toEqual([
			[3, 'alice', null],
			[2, 'bob', 'second'],
			[1, 'alice', 'Created']
		]);
		expect(JSON.stringify(answer.body)).not.toContain('"document"');
	});

	it('shows one revision as it was', async () => {
		const answer = await viewer.client.json(`/api/profiles/${id}/revisions/2`);
		expect(answer.status).toBe(200);
		expect(answer.body.profile).toMatchObject({ revision: 2, headRevision: 3, document: v2 });
		expect((await viewer.client.json(`/api/profiles/${id}/revisions/9`)).status).toBe(404);
		expect((await viewer.client.json(`/api/profiles/${id}/revisions/two`)).status).toBe(404);
	});

	it('diffs two revisions field by field', async () => {
		const answer = await viewer.client.json(`/api/profiles/${id}/diff?from=1&to=2`);
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({ from: 1, to: 2 });
		expect(answer.body.changes).toEqual([
			{
				path: 'scenarios["Text message"].values.sms_body',
				label: 'Scenario “Text message” · %sms_body%',
				kind: 'changed',
				before: 'one',
				after: 'two'
			},
			{
				path: 'scenarios["Text message"].values.sms_from',
				label: 'Scenario “Text message” · %sms_from%',
				kind: 'added',
				after: 'Acme'
			}
		]);
		const back = await viewer.client.json(`/api/profiles/${id}/diff?from=2&to=3`);
		expect(back.body.changes?.find((c) => c.path.endsWith('sms_from'))).toMatchObject({
			kind: 'removed',
			before: 'Acme'
		});
		expect((await viewer.client.json(`/api/profiles/${id}/diff?from=1&to=2`)).status).toBe(200);
		expect((await viewer.client.json(`/api/profiles/${id}/diff?from=a&to=2`)).status).toBe(400);
	});

	it('restores an old revision as a new revision with the same document', async () => {
		const restored = await alice.client.json(`/api/profiles/${id}/revisions/1/restore`, {
			method: 'POST'
		});
		expect(restored.status).toBe(200);
		expect(restored.body.profile).toMatchObject({
			revision: 4,
			headRevision: 4,
			message: 'Restored revision 1',
			document: v1
		});
		const diff = await viewer.client.json(`/api/profiles/${id}/diff?from=1&to=4`);
		expect(diff.body.changes).toEqual([]);
		const head = await viewer.client.json(`/api/profiles/${id}`);
		expect(head.body.profile?.document).toEqual(v1);
		const old = await viewer.client.json(`/api/profiles/${id}/revisions/3`);
		expect(old.body.profile?.document).toEqual(v3);
	});
});

describe('concurrent saves', () => {
	it('land exactly one of two saves on the same base; the other gets 409 with both', async () => {
		const id = await createProfile(alice.client, 'Contended');
		const mine = profileDocument({ sms_body: 'from alice' });
		const theirs = profileDocument({ sms_body: 'from bob' });
		const answers = await Promise.all([
			alice.client.json(`/api/profiles/${id}`, {
				method: 'PUT',
				json: { baseRevision: 1, document: mine }
			}),
			bob.client.json(`/api/profiles/${id}`, {
				method: 'PUT',
				json: { baseRevision: 1, document: theirs }
			})
		]);
		expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
		const winner = answers.findIndex((a) => a.status === 200);
		const won = answers[winner];
		const lost = answers[1 - winner];
		const wonDocument = winner === 0 ? mine : theirs;
		const lostDocument = winner === 0 ? theirs : mine;

		expect(won.body.profile).toMatchObject({ revision: 2, document: wonDocument });
		expect(lost.body.error?.code).toBe('conflict');
		expect(lost.body.current).toMatchObject({ revision: 2, document: wonDocument });
		expect(lost.body.yours).toEqual(lostDocument);

		const head = await viewer.client.json(`/api/profiles/${id}`);
		expect(head.body.profile).toMatchObject({
			revision: 2,
			headRevision: 2,
			document: wonDocument
		});
		const revisions = await viewer.client.json(`/api/profiles/${id}/revisions`);
		expect(revisions.body.revisions?.map((r) => r.revision)).toEqual([2, 1]);
	});

	it('refuses a save on a stale base even when sent later (409), writing nothing', async () => {
		const id = await createProfile(alice.client, 'Stale');
		await save(alice.client, id, 1, profileDocument({ sms_body: 'first' }));
		const stale = await bob.client.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: { baseRevision: 1, document: profileDocument({ sms_body: 'late' }) }
		});
		expect(stale.status).toBe(409);
		expect(stale.body.current?.document.scenarios[0].values.sms_body).toBe('first');
		const head = await viewer.client.json(`/api/profiles/${id}`);
		expect(head.body.profile?.headRevision).toBe(2);
	});
});

describe('saves on an older revision', () => {
	const URL_PATH = 'services.sendMessage.genericSmsSendUrl';

	function withSettings(settings: Record<string, string>, values: Record<string, string> = {}) {
		const document = profileDocument(values);
		document.services.sendMessage = { ...document.services.sendMessage, ...settings };
		return document;
	}

	it('merge field by field: their URL and my body are both kept', async () => {
		const id = await createProfile(alice.client, 'Merged');
		await save(alice.client, id, 1, withSettings({ genericSmsSendUrl: 'https://new.test/' }));
		const mine = withSettings({ genericSmsSendPostData: '{"mine":1}' });
		const answer = await bob.client.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: { baseRevision: 1, document: mine }
		});
		expect(answer.status, JSON.stringify(answer.body)).toBe(200);
		expect(answer.body.profile?.revision).toBe(3);
		expect(answer.body.profile?.document.services.sendMessage).toEqual({
			...profileDocument().services.sendMessage,
			genericSmsSendUrl: 'https://new.test/',
			genericSmsSendPostData: '{"mine":1}'
		});
		expect(answer.body.merged).toEqual({ base: 1, theirs: 2, fromTheirs: [URL_PATH], chosen: [] });
	});

	it('answer 409 naming only the field both changed, and save with a choice for it', async () => {
		const id = await createProfile(alice.client, 'Both changed');
		await save(
			alice.client,
			id,
			1,
			withSettings({ genericSmsSendUrl: 'https://theirs.test/' }, { sms_body: 'theirs' })
		);
		const mine = withSettings({ genericSmsSendUrl: 'https://mine.test/' }, { sms_to: '+1' });
		const refused = await bob.client.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: { baseRevision: 1, document: mine }
		});
		expect(refused.status).toBe(409);
		expect(refused.body.error?.message).toContain('Send Message · URL');
		expect(refused.body.conflicts).toEqual([
			{
				path: URL_PATH,
				label: 'Send Message · URL',
				base: 'https://sms.example.com/send?to=%sms_to%',
				mine: 'https://mine.test/',
				theirs: 'https://theirs.test/',
				secret: false
			}
		]);
		expect((await viewer.client.json(`/api/profiles/${id}`)).body.profile?.headRevision).toBe(2);

		// Choices made for another head are not applied.
		const stale = await bob.client.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: {
				baseRevision: 1,
				document: mine,
				choices: { [URL_PATH]: 'theirs' },
				theirsRevision: 1
			}
		});
		expect(stale.status).toBe(409);

		const chosen = await bob.client.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: {
				baseRevision: 1,
				document: mine,
				choices: { [URL_PATH]: 'theirs' },
				theirsRevision: 2
			}
		});
		expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
		const document = chosen.body.profile!.document;
		expect(document.services.sendMessage?.genericSmsSendUrl).toBe('https://theirs.test/');
		expect(document.scenarios[0].values).toEqual({ sms_to: '+1', sms_body: 'theirs' });
		expect(chosen.body.merged?.chosen).toEqual([URL_PATH]);
	});

	it('keep a secret they changed when mine sends the mask, and conflict when both typed one', async () => {
		const id = await createProfile(
			alice.client,
			'Merged secrets',
			profileDocument({ 'account[password]': PLAIN })
		);
		await save(alice.client, id, 1, profileDocument({ 'account[password]': PLAIN_2 }));
		// Bob still sees the mask of revision 1 and changes only the body.
		const mine = masked(profileDocument({ 'account[password]': PLAIN, sms_body: 'bob' }));
		const merged = await bob.client.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: { baseRevision: 1, document: mine }
		});
		expect(merged.status, JSON.stringify(merged.body)).toBe(200);
		expect(merged.body.merged?.fromTheirs).toEqual([PASSWORD_PATH]);
		const diff = await viewer.client.json(`/api/profiles/${id}/diff?from=2&to=3`);
		// The password stays the one saved in revision 2: only the body changed.
		expect(diff.body.changes?.map((c) => c.path)).toEqual([BODY_PATH]);

		const typed = await bob.client.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: { baseRevision: 1, document: profileDocument({ 'account[password]': 'typed-by-bob' }) }
		});
		expect(typed.status).toBe(409);
		expect(typed.body.conflicts).toEqual([
			{
				path: PASSWORD_PATH,
				label: 'Scenario “Text message” · %account[password]%',
				base: MASK,
				mine: MASK,
				theirs: MASK,
				secret: true
			}
		]);
		expect(typed.text).not.toContain('typed-by-bob');
		expect(typed.text).not.toContain(PLAIN_2);
	});
});

describe('bad input', () => {
	let id: string;
	beforeAll(async () => {
		id = await createProfile(alice.client, 'Validated');
	});

	const document = profileDocument();
	it.each([
		['no base revision', { document }, ['baseRevision']],
		['a base revision of 0', { baseRevision: 0, document }, ['baseRevision']],
		['no document', { baseRevision: 1 }, ['document']],
		[
			'an unknown push target',
			{ baseRevision: 1, document: { ...document, push: { ...document.push, target: 'x' } } },
			['document', 'push', 'target']
		],
		[
			'an unknown service',
			{ baseRevision: 1, document: { ...document, services: { nope: {} } } },
			['document', 'services']
		],
		[
			'two scenarios with one name',
			{
				baseRevision: 1,
				document: { ...document, scenarios: [document.scenarios[0], document.scenarios[0]] }
			},
			['document', 'scenarios', 1, 'name']
		],
		[
			'a secret that is not text',
			{
				baseRevision: 1,
				document: {
					...document,
					scenarios: [{ name: 'S', values: { 'account[password]': [PLAIN] } }]
				}
			},
			['document', 'scenarios', 0, 'values', 'account[password]']
		]
	])('refuses %s with 400 and issues { code, path, message }', async (_, body, where) => {
		const answer = await alice.client.json(`/api/profiles/${id}`, { method: 'PUT', json: body });
		expect(answer.status).toBe(400);
		expect(answer.body.error?.code).toBe('invalid_input');
		expect(answer.body.issues?.length).toBeGreaterThan(0);
		for (const issue of answer.body.issues ?? []) {
			expect(issue).toEqual({
				code: expect.any(String),
				path: expect.any(Array),
				message: expect.any(String)
			});
		}
		expect(answer.body.issues?.map((i) => i.path)).toContainEqual(where);
		expect((await viewer.client.json(`/api/profiles/${id}`)).body.profile?.headRevision).toBe(1);
	});

	it('refuses a body that is not JSON (400 invalid_json)', async () => {
		const answer = await alice.client.json(`/api/profiles/${id}`, {
			method: 'PUT',
			body: '{"baseRevision": 1,',
			headers: { 'content-type': 'application/json' }
		});
		expect(answer.status).toBe(400);
		expect(answer.body.issues).toEqual([
			{ code: 'invalid_json', path: [], message: expect.any(String) }
		]);
	});

	it('refuses a JSON body that is not UTF-8, saying where, instead of reading replacement characters', async () => {
		// {"name":"caf<0xE9>"}: Latin-1, as a careless client might send it.
		const body = Buffer.from('{"name":"caf\u00e9"}', 'latin1');
		const answer = await alice.client.json(`/api/profiles/${id}`, {
			method: 'PATCH',
			body: body as unknown as string,
			headers: { 'content-type': 'application/json' }
		});
		expect(answer.status).toBe(400);
		expect(answer.body.issues).toEqual([
			{
				code: 'invalid_json',
				path: [],
				message: 'The body is not valid UTF-8: byte 0xE9 at offset 12 (line 1, column 13).'
			}
		]);
		const profile = await alice.client.json(`/api/profiles/${id}`);
		expect(profile.body.profile?.name).not.toContain('caf');
	});

	it('refuses an empty name on create and rename', async () => {
		const created = await alice.client.json('/api/profiles', {
			method: 'POST',
			json: { name: '   ' }
		});
		expect(created.status).toBe(400);
		expect(created.body.issues?.[0].path).toEqual(['name']);
		const renamed = await alice.client.json(`/api/profiles/${id}`, {
			method: 'PATCH',
			json: {}
		});
		expect(renamed.status).toBe(400);
	});
});

describe('secret sample values', () => {
	let id: string;
	const withSecret = profileDocument({ 'account[password]': PLAIN, sms_body: 'v1' });

	beforeAll(async () => {
		id = await createProfile(alice.client, 'Secretive', withSecret);
		// The mask sent back keeps the value; a new value replaces it; a conflict writes nothing.
		await save(
			alice.client,
			id,
			1,
			masked(profileDocument({ 'account[password]': PLAIN, sms_body: 'v2' }))
		);
		await save(
			alice.client,
			id,
			2,
			profileDocument({ 'account[password]': PLAIN_2, sms_body: 'v2' })
		);
		await save(alice.client, id, 3, profileDocument({ 'account[password]': '', sms_body: 'v2' }));
		await admin.json(`/api/profiles/${id}/revisions/1/restore`, { method: 'POST' });
	});

	it('come back as the mask to every role, at the head and at every revision', async () => {
		for (const client of [viewer.client, alice.client, admin]) {
			const head = await client.json(`/api/profiles/${id}`);
			expect(head.body.profile?.document).toEqual(masked(withSecret));
			for (const rev of [1, 2, 3]) {
				const answer = await client.json(`/api/profiles/${id}/revisions/${rev}`);
				expect(answer.body.profile?.document.scenarios[0].values['account[password]']).toBe(MASK);
			}
			const removed = await client.json(`/api/profiles/${id}/revisions/4`);
			expect(removed.body.profile?.document.scenarios[0].values['account[password]']).toBe('');
		}
	});

	it('keep the stored value when the mask is sent back (no change in the diff)', async () => {
		const kept = await viewer.client.json(`/api/profiles/${id}/diff?from=1&to=2`);
		expect(kept.body.changes?.map((c) => c.path)).toEqual([BODY_PATH]);
		const replaced = await viewer.client.json(`/api/profiles/${id}/diff?from=2&to=3`);
		expect(replaced.body.changes).toEqual([
			{ path: PASSWORD_PATH, label: PASSWORD_LABEL, kind: 'changed', before: MASK, after: MASK }
		]);
		const removed = await viewer.client.json(`/api/profiles/${id}/diff?from=3&to=4`);
		expect(removed.body.changes).toEqual([
			{ path: PASSWORD_PATH, label: PASSWORD_LABEL, kind: 'changed', before: MASK, after: '' }
		]);
		const restored = await viewer.client.json(`/api/profiles/${id}/diff?from=1&to=5`);
		expect(restored.body.changes).toEqual([]);
	});

	it('are not in plain text in any file of the data directory, nor in the output', async () => {
		const files = await filesUnder(server.dataDir);
		expect(files.map((f) => path.basename(f))).toEqual(
			expect.arrayContaining(['provisioning.db', 'secret.key'])
		);
		for (const file of files) {
			const bytes = await readFile(file);
			for (const secret of [PLAIN, PLAIN_2]) {
				expect(bytes.includes(Buffer.from(secret)), `${secret} in ${file}`).toBe(false);
				expect(bytes.includes(Buffer.from(secret, 'utf16le')), `${secret} in ${file}`).toBe(false);
			}
		}
		for (const output of [server.stdout(), server.stderr()]) {
			expect(output).not.toContain(PLAIN);
			expect(output).not.toContain(PLAIN_2);
		}
	});

	it('are sealed with a key that is only in secret.key, mode 0600', async () => {
		const keyFile = path.join(server.dataDir, 'secret.key');
		expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
		const key = (await readFile(keyFile, 'utf8')).trim();
		expect(Buffer.from(key, 'base64')).toHaveLength(32);
		for (const file of await filesUnder(server.dataDir)) {
			if (file === keyFile) continue;
			const bytes = await readFile(file);
			expect(bytes.includes(Buffer.from(key)), `the key in ${file}`).toBe(false);
			expect(bytes.includes(Buffer.from(key, 'base64')), `the raw key in ${file}`).toBe(false);
		}
	});

	it('are kept for scenarios named __proto__ or constructor, and stay in their profile', async () => {
		const odd = profileDocument();
		odd.scenarios = [
			{ name: '__proto__', values: { 'account[password]': PLAIN } },
			{ name: 'constructor', values: { 'account[password]': PLAIN_2 } }
		];
		const oddId = await createProfile(alice.client, 'Odd names', odd);
		const shown = (await viewer.client.json(`/api/profiles/${oddId}`)).body.profile?.document;
		expect(shown?.scenarios.map((s) => s.values['account[password]'])).toEqual([MASK, MASK]);

		// A mask sent where this profile stored nothing must not pick up anything.
		const other = profileDocument({ 'account[cloud_password]': 'cloud-secret-1' });
		const otherId = await createProfile(bob.client, 'Neighbour', other);
		const maskOnly = profileDocument({
			'account[cloud_password]': MASK,
			'account[password]': MASK
		});
		await save(bob.client, otherId, 1, maskOnly);
		const values = (await viewer.client.json(`/api/profiles/${otherId}`)).body.profile?.document
			.scenarios[0].values;
		expect(values?.['account[cloud_password]']).toBe(MASK);
		expect(values?.['account[password]']).toBe('');
	});

	it('are kept by a duplicate, and replaced or masked like the original', async () => {
		const copy = await alice.client.json('/api/profiles', {
			method: 'POST',
			json: { name: 'Secret copy', duplicateOf: id }
		});
		const copyId = copy.body.profile!.id;
		expect(copy.body.profile?.document).toEqual(masked(withSecret));
		await save(alice.client, copyId, 1, masked(withSecret), 'same');
		const diff = await viewer.client.json(`/api/profiles/${copyId}/diff?from=1&to=2`);
		expect(diff.body.changes).toEqual([]);
	});
});

describe('audit log of profiles', () => {
	let id: string;

	beforeAll(async () => {
		id = await createProfile(
			alice.client,
			'Audited',
			profileDocument({ 'account[password]': PLAIN })
		);
		await save(bob.client, id, 1, profileDocument({ 'account[password]': PLAIN_2 }));
		await alice.client.json(`/api/profiles/${id}/revisions/1/restore`, { method: 'POST' });
		await bob.client.json(`/api/profiles/${id}`, { method: 'PATCH', json: { name: 'Audited 2' } });
		await bob.client.fetch(`/api/profiles/${id}`, { method: 'DELETE' });
		await alice.client.json(`/api/profiles/${id}`, { method: 'PATCH', json: { deleted: false } });
	});

	it('records creates, saves, restores, renames, deletes and undeletes with the actor', async () => {
		const answer = await admin.json('/api/audit?action=profile.&limit=1000');
		expect(answer.status).toBe(200);
		const mine = (answer.body.entries ?? [])
			.filter((e) => e.target === id)
			.reverse()
			.map((e) => [e.action, e.actor]);
		expect(mine).toEqual([
			['profile.created', 'alice@example.test'],
			['profile.saved', 'bob@example.test'],
			['profile.restored', 'alice@example.test'],
			['profile.renamed', 'bob@example.test'],
			['profile.deleted', 'bob@example.test'],
			['profile.undeleted', 'alice@example.test']
		]);
		expect(answer.body.entries?.every((e) => e.action.startsWith('profile.'))).toBe(true);
		const saved = answer.body.entries?.find((e) => e.target === id && e.action === 'profile.saved');
		expect(saved).toMatchObject({ actorId: bob.id, ip: expect.any(String) });
		expect(saved?.details).toMatchObject({ revision: 2, base: 1 });
	});

	it('never contains a secret value', async () => {
		const answer = await admin.json('/api/audit?limit=1000');
		expect(answer.body.entries?.length).toBeGreaterThan(10);
		const text = JSON.stringify(answer.body);
		expect(text).not.toContain(PLAIN);
		expect(text).not.toContain(PLAIN_2);
		expect(text).not.toMatch(/-password-1/);
	});
});
