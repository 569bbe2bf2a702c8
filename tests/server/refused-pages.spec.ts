import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, serverWithAdmin, type TestUser } from '../helpers/fixtures';
import { Client, stopAllServers } from '../helpers/server';

/**
 * A page the user's role does not allow is answered 403 with the app's own page inside its
 * layout (navigation, the user's menu, a way on), and nothing of the refused page: not its data,
 * not its form action's effect. The API keeps its JSON 403.
 */

let admin: Client;
let viewer: TestUser;
let editor: TestUser;
const SINK_NAME = 'Refusal test sink 7f3a';

beforeAll(async () => {
	({ admin } = await serverWithAdmin());
	[viewer, editor] = await Promise.all([
		createUser(admin, 'viewer', 'vera.viewer@example.test'),
		createUser(admin, 'editor', 'eddie.editor@example.test')
	]);
	const sink = await admin.json('/api/sinks', { method: 'POST', json: { name: SINK_NAME } });
	expect(sink.status).toBe(201);
});

afterAll(stopAllServers);

/** The page's HTML without the comments Svelte marks its blocks with. */
function text(html: string): string {
	return html.replace(/<!--.*?-->/g, '');
}

/** The navigation and the user's menu of the app's layout, for `name` with `role`. */
function expectLayout(html: string, name: string, role: string): void {
	expect(html).toMatch(/<nav[^>]*aria-label="Main"/);
	expect(html).toContain('href="/profiles"');
	expect(html).toContain('>Push sandboxes</a>');
	expect(html).toMatch(
		new RegExp(`class="who[^"]*">${name} <span class="tag[^"]*">${role}</span>`)
	);
	expect(html).toMatch(/<form[^>]*action="\/logout"/);
	expect(html).toContain('>Sign out</button>');
}

describe('a page the role does not allow', () => {
	it('is a 403 inside the layout, saying what needs which role, without the data', async () => {
		const answer = await viewer.client.fetch('/sinks');
		expect(answer.status).toBe(403);
		expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
		expect(answer.headers.get('cache-control')).toBe('no-store');
		expect(answer.headers.get('content-security-policy')).toMatch(/script-src/);
		expect(answer.headers.get('x-frame-options')).toBe('DENY');
		const html = text(await answer.text());
		expectLayout(html, 'vera.viewer', 'viewer');
		expect(html).toContain('<h1>403 · Not allowed</h1>');
		expect(html).toMatch(
			/The page <strong>Echo sinks<\/strong> needs the\s*<strong>editor<\/strong> role/
		);
		expect(html).toMatch(/with the\s*<strong>viewer<\/strong> role/);
		expect(html).toMatch(/<code[^>]*>\/sinks<\/code>/);
		// Nothing of the sinks page: neither its list nor its name for the data.
		expect(html).not.toContain(SINK_NAME);
		expect(html).not.toContain('sinks:');
	});

	it('is the same for an admin-only page opened by an editor, without the users', async () => {
		const answer = await editor.client.fetch('/admin/users');
		expect(answer.status).toBe(403);
		const html = text(await answer.text());
		expectLayout(html, 'eddie.editor', 'editor');
		expect(html).toContain('<strong>Users</strong>');
		expect(html).toMatch(/needs the\s*<strong>admin<\/strong> role/);
		expect(html).not.toContain('vera.viewer@example.test');
		// The editor's menu has the sinks, not the admin's pages.
		expect(html).toContain('>Echo sinks</a>');
		expect(html).not.toContain('>Audit log</a>');
	});

	it('is the same with an API token on a page', async () => {
		const created = await viewer.client.json('/api/tokens', {
			method: 'POST',
			json: { name: 'pages' }
		});
		expect(created.status).toBe(201);
		const answer = await viewer.client.withToken(created.body.token!).fetch('/sinks');
		expect(answer.status).toBe(403);
		expectLayout(text(await answer.text()), 'vera.viewer', 'viewer');
	});

	it('answers a HEAD request 403 without a body', async () => {
		const answer = await viewer.client.fetch('/sinks', { method: 'HEAD' });
		expect(answer.status).toBe(403);
		expect(await answer.text()).toBe('');
	});

	it("answers a client-side navigation's data request with a JSON 403", async () => {
		const answer = await viewer.client.json('/sinks/__data.json?x-sveltekit-invalidated=11');
		expect(answer.status).toBe(403);
		expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
		expect(JSON.parse(answer.text)).toBe(
			'This page needs the editor role. Ask an admin if you need it.'
		);
		expect(answer.text).not.toContain(SINK_NAME);
	});

	it('refuses a form sent without JavaScript with the page, and changes nothing', async () => {
		const before = await admin.json('/api/profiles');
		const answer = await viewer.client.fetch('/profiles?/create', {
			method: 'POST',
			body: 'name=Made+by+a+viewer',
			headers: { 'content-type': 'application/x-www-form-urlencoded' }
		});
		expect(answer.status).toBe(403);
		const html = text(await answer.text());
		expectLayout(html, 'vera.viewer', 'viewer');
		expect(html).toMatch(
			/Changing <strong>Profiles<\/strong> needs the\s*<strong>editor<\/strong>/
		);
		const after = await admin.json('/api/profiles');
		expect(after.body.profiles).toHaveLength(before.body.profiles!.length);
	});

	it('refuses a form sent with JavaScript with an action result', async () => {
		const answer = await viewer.client.json('/profiles?/create', {
			method: 'POST',
			body: 'name=Made+by+a+viewer',
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				'x-sveltekit-action': 'true'
			}
		});
		expect(answer.status).toBe(403);
		expect(JSON.parse(answer.text)).toEqual({
			type: 'error',
			error: { message: 'This page needs the editor role. Ask an admin if you need it.' }
		});
	});

	it('keeps the JSON 403 of the API', async () => {
		const answer = await viewer.client.json('/api/sinks');
		expect(answer.status).toBe(403);
		expect(answer.body.error).toEqual({
			code: 'forbidden',
			message: 'This needs the editor role.'
		});
	});

	it('is not a page of its own: opened directly, there is nothing there', async () => {
		for (const path of ['/forbidden', '/forbidden?method=GET&path=%2Fsinks']) {
			const answer = await viewer.client.fetch(path);
			expect(answer.status).toBe(404);
			const html = text(await answer.text());
			expect(html).not.toContain('Not allowed');
			expect(html).toContain('There is no page at this address.');
		}
	});
});
