import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';

/**
 * A real local upstream for test calls: an HTTP server on 127.0.0.1 and an ephemeral port that
 * records every request it receives (and every connection, even one that sends nothing) and
 * answers with what the test queued. Stopping it closes every connection.
 */

/** A request as the upstream received it. */
export interface Received {
	method: string;
	/** Path and query as sent. */
	url: string;
	/** Header names in lowercase (repeated headers joined by ", "). */
	headers: Record<string, string>;
	body: string;
}

/** What the upstream answers: a status and headers and body, or a handler of its own. */
export type Answer =
	| { status: number; headers?: Record<string, string>; body?: string | Buffer }
	| ((req: IncomingMessage, res: ServerResponse) => void);

/** A running upstream. */
export interface Upstream {
	url: string;
	port: number;
	requests: Received[];
	/** Connections accepted so far. */
	connections(): number;
	/** Queues the answer to the next request (the default is 200 with no body). */
	answerNext(answer: Answer): void;
	stop(): Promise<void>;
}

/**
 * The test certificate of the HTTPS upstream: self-signed for 127.0.0.1 and localhost. A server
 * trusts it only when started with `NODE_EXTRA_CA_CERTS` set to {@link TEST_CERTIFICATE}.
 */
const TLS_DIR = path.resolve(import.meta.dirname, '../fixtures/tls');
export const TEST_CERTIFICATE = path.join(TLS_DIR, 'cert.pem');

/**
 * Starts an upstream; `tls` makes it answer HTTPS with the test certificate; `otherwise` answers
 * when nothing is queued (200 with no body by default).
 */
export async function startUpstream(
	options: { tls?: boolean; otherwise?: Answer } = {}
): Promise<Upstream> {
	const requests: Received[] = [];
	const queue: Answer[] = [];
	const sockets = new Set<Socket>();
	let connections = 0;
	const handle = (req: IncomingMessage, res: ServerResponse) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const headers: Record<string, string> = {};
			for (let i = 0; i < req.rawHeaders.length; i += 2) {
				const name = req.rawHeaders[i].toLowerCase();
				headers[name] = headers[name]
					? `${headers[name]}, ${req.rawHeaders[i + 1]}`
					: req.rawHeaders[i + 1];
			}
			requests.push({
				method: req.method ?? '',
				url: req.url ?? '',
				headers,
				body: Buffer.concat(chunks).toString('utf8')
			});
			const answer = queue.shift() ?? options.otherwise ?? { status: 200 };
			if (typeof answer === 'function') return answer(req, res);
			res.writeHead(answer.status, answer.headers);
			res.end(answer.body);
		});
	};
	const server = options.tls
		? createTlsServer(
				{
					key: readFileSync(path.join(TLS_DIR, 'key.pem')),
					cert: readFileSync(TEST_CERTIFICATE)
				},
				handle
			)
		: createServer(handle);
	server.on('connection', (socket: Socket) => {
		connections++;
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	server.unref();
	const { port } = server.address() as AddressInfo;
	return {
		url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
		port,
		requests,
		connections: () => connections,
		answerNext: (answer) => queue.push(answer),
		stop: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			})
	};
}
