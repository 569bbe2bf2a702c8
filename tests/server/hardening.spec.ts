import { stat } from 'node:fs/promises';
import { connect } from 'node:net';
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
		expect(JSON.stringify(log.body)).toContain('(unknown address)');
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

/** One request sent as written, path untouched (fetch would normalise it): status and text. */
function rawRequest(
	port: number,
	method: string,
	target: string,
	headers: Record<string, string>,
	body = ''
): Promise<{ status: number; text: string }> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1');
		const lines = Object.entries({
			host: `127.0.0.1:${port}`,
			connection: 'close',
			'content-length': String(Buffer.byteLength(body)),
			...headers
		}).map(([name, value]) => `${name}: ${value}`);
		socket.write(`${method} ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
		let text = '';
		socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
		socket.on('error', reject).on('close', () => {
			resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
		});
	});
}

describe('paths with dot segments', () => {
	const EVIL = { origin: 'https://evil.example' };

	it('are refused before anything else, raw or percent-encoded: no sink exemption reaches the API', async () => {
		const cookie = `ps_session=${admin.session}`;
		const tokens = async () => (await admin.json('/api/tokens')).body.tokens?.length;
		const before = await tokens();
		const json = { ...EVIL, cookie, 'content-type': 'application/json' };
		for (const target of [
			'/sink/../api/tokens',
			'/sink/%2e%2e/api/tokens',
			'/sink/%2E%2E/api/tokens',
			'/sink/.%2E/api/tokens',
			'/sink/%2e./api/tokens',
			'/sink/x/../../api/tokens',
			'/sink/..\\api/tokens',
			'/sink/x%5c..%5c..%5capi/tokens',
			'/sandbox/../api/tokens',
			'/./api/tokens',
			'/api/%2e/tokens',
			'/sink/..%2fapi/tokens',
			'http://127.0.0.1/sink/../api/tokens'
		]) {
			const answer = await rawRequest(server.port, 'POST', target, json, '{"name":"dots"}');
			expect({ target, status: answer.status }).toEqual({ target, status: 400 });
			expect(answer.text).toContain('"code":"bad_path"');
		}
		const form = { ...EVIL, cookie, 'content-type': 'application/x-www-form-urlencoded' };
		for (const target of ['/sink/../account?/createToken', '/sink/%2e%2e/account?/createToken']) {
			const answer = await rawRequest(server.port, 'POST', target, form, 'name=dots');
			expect({ target, status: answer.status }).toEqual({ target, status: 400 });
		}
		expect(await tokens()).toBe(before);
	});

	it('leave dots inside a segment and in the query alone', async () => {
		const made = await admin.json<{ sink: { key: string; path: string } }>('/api/sinks', {
			method: 'POST',
			json: { name: 'Dots' }
		});
		expect(made.status).toBe(201);
		for (const rest of ['file.json', '...', '..x/.y', 'a%2Fb', 'a?next=/../x']) {
			const answer = await rawRequest(server.port, 'GET', `${made.body.sink.path}${rest}`, EVIL);
			expect({ rest, status: answer.status }).toEqual({ rest, status: 200 });
		}
	});
});
