import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import naughty from 'big-list-of-naughty-strings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT } from '../helpers/contract';
import { Client, startServer, stopAllServers, type TestServer } from '../helpers/server';

/**
 * The published contract, held true: the served document is the committed one; each operation's
 * example body is accepted; and bodies made from each operation's schema and broken on purpose
 * (wrong types, fields missing and unknown, naughty strings) never get a 5xx, and every answer
 * is one the document describes (every answer a server test receives is checked against the
 * document by `tests/helpers/contract-setup.ts`).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN = { email: 'admin@example.test', password: 'contract-admin-password-1' };

interface Op {
	method: string;
	template: string;
	op: Json;
	mediaType?: string;
	schema?: Json;
	example?: unknown;
}

const OPS: Op[] = Object.entries<Json>(DOCUMENT.paths).flatMap(([template, item]) =>
	['get', 'post', 'put', 'patch', 'delete']
		.filter((m) => item[m])
		.map((method) => {
			const op = item[method];
			const [mediaType, media] = Object.entries<Json>(op.requestBody?.content ?? {})[0] ?? [];
			return { method, template, op, mediaType, schema: media?.schema, example: media?.example };
		})
);

/** Resolves a `$ref` of the document. */
function deref(schema: Json): Json {
	if (!schema?.$ref) return schema ?? {};
	const name = schema.$ref.split('/').pop();
	return deref(DOCUMENT.components.schemas[name]);
}

let server: TestServer;
let admin: Client;
let ids: Record<string, string>;

beforeAll(async () => {
	server = await startServer({
		env: {
			ADMIN_EMAIL: ADMIN.email,
			ADMIN_PASSWORD: ADMIN.password,
			// Test calls and flows a valid body makes go nowhere, quickly.
			OUTBOUND_CONNECT_TIMEOUT_MS: '300',
			OUTBOUND_TOTAL_TIMEOUT_MS: '600'
		}
	});
	const session = new Client(server);
	expect((await session.login(ADMIN.email, ADMIN.password)).status).toBe(200);
	const token = await session.json('/api/tokens', { method: 'POST', json: { name: 'contract' } });
	admin = session.withToken(token.body.token!);
	// One of each thing a path can name, so that path parameters reach a real item.
	const profile = await admin.json<Json>('/api/profiles', {
		method: 'POST',
		json: { name: 'Contract' }
	});
	const sandbox = await admin.json<Json>('/api/sandboxes', {
		method: 'POST',
		json: { name: 'Contract' }
	});
	const sink = await admin.json<Json>('/api/sinks', { method: 'POST', json: { name: 'Contract' } });
	const user = await admin.json<Json>('/api/users', {
		method: 'POST',
		json: {
			email: 'someone@example.test',
			name: 'Someone',
			role: 'viewer',
			password: 'someone-else-password-1'
		}
	});
	ids = {
		profile: profile.body.profile.id,
		sandbox: sandbox.body.sandbox.id,
		sandboxKey: new URL(sandbox.body.sandbox.pushUrl).pathname.split('/')[2],
		sink: sink.body.sink.key,
		user: String(user.body.user.id)
	};
});

afterAll(stopAllServers);

/** A real path for a template: each parameter names an item made above. */
function pathFor(template: string): string {
	return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
		if (template.startsWith('/api/profiles/') && name === 'id') return ids.profile;
		if (template.startsWith('/api/sandboxes/')) return ids.sandbox;
		if (template.startsWith('/sandbox/')) return ids.sandboxKey;
		if (template.startsWith('/api/sinks/') || template.startsWith('/sink/')) {
			return name === 'path' ? 'hook' : ids.sink;
		}
		if (template.startsWith('/api/users/')) return ids.user;
		if (name === 'rev') return '1';
		if (name === 'name') return 'registration';
		return '1';
	});
}

function send(op: Op, body: string | undefined) {
	return admin.fetch(pathFor(op.template), {
		method: op.method.toUpperCase(),
		...(body === undefined
			? {}
			: { body, headers: { 'content-type': op.mediaType ?? 'application/json' } })
	});
}

const encode = (value: unknown, mediaType = 'application/json') =>
	mediaType.endsWith('json') ? JSON.stringify(value) : String(value);

