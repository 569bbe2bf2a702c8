// Types only: this module reads requests the app's server received, it opens no connection.
// eslint-disable-next-line no-restricted-imports
import type { IncomingMessage } from 'node:http';
import type { BodyReader } from '../push/sandboxes';

/**
 * Reading a request as Node's HTTP server gives it, for the endpoints the app's start script
 * serves before the kit (the push gateway, `push/gateway-direct.ts`; test calls,
 * `direct-api.ts`): its body, and the caller's address as the kit would give it.
 */

/** A request's header by its lower-case name when it came once, else null. */
export function headerOf(req: IncomingMessage): (name: string) => string | null {
	return (name) => {
		const value = req.headers[name];
		return typeof value === 'string' ? value : null;
	};
}

/**
 * Reads a Node request's body up to `limit` bytes. Past it, the rest is read and dropped (the
 * answer, 413, closes the connection): destroying the request would close the socket before
 * the answer could be sent.
 */
export function nodeBody(req: IncomingMessage): BodyReader {
	return (limit) =>
		new Promise((resolve, reject) => {
			const chunks: Buffer[] = [];
			let size = 0;
			const done = () => {
				req.off('data', onData);
				req.off('end', onEnd);
				req.off('error', onError);
				req.off('close', onClose);
			};
			const onData = (chunk: Buffer) => {
				size += chunk.length;
				if (size <= limit) {
					chunks.push(chunk);
					return;
				}
				done();
				req.resume();
				resolve(undefined);
			};
			const onEnd = () => {
				done();
				resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
			};
			const onError = (error: Error) => {
				done();
				reject(error);
			};
			const onClose = () => {
				if (req.complete) return;
				done();
				reject(new Error('The client went away before sending the whole body.'));
			};
			req.on('data', onData);
			req.on('end', onEnd);
			req.on('error', onError);
			req.on('close', onClose);
		});
}

/**
 * The caller's address as the kit's Node adapter gives it: from `ADDRESS_HEADER` (and
 * `XFF_DEPTH` for X-Forwarded-For) when the app runs behind a proxy that sets one.
 */
export function clientAddress(req: IncomingMessage): string {
	const name = (process.env.ADDRESS_HEADER ?? '').toLowerCase();
	if (!name) return req.socket.remoteAddress ?? 'unknown';
	const value = req.headers[name];
	if (typeof value !== 'string') return 'unknown';
	if (name !== 'x-forwarded-for') return value;
	const depth = Number.parseInt(process.env.XFF_DEPTH ?? '1', 10);
	const addresses = value.split(',');
	return depth >= 1 && depth <= addresses.length
		? addresses[addresses.length - depth].trim()
		: 'unknown';
}
