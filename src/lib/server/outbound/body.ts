import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/**
 * Reading a response body within two caps: raw bytes received, and bytes after decoding the
 * Content-Encoding. Decoding is streamed and stops at the cap, so a small compressed body that
 * would decode to gigabytes (a gzip bomb) costs at most the cap.
 */

/** A body as read: decoded bytes (at most the cap) and whether anything was cut off. */
export interface ReadBody {
	bytes: Buffer;
	/** Bytes received on the wire (before decoding). */
	rawBytes: number;
	truncated: boolean;
	/** The Content-Encoding that was decoded, if any. */
	decoded: string | null;
	/** A decoding problem (the body was cut off or is not what its encoding says). */
	decodeError: string | null;
}

function decoderFor(encoding: string | null): Transform | null {
	switch (encoding?.trim().toLowerCase()) {
		case 'gzip':
		case 'x-gzip':
			return createGunzip();
		case 'deflate':
			return createInflate();
		case 'br':
			return createBrotliDecompress();
		default:
			return null;
	}
}

/** Collects chunks up to `cap` bytes. */
class Collector {
	readonly chunks: Buffer[] = [];
	size = 0;
	full = false;

	constructor(readonly cap: number) {}

	add(chunk: Buffer): void {
		if (this.full) return;
		const room = this.cap - this.size;
		if (chunk.length > room) {
			this.chunks.push(chunk.subarray(0, room));
			this.size += room;
			this.full = true;
			return;
		}
		this.chunks.push(chunk);
		this.size += chunk.length;
	}
}

/**
 * Reads `stream` (an undici body) with the caps. Stops reading (and destroys the stream) as
 * soon as either cap is reached.
 */
export async function readCapped(
	stream: AsyncIterable<Buffer> & { destroy(error?: Error): void },
	contentEncoding: string | null,
	caps: { raw: number; decoded: number }
): Promise<ReadBody> {
	const decoder = decoderFor(contentEncoding);
	const out = new Collector(caps.decoded);
	let rawBytes = 0;
	let rawCut = false;
	let decodeError: string | null = null;
	const decoding = decoder
		? new Promise<void>((resolve) => {
				decoder.on('data', (chunk: Buffer) => {
					out.add(chunk);
					if (out.full) decoder.destroy();
				});
				decoder.on('error', (error: Error) => {
					decodeError = error.message;
					resolve();
				});
				decoder.on('end', resolve);
				decoder.on('close', resolve);
			})
		: null;
	for await (const chunk of stream) {
		const room = caps.raw - rawBytes;
		const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
		rawBytes += part.length;
		if (decoder) {
			if (!decoder.destroyed) decoder.write(part);
		} else out.add(part);
		if (chunk.length > room) rawCut = true;
		if (rawCut || out.full) break;
	}
	if (rawCut || out.full) stream.destroy();
	if (decoder && !decoder.destroyed) decoder.end();
	await decoding;
	return {
		bytes: Buffer.concat(out.chunks, out.size),
		rawBytes,
		truncated: rawCut || out.full,
		decoded: decoder ? (contentEncoding?.trim().toLowerCase() ?? null) : null,
		// A cut-off body cannot be decoded to its end; that is the truncation, not an error.
		decodeError: rawCut || out.full ? null : decodeError
	};
}