describe('the published document', () => {
	it('is served without a session, equal to docs/openapi.json, with an ETag', async () => {
		const answer = await fetch(`${server.url}/api/openapi.json`);
		expect(answer.status).toBe(200);
		expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
		const text = await answer.text();
		expect(text).toBe(readFileSync(path.join(ROOT, 'docs/openapi.json'), 'utf8'));
		const etag = answer.headers.get('etag');
		expect(etag).toMatch(/^"[\w-]+"$/);
		const again = await fetch(`${server.url}/api/openapi.json`, {
			headers: { 'if-none-match': etag! }
		});
		expect(again.status).toBe(304);
		expect(await again.text()).toBe('');
		// Gzipped for a client that takes it, the same document once read.
		const zipped = await fetch(`${server.url}/api/openapi.json`, {
			headers: { 'accept-encoding': 'gzip' }
		});
		expect(zipped.headers.get('content-encoding')).toBe('gzip');
		expect(zipped.headers.get('vary')).toMatch(/accept-encoding/i);
		expect(await zipped.text()).toBe(text);
	});

	it('is answered before the kit exactly as the kit’s route answers it', async () => {
		// The exact address is served directly; with a query it goes through the kit's route.
		const parts = async (answer: Response) => ({
			status: answer.status,
			headers: ['etag', 'vary', 'content-type', 'content-encoding', 'cache-control'].map((h) =>
				answer.headers.get(h)
			),
			body: Buffer.from(await answer.arrayBuffer()).toString('base64')
		});
		for (const headers of [{ 'accept-encoding': 'identity' }, { 'accept-encoding': 'gzip' }]) {
			const direct = await fetch(`${server.url}/api/openapi.json`, { headers });
			const kit = await fetch(`${server.url}/api/openapi.json?through=kit`, { headers });
			expect(await parts(direct)).toEqual(await parts(kit));
		}
		const head = await fetch(`${server.url}/api/openapi.json`, {
			method: 'HEAD',
			headers: { 'accept-encoding': 'identity' }
		});
		expect(head.status).toBe(200);
		expect(Number(head.headers.get('content-length'))).toBe(
			Buffer.byteLength(readFileSync(path.join(ROOT, 'docs/openapi.json'), 'utf8'))
		);
		expect(head.headers.get('x-request-id')).toBeTruthy();
		expect(await head.text()).toBe('');
	});

	it('is drawn as a reference page without a session, under the app’s CSP', async () => {
		const answer = await fetch(`${server.url}/api/docs`);
		expect(answer.status).toBe(200);
		const html = await answer.text();
		for (const op of OPS) expect(html).toContain(`id="${op.op.operationId}"`);
		const csp = answer.headers.get('content-security-policy') ?? '';
		expect(csp).toContain("script-src 'self'");
		expect(csp).not.toMatch(/https?:\/\//);
	});

	it('draws an operation’s description in paragraphs, its `- ` lines as a list', async () => {
		const html = await (await fetch(`${server.url}/api/docs`)).text();
		const start = html.indexOf('id="runFlow"');
		const article = html.slice(start, html.indexOf('</article>', start));
		const items = [...article.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((m) =>
			m[1].replace(/<[^>]*>/g, '').trim()
		);
		expect(items.map((item) => item.split(' ')[0])).toEqual([
			'registration',
			'sso',
			'contacts',
			'send-message',
			'app-start'
		]);
		expect(article).not.toMatch(/\. - <code>/);
	});
});

describe('every operation', () => {
	it('accepts the example body the document gives it', async () => {
		const refused: string[] = [];
		for (const op of OPS.filter((o) => o.example !== undefined)) {
			const answer = await send(op, encode(op.example, op.mediaType));
			const text = await answer.text();
			// Read, and refused for what it says (a wrong current password), is accepted as input.
			const unread = /"code":"(invalid_input|invalid_json|payload_too_large)"/.test(text);
			if (unread || answer.status >= 500) {
				refused.push(`${op.op.operationId}: ${answer.status} ${text.slice(0, 200)}`);
			}
		}
		expect(refused).toEqual([]);
	});

	it('answers bodies broken on purpose with a documented 4xx, never a 5xx', async () => {
		const withBody = OPS.filter((o) => o.schema && o.mediaType?.endsWith('json'));
		expect(withBody.length).toBeGreaterThan(20);
		const wrongValue = fc.oneof(
			fc.constantFrom(null, true, 0, -1, 1e308, '', [], {}),
			fc.constantFrom(...naughty),
			fc.string({ maxLength: 40 }),
			fc.integer(),
			fc.jsonValue({ maxDepth: 2 })
		);
		const failures: string[] = [];
		await fc.assert(
			fc.asyncProperty(
				fc.constantFrom(...withBody),
				fc.oneof(
					// A field of the schema with a wrong value, or without it.
					fc.record({ kind: fc.constant('field'), at: fc.nat(), value: wrongValue }),
					fc.record({ kind: fc.constant('drop'), at: fc.nat() }),
					// A field the schema does not have.
					fc.record({ kind: fc.constant('unknown'), key: fc.string(), value: wrongValue }),
					// Something else entirely as the body.
					fc.record({ kind: fc.constant('whole'), value: wrongValue }),
					fc.record({ kind: fc.constant('text'), value: fc.constantFrom(...naughty) })
				),
				async (op, change: Json) => {
					const base = (
						op.example && typeof op.example === 'object' && !Array.isArray(op.example)
							? { ...op.example }
							: {}
					) as Record<string, unknown>;
					const fields = Object.keys(deref(op.schema).properties ?? {});
					const field = fields.length ? fields[(change.at ?? 0) % fields.length] : undefined;
					let body: string;
					if (change.kind === 'field' && field)
						body = JSON.stringify({ ...base, [field]: change.value });
					else if (change.kind === 'drop' && field) {
						delete base[field];
						body = JSON.stringify(base);
					} else if (change.kind === 'unknown') {
						body = JSON.stringify({ ...base, [`x${change.key}`]: change.value });
					} else if (change.kind === 'text') body = change.value;
					else body = JSON.stringify(change.value ?? null);
					const answer = await send(op, body);
					await answer.body?.cancel();
					if (answer.status >= 500) failures.push(`${op.op.operationId} ${answer.status}: ${body}`);
					return answer.status < 500;
				}
			),
			{ numRuns: 400 }
		);
		expect(failures).toEqual([]);
	});
});
