import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, stopAllServers, type TestServer } from '../helpers/server';

/**
 * The build's scripts and styles, answered from memory before the kit (decision 0128), against
 * the real server: the bytes of the build in the encoding asked for, the headers the kit's file
 * server gives them, revalidation, and what is left to the kit (ranges, other files, unknown names).
 */

const IMMUTABLE = 'build/client/_app/immutable';

/** A built file with both compressed copies beside it, as its URL path and its bytes on disk. */
function builtFile(folder: string, extension: string) {
	const names = readdirSync(path.join(IMMUTABLE, folder));
	const name = names.find(
		(n) => n.endsWith(extension) && names.includes(`${n}.br`) && names.includes(`${n}.gz`)
	)!;
	const file = path.join(IMMUTABLE, folder, name);
	return {
		url: `/_app/immutable/${folder}/${name}`,
		identity: readFileSync(file),
		br: readFileSync(`${file}.br`),
		gzip: readFileSync(`${file}.gz`)
	};
}

/** A raw answer: status, headers and the bytes as sent (not decoded, as fetch would). */
function get(
	server: TestServer,
	url: string,
	headers: Record<string, string> = {},
	method = 'GET'
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
	return new Promise((resolve, reject) => {
		const request = http.request(server.url + url, { method, headers }, (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('end', () =>
				resolve({
					status: response.statusCode!,
					headers: response.headers,
					body: Buffer.concat(chunks)
				})
			);
		});
		request.on('error', reject);
		request.end();
	});
}

let server: TestServer;
const script = builtFile('chunks', '.js');
const style = builtFile('assets', '.css');

beforeAll(async () => {
	server = await startServer();
});

afterAll(stopAllServers);

describe('a script of the build', () => {
	it('is the Brotli copy where the browser takes it, and decodes to the built file', async () => {
		const named = await get(server, script.url, { 'accept-encoding': '*;q=0, BR' });
		expect(named.headers['content-encoding']).toBe('br');
		const answer = await get(server, script.url, { 'accept-encoding': 'gzip, deflate, br' });
		expect(answer.status).toBe(200);
		expect(answer.headers['content-encoding']).toBe('br');
		expect(answer.headers['content-type']).toBe('text/javascript');
		expect(answer.headers['cache-control']).toBe('public,max-age=31536000,immutable');
		expect(answer.headers.vary).toBe('Accept-Encoding');
		expect(Number(answer.headers['content-length'])).toBe(script.br.length);
		expect(answer.body.equals(script.br)).toBe(true);
		expect(brotliDecompressSync(answer.body).equals(script.identity)).toBe(true);
	});

	it('is the gzip copy where Brotli is not taken, refused by q=0 included', async () => {
		for (const accept of ['gzip', 'br;q=0, gzip;q=0.8', 'br;q=0, *']) {
			const answer = await get(server, script.url, { 'accept-encoding': accept });
			expect(answer.headers['content-encoding'], accept).toBe('gzip');
			expect(gunzipSync(answer.body).equals(script.identity), accept).toBe(true);
		}
	});

	it('is the file itself to a client that takes no coding', async () => {
		for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
			const answer = await get(server, script.url, headers);
			expect(answer.headers['content-encoding']).toBeUndefined();
			expect(Number(answer.headers['content-length'])).toBe(script.identity.length);
			expect(answer.body.equals(script.identity)).toBe(true);
		}
	});

	it('carries the security headers every answer carries', async () => {
		const answer = await get(server, script.url, { 'accept-encoding': 'br' });
		expect(answer.headers['x-content-type-options']).toBe('nosniff');
		expect(answer.headers['x-request-id']).toMatch(/\S/);
	});

	it('answers a revalidation with its tag by 304, without the body', async () => {
		const first = await get(server, script.url, { 'accept-encoding': 'br' });
		const etag = String(first.headers.etag);
		expect(etag).toMatch(/^"[^"]+"$/);
		for (const match of [etag, `W/${etag}`, `"other", ${etag}`]) {
			const again = await get(server, script.url, { 'if-none-match': match });
			expect(again.status, match).toBe(304);
			expect(again.body.length, match).toBe(0);
			expect(again.headers.etag).toBe(etag);
		}
		const changed = await get(server, script.url, { 'if-none-match': '"another"' });
		expect(changed.status).toBe(200);
	});

	it('answers HEAD with the headers of GET and no body', async () => {
		const head = await get(server, script.url, { 'accept-encoding': 'br' }, 'HEAD');
		expect(head.status).toBe(200);
		expect(Number(head.headers['content-length'])).toBe(script.br.length);
		expect(head.body.length).toBe(0);
	});

	it('leaves a range to the kit, which answers it from the file', async () => {
		const answer = await get(server, script.url, { range: 'bytes=0-9' });
		expect(answer.status).toBe(206);
		expect(answer.body.equals(script.identity.subarray(0, 10))).toBe(true);
	});
});

describe('other paths under the build', () => {
	it('serves a style as text/css', async () => {
		const answer = await get(server, style.url, { 'accept-encoding': 'br' });
		expect(answer.status).toBe(200);
		expect(answer.headers['content-type']).toBe('text/css');
		expect(brotliDecompressSync(answer.body).equals(style.identity)).toBe(true);
	});

	it('answers an unknown name 404, as the kit does', async () => {
		const missing = await get(server, '/_app/immutable/chunks/nothing-here.js');
		expect(missing.status).toBe(404);
	});
});
