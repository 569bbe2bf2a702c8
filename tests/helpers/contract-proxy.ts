import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through in front of the app for a program the tests run as a process of its own (the
 * command-line program's `--server` mode): every request it sends is forwarded to the app with
 * the test's own `fetch`, so every answer goes through the one check of the test process
 * (`contract-setup.ts`) before the program receives it. Listens on 127.0.0.1, on a port of its own.
 */
export interface ContractProxy {
	/** The address to give the program instead of the app's. */
	url: string;
	close(): Promise<void>;
}

/** Headers of one hop, or that `fetch` sets itself (it also decodes the body it received). */
const HOP = new Set([
	'connection',
	'keep-alive',
	'transfer-encoding',
	'content-length',
	'content-encoding',
	'host'
]);

async function bodyOf(req: IncomingMessage): Promise<ArrayBuffer | undefined> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	if (chunks.length === 0) return undefined;
	const bytes = Buffer.concat(chunks);
	const body = new ArrayBuffer(bytes.byteLength);
	new Uint8Array(body).set(bytes);
	return body;
}

export async function contractProxy(target: string): Promise<ContractProxy> {
	const server = createServer((req, res) => {
		void (async () => {
			const headers = new Headers();
			for (const [name, value] of Object.entries(req.headers)) {
				if (HOP.has(name) || value === undefined) continue;
				for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
			}
			const answer = await fetch(`${target}${req.url}`, {
				method: req.method,
				headers,
				body: await bodyOf(req),
				redirect: 'manual'
			});
			const body = Buffer.from(await answer.arrayBuffer());
			const out: Record<string, string | string[]> = {};
			answer.headers.forEach((value, name) => {
				if (!HOP.has(name)) out[name] = value;
			});
			const cookies = answer.headers.getSetCookie();
			if (cookies.length > 0) out['set-cookie'] = cookies;
			res.writeHead(answer.status, { ...out, 'content-length': String(body.byteLength) });
			res.end(body);
		})().catch(() => res.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}
