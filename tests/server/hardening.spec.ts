import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, profileDocument, serverWithAdmin } from '../helpers/fixtures';
import { Client, stopAllServers, type TestServer } from '../helpers/server';

/** Smaller protections: what a refusal may echo, what the audit log may hold, odd parameters. */

const MASK = '\u2022'.repeat(8);
const SECRET = 'N3w-secret-in-a-conflict';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
	({ server, admin } = await serverWithAdmin());
});

afterAll(stopAllServers);

describe('hardening', () => {
	it('masks the secrets of the refused document in a 409', async () => {
		const id = await createProfile(admin, 'Conflict secrets');
		const first = await admin.json(`/api/profiles/${id}`, {
			method: 'PUT',
			json: { baseRevision: 1, document: profileDocument({ sms_body: 'first' }) }
		});
		expect(first.status).toBe(200);
		const stale = await admin.json(`/api/profiles/${id}`, {
			method: 'PUT',
			// The body changed on both sides: a conflict, so nothing is merged or written.
			json: {
				baseRevision: 1,
				document: profileDocument({ 'account[password]': SECRET, sms_body: 'second' })
			}
		});
		expect(stale.status).toBe(409);
		expect(JSON.stringify(stale.body)).not.toContain(SECRET);
		expect(JSON.stringify(stale.body)).toContain(MASK);
	});

	it('keeps the database readable by the server user only', async () => {
		const mode = (await stat(path.join(server.dataDir, 'provisioning.db'))).mode & 0o777;
		expect(mode).toBe(0o600);
	});

	it('does not record a password typed in the e-mail box', async () => {
		const stray = 'my password 123';
		const anonymous = new Client(server);
		const failed = await anonymous.login(stray, 'whatever');
		expect(failed.status).toBe(401);
		const log = await admin.json('/api/audit?action=login.failure');
		expect(JSON.stringify(log.body)).not.toContain(stray);
		expect(JSON.stringify(log.body)).toContain('(not an e-mail address)');
	});

	it('clamps a negative audit limit to at least one entry', async () => {
		const log = await admin.json('/api/audit?limit=-5');
		expect(log.status).toBe(200);
		expect((log.body.entries as unknown[]).length).toBe(1);
	});

	it('answers 400 to a diff without revision numbers', async () => {
		const id = await createProfile(admin, 'Diff params');
		const answer = await admin.json(`/api/profiles/${id}/diff`);
		expect(answer.status).toBe(400);
	});

	it('refuses to duplicate a deleted profile', async () => {
		const id = await createProfile(admin, 'Deleted source');
		expect((await admin.fetch(`/api/profiles/${id}`, { method: 'DELETE' })).status).toBe(204);
		const copy = await admin.json('/api/profiles', {
			method: 'POST',
			json: { name: 'Copy', duplicateOf: id }
		});
		expect(copy.status).toBe(404);
	});
});
