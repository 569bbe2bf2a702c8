import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractProxy, type ContractProxy } from '../helpers/contract-proxy';
import { createUser, serverWithAdmin, type TestUser } from '../helpers/fixtures';
import { stopAllServers, type TestServer } from '../helpers/server';
import { readBySecondParser } from '../helpers/xml';
import { ensureBuilt, fixture, ROOT, run, tempDir } from './helpers';

/**
 * `render --server` and `export --server`: the real program against the real built app, started
 * here on port 0 with a fresh data directory. What the server renders and exports must be what
 * the program does on its own with the same input, byte for byte.
 */

let server: TestServer;
/** The app, seen through the check of every answer (the program runs as a process of its own). */
let api: ContractProxy;
let editor: TestUser;
let viewerToken: string;
let acmeId: string;
let work: { dir: string; remove: () => void };

async function tokenOf(user: TestUser): Promise<string> {
	const made = await user.client.json<{ token?: string }>('/api/tokens', {
		method: 'POST',
		json: { name: 'ci' }
	});
	if (made.status !== 201 || !made.body.token) throw new Error(`No token: ${made.status}`);
	return made.body.token;
}

/** A profile made on the server from an XML file, through the API's import (as a user would). */
async function importedProfile(name: string, file: string): Promise<string> {
	const created = await editor.client.json<{ profile?: { id: string; revision: number } }>(
		'/api/profiles',
		{ method: 'POST', json: { name } }
	);
	if (created.status !== 201 || !created.body.profile) throw new Error(`${created.status}`);
	const { id, revision } = created.body.profile;
	const imported = await editor.client.json(`/api/profiles/${id}/import`, {
		method: 'POST',
		json: { baseRevision: revision, xml: readFileSync(path.join(ROOT, file), 'utf8') }
	});
	if (imported.status !== 200) throw new Error(`import: ${imported.status}`);
	return id;
}

beforeAll(async () => {
	await ensureBuilt();
	let admin;
	({ server, admin } = await serverWithAdmin());
	api = await contractProxy(server.url);
	editor = await createUser(admin, 'editor', 'cli-render-editor@example.test');
	const viewer = await createUser(admin, 'viewer', 'cli-render-viewer@example.test');
	viewerToken = await tokenOf(viewer);
	acmeId = await importedProfile('Acme SMS', fixture('clean/acme.xml'));
	await importedProfile('Twice', fixture('clean/acme.xml'));
	await importedProfile('Twice', fixture('findings/bad.xml'));
	work = tempDir();
});

afterAll(async () => {
	await api.close();
	await stopAllServers();
	work.remove();
});

/** Runs the program with a viewer's token in the environment, as the documentation advises. */
function withToken(args: string[], env: Record<string, string> = {}) {
	return run(args, { env: { PROVISIONING_STUDIO_TOKEN: viewerToken, ...env } });
}

describe('render --server: the request built by a running app', () => {
	it('prints exactly what the local render prints, for files, scenarios, cURL and findings', async () => {
		const cases = [
			['render', fixture('clean/acme.xml'), '--service', 'sendMessage'],
			[
				'render',
				fixture('clean/acme.xml'),
				'--service',
				'sendMessage',
				'--scenario',
				'Two recipients',
				'--curl'
			],
			['render', fixture('clean/acme.xml'), '--service', 'pushTokenReporter'],
			['render', fixture('findings/bad.xml'), '--service', 'sendMessage'],
			['render', fixture('backup/acme-backup.json'), '--service', 'mediaRefSend']
		];
		for (const args of cases) {
			const local = await run(args);
			const remote = await withToken([...args, '--server', api.url]);
			expect(remote, args.join(' ')).toEqual(local);
			expect(local.code).toBe(0);
			expect(local.stdout).not.toBe('');
		}
		// The findings of the request go to stderr in both.
		const bad = await withToken([
			'render',
			fixture('findings/bad.xml'),
			'--service',
			'sendMessage',
			'--server',
			api.url
		]);
		expect(bad.stderr).toMatch(/warning: genericSmsSendUrl: %sms_too% is not known/);
	});

	it('masks a --secret the server built into the request, as the local render does', async () => {
		const args = [
			'render',
			fixture('clean/acme.xml'),
			'--service',
			'sendMessage',
			'--secret',
			'account[password]=PROV_PASS'
		];
		const env = { PROV_PASS: 's3cr3t-for-render' };
		const local = await run(args, { env });
		const remote = await withToken([...args, '--server', api.url], env);
		expect(remote).toEqual(local);
		expect(remote.stdout).toContain('"password": "••••••••"');
		expect(remote.stdout).not.toContain('s3cr3t');
	});

	it('renders a profile stored there (--profile, by id or name) as the local render of its backup', async () => {
		const backup = await editor.client.fetch(`/api/profiles/${acmeId}/backup`);
		expect(backup.status).toBe(200);
		const file = path.join(work.dir, 'acme-stored.json');
		writeFileSync(file, await backup.text());
		for (const scenario of [[], ['--scenario', 'Two recipients']]) {
			const local = await run(['render', file, '--service', 'sendMessage', ...scenario]);
			expect(local.code).toBe(0);
			for (const ref of [acmeId, 'Acme SMS']) {
				const remote = await withToken([
					'render',
					'--profile',
					ref,
					'--service',
					'sendMessage',
					...scenario,
					'--server',
					api.url
				]);
				expect(remote).toEqual(local);
			}
		}
		const unconfigured = await withToken([
			'render',
			'--profile',
			acmeId,
			'--service',
			'externalAuth',
			'--server',
			api.url
		]);
		expect(unconfigured.code).toBe(2);
		expect(unconfigured.stderr).toContain(
			`${api.url} profile ${acmeId} "Acme SMS" does not configure externalAuth`
		);
	});
});

describe('export --server: a stored profile exported by a running app', () => {
	it('writes what the local export of the same XML writes, in both forms', async () => {
		for (const form of ['provisioning', 'account']) {
			const local = await run(['export', fixture('clean/acme.xml'), '--form', form]);
			expect(local.code).toBe(0);
			// What the server writes is compared with this, byte for byte.
			expect(readBySecondParser(local.stdout).documentElement.tagName).toBe(form);
			for (const ref of [acmeId, 'Acme SMS']) {
				const remote = await withToken([
					'export',
					'--server',
					api.url,
					'--profile',
					ref,
					'--form',
					form
				]);
				expect(remote).toEqual(local);
			}
			const out = path.join(work.dir, `acme-${form}.xml`);
			const written = await withToken([
				'export',
				'--server',
				api.url,
				'--profile',
				acmeId,
				'--form',
				form,
				'--output',
				out
			]);
			expect(written).toEqual({ code: 0, stdout: '', stderr: '' });
			expect(readFileSync(out, 'utf8')).toBe(local.stdout);
		}
	});
});

/** A port nothing listens on: taken from the system, then closed. */
async function freedPort(): Promise<number> {
	const socket = createServer();
	await new Promise<void>((resolve) => socket.listen(0, '127.0.0.1', resolve));
	const { port } = socket.address() as { port: number };
	await new Promise((resolve) => socket.close(resolve));
	return port;
}

describe('render and export --server: errors', () => {
	it('a server that does not answer: exit code 4, naming it', async () => {
		const origin = `http://127.0.0.1:${await freedPort()}`;
		const render = await withToken([
			'render',
			fixture('clean/acme.xml'),
			'--service',
			'sendMessage',
			'--server',
			origin
		]);
		expect(render.code).toBe(4);
		expect(render.stdout).toBe('');
		expect(render.stderr).toBe(
			`provisioning-studio: Cannot reach ${origin} (POST /api/preview): ECONNREFUSED.\n`
		);
		const exported = await withToken([
			'export',
			'--server',
			origin,
			'--profile',
			'1',
			'--form',
			'account'
		]);
		expect(exported.code).toBe(4);
		expect(exported.stderr).toContain(`Cannot reach ${origin} (GET /api/profiles)`);
	});

	it('a refused token: exit code 2, the token never shown', async () => {
		const token = 'pst_not-a-real-token-0123456789';
		for (const args of [
			['render', fixture('clean/acme.xml'), '--service', 'sendMessage'],
			['export', '--profile', acmeId, '--form', 'account']
		]) {
			const result = await run([...args, '--server', api.url, '--token', token]);
			expect(result.code).toBe(2);
			expect(result.stdout).toBe('');
			expect(result.stderr).toContain(`${api.url} refused the API token pst_••••••••`);
			expect(result.stderr).not.toContain('not-a-real-token');
		}
	});

	it('no such profile: exit code 3; a name two profiles have: exit code 2', async () => {
		const missing = await withToken([
			'export',
			'--server',
			api.url,
			'--profile',
			'No such provider',
			'--form',
			'account'
		]);
		expect(missing.code).toBe(3);
		expect(missing.stderr).toContain(
			`${api.url} has no profile with the id or name "No such provider"`
		);
		expect(missing.stderr).toContain(`${acmeId} "Acme SMS"`);
		const byId = await withToken([
			'render',
			'--profile',
			'999999',
			'--service',
			'sendMessage',
			'--server',
			api.url
		]);
		expect(byId.code).toBe(3);
		expect(byId.stderr).toContain(`${api.url} has no profile with the id or name "999999"`);
		const twice = await withToken([
			'export',
			'--server',
			api.url,
			'--profile',
			'Twice',
			'--form',
			'account'
		]);
		expect(twice.code).toBe(2);
		expect(twice.stderr).toMatch(/has 2 profiles named "Twice": give --profile the id of one/);
	});

	it('--help of render and export names --server, --token and --profile', async () => {
		for (const command of ['render', 'export']) {
			const help = await run([command, '--help']);
			expect(help.code).toBe(0);
			expect(help.stdout).toContain(`provisioning-studio ${command} --`);
			for (const option of ['--server <origin>', '--token <api token>', '--profile <id|name>']) {
				expect(help.stdout, `${command} ${option}`).toContain(option);
			}
			expect(help.stdout).toContain('PROVISIONING_STUDIO_TOKEN');
		}
	});

	it('usage errors: exit code 2 with what to do', async () => {
		const cases: [string[], string][] = [
			[['export', '--profile', '1', '--form', 'account'], '--profile needs --server <origin>.'],
			[
				['render', '--profile', '1', '--service', 'sendMessage'],
				'--profile needs --server <origin>.'
			],
			[
				['export', fixture('clean/acme.xml'), '--form', 'account', '--server', api.url],
				'export --server exports a profile stored on that server: name it with --profile'
			],
			[
				[
					'render',
					fixture('clean/acme.xml'),
					'--profile',
					'1',
					'--service',
					'sendMessage',
					'--server',
					api.url
				],
				'render takes one file or --profile <id|name>, not both.'
			]
		];
		for (const [args, message] of cases) {
			const result = await withToken(args);
			expect(result.code, args.join(' ')).toBe(2);
			expect(result.stderr, args.join(' ')).toContain(message);
		}
		const noToken = await run([
			'render',
			fixture('clean/acme.xml'),
			'--service',
			'sendMessage',
			'--server',
			api.url
		]);
		expect(noToken.code).toBe(2);
		expect(noToken.stderr).toContain('--server needs an API token: set PROVISIONING_STUDIO_TOKEN');
	});
});
